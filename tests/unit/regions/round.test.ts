import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runs, servers } from "@/db/schema";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { startZooServer, ZOO_ALSO_ACCEPTABLE, ZOO_EXPECTATIONS, type RunningZooServer } from "@/lib/demo/zoo";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { createAddressPolicy } from "@/lib/probe";
import { closeRegionConnections } from "@/lib/rounds/regions";
import { runRound, type RoundDeps } from "@/lib/rounds/round";
import { getServerDetail } from "@/lib/store/servers/detail";
import { SITE_USER, startAgent, startBroker, type AgentProcess, type Broker } from "@/tests/fixtures/nats";
import { tempDb } from "../store/helpers";

// Whole rounds through agents (architecture.md §8): the zoo judged through regions a and b gets the states it gets
// in-process, each server read by one region, confirmations written as runs of their own.

// The zoo's first 60 plain cases (no TLS, broken network, opt-outs or private metadata address, which need the zoo
// harness's own setup), and a 5xx that every region sees alike.
const CASES = Object.keys(ZOO_EXPECTATIONS)
  .filter((n) => {
    const e = ZOO_EXPECTATIONS[n]!;
    return !e.tls && !e.network && !e.optOut && n !== "auth-prm-private-address";
  })
  .slice(0, 60);
if (!CASES.includes("discover-500-stack-trace")) CASES.push("discover-500-stack-trace");
let broker: Broker;
const agents: AgentProcess[] = [];
const zoo = new Map<string, RunningZooServer>();
let registry: FixtureRegistry;
const t = tempDb();
let clock = Date.parse("2026-12-01T12:00:00.000Z");

beforeAll(async () => {
  broker = await startBroker(["a", "b"]);
  agents.push(startAgent(broker, "a"), startAgent(broker, "b"));
  await Promise.all(agents.map((a) => a.ready));
  for (const n of CASES) zoo.set(n, await startZooServer(n));
  registry = await startFixtureRegistry(
    CASES.map((n) => entry(`io.zoo/${n}`, [{ type: ZOO_EXPECTATIONS[n]!.transport ?? "streamable-http", url: zoo.get(n)!.url }])),
  );
}, 60_000);

afterAll(async () => {
  await closeRegionConnections();
  await Promise.all(agents.map((a) => a.kill()));
  await broker?.stop();
  await Promise.all([...zoo.values()].map((z) => z.close()));
  await registry?.close();
  t.cleanup();
});

const deps = (): RoundDeps => ({
  db: t.db,
  registryUrl: registry.url,
  registryOptions: { sleep: async () => undefined },
  addressPolicy: createAddressPolicy({ allowPrivate: true }),
  limits: { deadlineMs: 10_000 },
  robots: false,
  now: () => new Date(clock),
  log: () => undefined,
  trigger: "test",
  regions: { regions: ["a", "b"], nats: { url: broker.url, user: SITE_USER, password: broker.users[SITE_USER]! } },
});

describe("a round through two regions", () => {
  test("the zoo gets the states it gets in-process; every run records its region", async () => {
    const s = await runRound(deps());
    expect(s.status).toBe("done");
    expect(s.probed).toBe(CASES.length);
    for (const n of CASES) {
      const d = getServerDetail(t.db, `io.zoo/${n}`)!;
      const alt = ZOO_ALSO_ACCEPTABLE[n] ?? {};
      for (const id of CHECK_IDS) {
        const got = d.checks.find((c) => c.check === id)?.state;
        if (got && alt[id]?.includes(got)) continue;
        expect(got, `${n} ${id}`).toBe(ZOO_EXPECTATIONS[n]!.states[id]);
      }
    }
    const all = t.db
      .select({ id: runs.id, name: servers.name, region: runs.region, role: runs.role, verdict: runs.verdictRunId })
      .from(runs)
      .innerJoin(servers, eq(servers.id, runs.serverId))
      .all();
    expect(new Set(all.map((r) => r.region))).toEqual(new Set(["a", "b"]));
    // A 5xx on discover is confirmed from the other region: two runs, and Failed by 2 of 2.
    const failing = all.filter((r) => r.name === "io.zoo/discover-500-stack-trace");
    expect(failing.map((r) => r.role).sort()).toEqual(["confirmation", "primary"]);
    const hs = getServerDetail(t.db, "io.zoo/discover-500-stack-trace")!.checks.find((c) => c.check === "handshake")!;
    expect(hs.state).toBe("failed");
    expect(hs.reason).toMatch(/; it failed from (a and b|b and a) \(2 of 2 regions\)\.$/);
    // The confirmation is written as a run of its own that points at the verdict's run.
    const verdictRun = failing.find((r) => r.role === "primary")!;
    expect(failing.find((r) => r.role === "confirmation")!.verdict).toBe(verdictRun.id);
    expect(new Set(failing.map((r) => r.region))).toEqual(new Set(["a", "b"]));
    const healthy = all.filter((r) => r.name === "io.zoo/modern-healthy-paged");
    expect(healthy).toHaveLength(1);
  }, 120_000);
});
