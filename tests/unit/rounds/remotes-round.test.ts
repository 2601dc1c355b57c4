// architecture.md §2.6 end to end: a server whose first remote needs a secret is probed on its second, and its page's
// JSON lists every remote with its standing. Real loopback servers, a real registry, a real SQLite file.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getServer } from "@/app/api/_lib/handlers";
import { createAddressPolicy } from "@/lib/probe";
import { runRound } from "@/lib/rounds/round";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startZooServer, type RunningZooServer } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

const NAME = "io.github.multi/remotes";
const ALL_NEED = "io.github.multi/every-remote-needs-configuration";
let zoo: RunningZooServer;
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;

beforeAll(async () => {
  t = tempDb();
  zoo = await startZooServer("modern-healthy-paged");
  const secret = [{ name: "Authorization", isRequired: true, isSecret: true, description: "Bearer token" }];
  registry = await startFixtureRegistry([
    entry(NAME, [
      // Listed first, and it would answer 404 if probed: only its required header keeps the probe away.
      { type: "streamable-http", url: `${zoo.origin}/authenticated/mcp`, headers: secret },
      { type: "sse", url: `${zoo.origin}/sse`, headers: [{ name: "X-Tenant", value: "{tenant}" }] },
      { type: "streamable-http", url: zoo.url, headers: [{ name: "X-Api-Key", isSecret: true, description: "optional" }] },
    ]),
    entry(ALL_NEED, [
      { type: "streamable-http", url: `${zoo.origin}/a/mcp`, headers: secret },
      { type: "sse", url: `${zoo.origin}/a/sse`, headers: secret },
    ]),
  ]);
  const summary = await runRound({
    db: t.db,
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    robots: false,
    log: () => undefined,
    trigger: "test",
  });
  expect(summary.status).toBe("done");
});

afterAll(async () => {
  await zoo?.close();
  await registry?.close();
  t?.cleanup();
});

describe("a server with several remotes", () => {
  test("is probed on the first remote that needs no configuration, and only there", async () => {
    const paths = new Set(zoo.log.map((r) => r.path.split("?")[0] ?? "").filter((p) => !p.startsWith("/a/")));
    expect([...paths]).toEqual(["/mcp"]);
    const body = JSON.parse(await getServer(NAME, t.db).text()) as {
      remoteUrl: string;
      needsConfig: string | null;
      states: Record<string, string>;
      remotes: { url: string; transport: string; standing: string; why: string | null }[];
    };
    expect(body.remoteUrl).toBe(zoo.url);
    expect(body.needsConfig).toBeNull();
    expect(body.states.handshake).toBe("verified");
    expect(body.states.tools_list).toBe("verified");
    expect(body.remotes).toEqual([
      {
        url: `${zoo.origin}/authenticated/mcp`,
        transport: "streamable-http",
        standing: "needs_configuration",
        why: "it requires the header Authorization, and the probe never sends registry headers",
      },
      {
        url: `${zoo.origin}/sse`,
        transport: "sse",
        standing: "needs_configuration",
        why: "its header X-Tenant holds {tenant} for the user to fill in",
      },
      { url: zoo.url, transport: "streamable-http", standing: "probed", why: null },
    ]);
  });

  test("0.15.0: when every remote needs headers, the first streamable-http one is probed without them", async () => {
    const body = JSON.parse(await getServer(ALL_NEED, t.db).text()) as {
      needsConfig: string;
      states: Record<string, string>;
      checks: Record<string, { reason: string }>;
      configuration: { needed: boolean; headers: string[]; reach: string; refusal?: { status: number; shape: string } };
    };
    const sent = zoo.log.filter((r) => r.path.startsWith("/a/"));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.path.startsWith("/a/mcp") && r.headers.authorization === undefined)).toBe(true);
    expect(body.needsConfig).toMatch(
      /^each of its 2 listed remotes needs configuration; the first streamable-http one: it requires the header Authorization/,
    );
    // The zoo answers 404 there: refused without the key, so Not checked, never Failed.
    expect(body.states.handshake).toBe("not_checked");
    expect(body.checks.handshake!.reason).toMatch(/^Refused with HTTP 404 without the `Authorization` header/);
    expect(body.configuration).toEqual({
      needed: true,
      headers: ["Authorization"],
      reach: "refused",
      refusal: { status: 404, shape: "malformed" },
    });
  });
});
