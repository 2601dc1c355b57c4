import { describe, expect, test } from "vitest";
import { serverStatusOutput, type ServerStatus } from "@/lib/mcp/schemas";
import { serverStatusText } from "@/lib/mcp/text";

const check = (state: "verified" | "failed" | "not_checked", reason: string, hint: string | null = null) => ({
  state,
  reason,
  hint,
  since: "2026-11-28T10:00:00.000Z",
  decidedAt: "2026-11-30T10:00:00.000Z",
  suiteVersion: "0.13.0",
});

const figure = (ratio: number | null) => ({ ratio, up: 9, reached: 10, from: "2026-11-30T10:00:00.000Z" });

const status: ServerStatus = {
  name: "io.github.acme/tls",
  title: "TLS trouble",
  description: null,
  page: "https://status.example/servers/io.github.acme/tls",
  json: "https://status.example/api/servers/io.github.acme/tls",
  remoteUrl: "https://tls.acme.dev/mcp",
  transport: "streamable-http",
  inRegistry: true,
  leftRegistryAt: null,
  overall: { state: "failed", check: "handshake", reason: "The TLS handshake failed: the certificate expired on 2026-11-01.", cause: null },
  checks: {
    handshake: check(
      "failed",
      "The TLS handshake failed: the certificate expired on 2026-11-01.",
      "Renew the certificate of tls.acme.dev.",
    ),
    protocol_version: check("failed", "No revision was agreed: the handshake failed."),
    tools_list: check("not_checked", "The tool list was not requested: the handshake failed."),
    error_taxonomy: check("not_checked", "The reserved-tool call was withheld because the handshake failed."),
    auth_metadata: null,
  },
  era: "unknown",
  protocolVersion: null,
  toolCount: null,
  lastProbedAt: "2026-11-30T10:00:00.000Z",
  lastCompleteReadAt: null,
  nextDueAt: "2026-11-30T16:00:00.000Z",
  uptime: { last24h: figure(0.9), last7d: figure(1), last30d: figure(null), last90d: figure(0.5) },
  observations: [],
  clients: {
    initializeFirst: {
      state: "unknown",
      reason: "Not known: the probe did not send initialize, because the handshake was decided before it.",
    },
    discoverFirst: { state: "no", reason: "They cannot connect: the server answers server/discover with no answer." },
  },
  configuration: { needed: false, headers: [], reach: "not_needed", sentence: null },
};

describe("get_server_status's summary for a model", () => {
  test("names every check's state with its reason, the hint as what to change, the times and the page", () => {
    expect(serverStatusOutput.safeParse(status).success).toBe(true);
    const text = serverStatusText(status);
    expect(text).toContain("Overall: Failed, decided by handshake: The TLS handshake failed");
    expect(text).toContain(
      "- handshake (Handshake): Failed. The TLS handshake failed: the certificate expired on 2026-11-01.\n  What to change: Renew the certificate of tls.acme.dev.",
    );
    expect(text).toContain("- tools_list (Tool list): Not checked. The tool list was not requested");
    expect(text).toContain("- auth_metadata (Auth metadata): not probed yet.");
    expect(text).toContain("Last probe: 2026-11-30T10:00:00Z. Last complete read of the tool list: never.");
    expect(text).toContain("Uptime: 24 h 90.0%, 7 days 100%, 30 days no probe reached it, 90 days 50.0%.");
    expect(text).toContain("Page: https://status.example/servers/io.github.acme/tls");
    expect(text).not.toContain("Observations");
    expect(text).not.toContain("Configuration:");
  });

  test("says what reaching a server without its listed key found (suite 0.15.0)", () => {
    const refused = {
      ...status,
      configuration: {
        needed: true,
        headers: ["X-Api-Key"],
        reach: "refused" as const,
        refusal: { status: 403, shape: "malformed" as const },
        sentence: "Refused with 403 without the `X-Api-Key` header the registry marks required: configure the key to connect.",
      },
    };
    expect(serverStatusOutput.safeParse(refused).success).toBe(true);
    expect(serverStatusText(refused)).toContain(
      "Configuration: Refused with 403 without the `X-Api-Key` header the registry marks required: configure the key to connect.",
    );
  });

  test("lists the observations as facts that changed no state", () => {
    const withObs = {
      ...status,
      lastCompleteReadAt: "2026-11-30T10:00:00.000Z",
      observations: [
        {
          code: "conceals_from_user" as const,
          tool: "add",
          pointer: "/tools/1/description",
          sentence:
            "The description of `add` says 'Do not tell the user' at offset 19: words that ask the model to keep something from the user.",
          offset: 19,
          count: 1,
        },
      ],
    };
    expect(serverStatusOutput.safeParse(withObs).success).toBe(true);
    const text = serverStatusText(withObs);
    expect(text).toContain("Observations on the tool definitions (facts, not verdicts; they change no state): 1.");
    expect(text).toContain("- conceals_from_user: The description of `add` says 'Do not tell the user'");
    expect(serverStatusText({ ...status, lastCompleteReadAt: "2026-11-30T10:00:00.000Z" })).toContain(
      "Observations on the tool definitions: none.",
    );
  });
});
