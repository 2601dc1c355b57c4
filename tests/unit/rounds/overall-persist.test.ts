import { afterEach, describe, expect, test } from "vitest";
import { serverAnswer } from "@/app/api/_lib/handlers";
import { judge } from "@/lib/checks";
import type { Exchange, ProbeObservation, SeenChallenge } from "@/lib/probe/types";
import { persistRun } from "@/lib/rounds/persist";
import { resolveBadge } from "@/lib/site/badge-route";
import { stateChangesAtom } from "@/lib/site/feed";
import { putCrossRead } from "@/lib/store/cross-reads";
import { stateChanges } from "@/lib/store/history";
import { badgeStates } from "@/lib/store/servers/detail";
import { listServers } from "@/lib/store/servers/list";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { serverDataVersion } from "@/lib/store/versions";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// The overall state and the Not checked kinds as the round writes them (persistRun, real SQLite) and as every
// reader shows them: the list API's rows and sort, the badge, the server JSON, the state feed, the data version.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const NAMES = ["io.x/gated", "io.x/healthy", "io.x/down", "io.x/opted-out", "io.x/risky"];

function setup() {
  const t = tempDb("overall-");
  cleanups.push(t.cleanup);
  applyRegistrySnapshot(
    t.db,
    NAMES.map((name, i) => listedServer(name, `https://s${i}.example/mcp`)),
    "2026-11-01T00:00:00.000Z",
  );
  const ids = new Map(
    (t.db.$client.prepare("select id, name from servers").all() as { id: number; name: string }[]).map((r) => [r.name, r.id]),
  );
  return { db: t.db, id: (n: string) => ids.get(n)! };
}

const ex = (seq: number, phase: Exchange["phase"], status?: number, headers: Record<string, string> = {}): Exchange => ({
  seq,
  phase,
  method: phase === "auth_metadata" ? "GET" : "POST",
  url: phase === "auth_metadata" ? "https://s0.example/.well-known/oauth-protected-resource" : "https://s0.example/mcp",
  requestHeaders: {},
  responseHeaders: headers,
  durationMs: 5,
  ...(status ? { status, bodyExcerpt: "{}" } : { error: "ECONNREFUSED" }),
});

const base = (at: Date) => ({
  url: "https://s0.example/mcp",
  transport: "streamable-http" as const,
  startedAt: at.toISOString(),
  finishedAt: at.toISOString(),
});

/** A credential gate on initialize whose protected-resource metadata is fine: auth_metadata Verified, the rest Not checked. */
function gated(at: Date): ProbeObservation {
  const challenge: SeenChallenge = {
    phase: "initialize",
    status: 401,
    seq: 2,
    challenges: [{ scheme: "Bearer", params: { resource_metadata: "https://s0.example/.well-known/oauth-protected-resource" } }],
  };
  return {
    ...base(at),
    era: "unknown",
    handshake: { kind: "credential_gate", challenge, fallbackCause: "server/discover answered HTTP 401", seqs: [1, 2] },
    toolsList: { kind: "not_attempted", why: "the handshake met a credential gate" },
    toolCall: { kind: "withheld", why: "the handshake was stopped by a credential gate", cause: "credential_gate" },
    authMetadata: {
      kind: "ok",
      url: "https://s0.example/.well-known/oauth-protected-resource",
      resource: "https://s0.example/mcp",
      authorizationServers: ["https://auth.example"],
      seq: 3,
      challenge,
    },
    exchanges: [
      ex(1, "discover", 401),
      ex(2, "initialize", 401, {
        "www-authenticate": 'Bearer resource_metadata="https://s0.example/.well-known/oauth-protected-resource"',
      }),
      ex(3, "auth_metadata", 200),
    ],
  };
}

function healthy(at: Date): ProbeObservation {
  return {
    ...base(at),
    era: "modern",
    handshake: { kind: "modern", protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], seq: 1 },
    toolsList: { kind: "complete", tools: [{ name: "a", inputSchema: { type: "object" } }], pages: 1, malformed: [], seqs: [2] },
    toolCall: {
      kind: "answered",
      status: 200,
      shape: { type: "jsonrpc_error", code: -32602, message: "Unknown tool", transport: "json" },
      seq: 3,
    },
    authMetadata: { kind: "no_challenge" },
    exchanges: [ex(1, "discover", 200), ex(2, "tools_list", 200), ex(3, "tools_call", 200)],
  };
}

/** server/discover answered 500: discovery Failed with no fallback (architecture.md §2.1.7). */
function discover500(at: Date): ProbeObservation {
  return {
    ...base(at),
    era: "unknown",
    handshake: { kind: "failed", cause: "server/discover answered HTTP 500", seq: 1 },
    exchanges: [ex(1, "discover", 500)],
  };
}

function optedOut(at: Date): ProbeObservation {
  return {
    ...base(at),
    era: "unknown",
    blocked: { kind: "opted_out", host: "s3.example", reason: "robots.txt disallows mcp-status-probe" },
    exchanges: [],
  };
}

function risky(at: Date): ProbeObservation {
  const o = healthy(at);
  return {
    ...o,
    toolCall: { kind: "answered", status: 500, shape: { type: "malformed", description: "an HTML page", form: "html" }, seq: 3 },
  };
}

const T0 = new Date("2026-12-01T08:00:00.000Z");

function persistAll(db: ReturnType<typeof setup>["db"], id: (n: string) => number) {
  const runs: [string, ProbeObservation, boolean][] = [
    ["io.x/gated", gated(T0), false],
    ["io.x/healthy", healthy(T0), false],
    ["io.x/down", discover500(T0), false],
    ["io.x/opted-out", optedOut(T0), true],
    ["io.x/risky", risky(T0), false],
  ];
  for (const [name, obs, skipped] of runs)
    persistRun(db, { serverId: id(name), roundId: null, obs, results: judge(obs), skipped, now: T0 });
}

describe("the overall state as written and read", () => {
  test("a credential-gated server with good metadata is Not checked (credential required) everywhere, never Verified", async () => {
    const { db, id } = setup();
    persistAll(db, id);
    const row = listServers(db, { q: "gated" }).rows[0]!;
    expect(row).toMatchObject({ overall: "not_checked", overallCause: "credential_required", states: { auth_metadata: "verified" } });
    expect(row.notCheckedCauses).toEqual({
      handshake: "credential_required",
      protocol_version: "credential_required",
      tools_list: "credential_required",
      error_taxonomy: "withheld",
    });
    const badge = resolveBadge(badgeStates(db, "io.x/gated"), null);
    expect(badge.ok && badge.spec.message).toBe("not checked");
    const json = JSON.parse(serverAnswer("io.x/gated", db).body);
    expect(json).toMatchObject({
      overall: "not_checked",
      overallCause: "credential_required",
      overallCheck: "handshake",
      overallReason: expect.stringMatching(/^Credential required:/),
    });
    expect(json.checks.handshake.notCheckedCause).toBe("credential_required");
    // The state feed says where each change left the server.
    const feed = stateChangesAtom({
      origin: "https://s.example",
      selfPath: "/changes/states.xml",
      title: "t",
      rows: stateChanges(db, { serverId: id("io.x/gated"), limit: 10 }),
      now: T0,
    });
    expect(feed).toContain("Overall after this probe: Not checked (credential required).");
  });

  test("each state of the rule, and an opted-out server that got no request", () => {
    const { db, id } = setup();
    persistAll(db, id);
    const rows = new Map(listServers(db, { pageSize: 10 }).rows.map((r) => [r.name, r]));
    expect(rows.get("io.x/healthy")).toMatchObject({ overall: "verified", overallCause: null });
    expect(rows.get("io.x/down")).toMatchObject({ overall: "failed", overallCause: null });
    expect(rows.get("io.x/risky")).toMatchObject({ overall: "observed_risk" });
    expect(rows.get("io.x/opted-out")).toMatchObject({ overall: "not_checked", overallCause: "opted_out", lastProbedAt: null });
    const hs = JSON.parse(serverAnswer("io.x/down", db).body).checks.handshake;
    expect(hs).toMatchObject({ state: "failed", noFallback: "discover_server_error", noFallbackCode: 500, notCheckedCause: null });
    const healthyBadge = resolveBadge(badgeStates(db, "io.x/healthy"), null);
    expect(healthyBadge.ok && healthyBadge.spec.message).toBe("verified");
  });

  test("the list filters by overall state and sorts by name, overall state and last probe", () => {
    const { db, id } = setup();
    persistAll(db, id);
    persistRun(db, {
      serverId: id("io.x/healthy"),
      roundId: null,
      obs: healthy(new Date(T0.getTime() + 60_000)),
      results: judge(healthy(T0)),
      skipped: false,
      now: new Date(T0.getTime() + 60_000),
    });
    const names = (q: Parameters<typeof listServers>[1]) => listServers(db, q).rows.map((r) => r.name);
    expect(names({ overall: "not_checked" })).toEqual(["io.x/gated", "io.x/opted-out"]);
    expect(names({ sort: "name", order: "desc" })).toEqual([...NAMES].sort().reverse());
    expect(names({ sort: "overall" })).toEqual(["io.x/down", "io.x/risky", "io.x/gated", "io.x/opted-out", "io.x/healthy"]);
    expect(names({ sort: "overall", order: "desc" })).toEqual(["io.x/healthy", "io.x/gated", "io.x/opted-out", "io.x/risky", "io.x/down"]);
    // Latest probe first; the opted-out server was never sent a request and comes last either way.
    expect(names({ sort: "last_probed" })).toEqual(["io.x/healthy", "io.x/down", "io.x/gated", "io.x/risky", "io.x/opted-out"]);
    expect(names({ sort: "last_probed", order: "asc" }).at(-1)).toBe("io.x/opted-out");
  });

  test("a server's data version changes when its cross-read does", () => {
    const { db, id } = setup();
    persistAll(db, id);
    const before = serverDataVersion(db, "io.x/down");
    const row = {
      serverId: id("io.x/down"),
      outcome: "only_cross_reader" as const,
      paths: [],
      detail: "read with 2025-06-18",
      crossToolCount: 3,
      probeToolCount: null,
      readAt: "2026-12-01T09:00:00.000Z",
    };
    putCrossRead(db, "2026-12-01", row);
    const unexplained = serverDataVersion(db, "io.x/down");
    expect(unexplained).not.toBe(before);
    putCrossRead(db, "2026-12-01", { ...row, explanation: { rule: "discover_server_error", code: 500 } });
    expect(serverDataVersion(db, "io.x/down")).not.toBe(unexplained);
    expect(serverDataVersion(db, "io.x/healthy")).toBe(serverDataVersion(db, "io.x/healthy"));
    const json = JSON.parse(serverAnswer("io.x/down", db).body);
    expect(json.crossRead).toMatchObject({
      day: "2026-12-01",
      outcome: "only_cross_reader",
      explained: true,
      explanation: "discover_server_error",
      explanationCode: 500,
    });
    expect(json.crossRead.sentence).toBe(
      "An initialize-first reader read 3 tools on 2026-12-01; modern clients fail here because server/discover answered HTTP 500.",
    );
  });
});
