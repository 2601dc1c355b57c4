import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAddressPolicy } from "@/lib/probe";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { storedFamilies } from "@/lib/metrics/stored";
import { closeRegionConnections, startRegionRecovery } from "@/lib/rounds/regions";
import { runRound, type RoundDeps } from "@/lib/rounds/round";
import { openAlerts } from "@/lib/store/alerts";
import { storedRegionStates } from "@/lib/store/regions";
import { makeAllDue } from "@/lib/store/servers/round";
import { startLoopbackHost, zooMount, type LoopbackHost } from "@/tests/fixtures/loopback-hosts";
import { SITE_USER, startAgent, startBroker, type AgentProcess, type Broker } from "@/tests/fixtures/nats";
import { createTestNetwork, type Namespace, type TestNetwork } from "@/tests/fixtures/netns";
import { tempDb } from "../store/helpers";

// architecture.md §8, the operator's fix for a region whose own network failed: its agent (in a namespace cut from the
// fleet) is stopped and a new one started on a machine that reaches the fleet. With no round due, the recovery clock
// asks the down region again, region_down resolves, and the next round gives the region primaries again.

let net: TestNetwork;
let nsC: Namespace;
let broker: Broker;
const agents: AgentProcess[] = [];
const fleet: LoopbackHost[] = [];
let registry: FixtureRegistry;
const t = tempDb();
const logs: string[] = [];

beforeAll(async () => {
  net = createTestNetwork();
  nsC = net.addNamespace();
  broker = await startBroker(["a", "b", "c"], { host: net.brokerAddress });
  agents.push(startAgent(broker, "a"), startAgent(broker, "b"));
  await Promise.all(agents.map((a) => a.ready));
  for (let i = 0; i < 12; i++)
    fleet.push(await startLoopbackHost(net.fleetAddress, { mounts: { "/s": zooMount("modern-healthy-paged", "/s") } }));
  registry = await startFixtureRegistry(fleet.map((h, i) => entry(`io.example/r-${i}`, [{ type: "streamable-http", url: h.url("/s") }])));
}, 60_000);

afterAll(async () => {
  try {
    await closeRegionConnections();
    await Promise.all(agents.map((a) => a.kill()));
    await Promise.all(fleet.map((h) => h.close()));
    await registry?.close();
    await broker?.stop();
    t.cleanup();
  } finally {
    net?.remove();
  }
});

const regions = () => ({
  regions: ["a", "b", "c"],
  nats: { url: broker.url, user: SITE_USER, password: broker.users[SITE_USER]! },
  health: { minHosts: 4, recentHosts: 8 },
  recoveryIntervalMs: 500,
});

const round = () => {
  makeAllDue(t.db, new Date().toISOString(), "test");
  return runRound({
    db: t.db,
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    addressPolicy: createAddressPolicy({ allowPrivate: true }),
    limits: { deadlineMs: 5_000, connectTimeoutMs: 2_000 },
    robots: false,
    log: (l) => logs.push(l),
    trigger: "test",
    regions: regions(),
  } satisfies RoundDeps);
};

const regionDown = () => openAlerts(t.db).filter((a) => a.kind === "region_down");
const primariesOf = (region: string, roundId: number) =>
  (
    t.db.$client.prepare("select count(*) n from runs where round_id = ? and region = ? and role = 'primary'").get(roundId, region) as {
      n: number;
    }
  ).n;

describe("a region whose agent is replaced", () => {
  test.each(["SIGTERM", "SIGKILL"] as const)(
    "old agent ended with %s: region_down resolves with no round due, and the next round gives the region primaries",
    async (signal) => {
      const old = startAgent(broker, "c", { netns: nsC.name });
      agents.push(old);
      await old.ready;
      nsC.cutFleet();
      try {
        for (let i = 0; i < 4 && regionDown().length === 0; i++) await round();
      } finally {
        nsC.restoreFleet();
      }
      expect(regionDown().map((a) => a.subject)).toEqual(["c"]);
      const gauge = (name: string) =>
        storedFamilies(t.db, new Date())
          .find((f) => f.name === name)!
          .values.find((v) => v.labels.region === "c")?.value;
      expect(gauge("mcp_status_region_up")).toBe(0);
      expect(gauge("mcp_status_region_host_share")).toBeGreaterThan(0.5);

      await old.kill(signal);
      const fresh = startAgent(broker, "c");
      agents.push(fresh);
      await fresh.ready;
      const t0 = Date.now();
      const clock = startRegionRecovery({ db: t.db, config: regions(), log: (l) => logs.push(l) });
      try {
        await expect.poll(() => regionDown().length, { timeout: 90_000, interval: 100 }).toBe(0);
      } finally {
        clock.stop();
      }
      logs.push(`[test] ${signal}: region_down resolved ${Date.now() - t0} ms after the new agent answered`);
      expect(storedRegionStates(t.db).find((s) => s.id === "c")).toMatchObject({ up: true });
      expect(gauge("mcp_status_region_up")).toBe(1);

      const next = await round();
      expect(primariesOf("c", next.roundId)).toBeGreaterThan(0);
      await fresh.kill("SIGTERM");
    },
    120_000,
  );
});
