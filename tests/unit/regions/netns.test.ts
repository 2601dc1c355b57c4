import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { judge } from "@/lib/checks";
import { createDispatcher, type Dispatcher } from "@/lib/regions/dispatch";
import { createRegionBook, type RegionState } from "@/lib/regions/health";
import { probeAcrossRegions, type RegionalDeps, type RegionalServer } from "@/lib/regions/regional";
import { createHostGate } from "@/lib/rounds/host-gate";
import { startLoopbackHost, zooMount, type LoopbackHost } from "@/tests/fixtures/loopback-hosts";
import { SITE_USER, startAgent, startBroker, type AgentProcess, type Broker } from "@/tests/fixtures/nats";
import { createTestNetwork, type Namespace, type TestNetwork } from "@/tests/fixtures/netns";

// Regions whose own network fails, cut at the network level: b's and c's agents run in namespaces the test makes, each
// with a veth to the broker and a route to the fleet's one address that the test deletes and adds back.

const REGIONS = ["a", "b", "c"];
let net: TestNetwork;
const ns = new Map<string, Namespace>();
let broker: Broker;
const agents: AgentProcess[] = [];
let site: NatsConnection;
let dispatcher: Dispatcher;
const fleet: LoopbackHost[] = [];
let servers: RegionalServer[];

beforeAll(async () => {
  net = createTestNetwork();
  ns.set("b", net.addNamespace());
  ns.set("c", net.addNamespace());
  broker = await startBroker(REGIONS, { host: net.brokerAddress });
  for (const r of REGIONS) agents.push(startAgent(broker, r, ns.has(r) ? { netns: ns.get(r)!.name } : {}));
  await Promise.all(agents.map((a) => a.ready));
  site = await connect({ servers: broker.url, user: SITE_USER, pass: broker.users[SITE_USER]! });
  dispatcher = createDispatcher({ connection: Promise.resolve(site) });
  for (let i = 0; i < 16; i++)
    fleet.push(await startLoopbackHost(net.fleetAddress, { mounts: { "/s": zooMount("modern-healthy-paged", "/s") } }));
  servers = fleet.map((h, i) => ({
    name: `io.example/ns-${i}`,
    target: { url: h.url("/s"), transport: "streamable-http" as const },
    request: { limits: { deadlineMs: 8_000, connectTimeoutMs: 2_000 } },
    knownFailing: false,
  }));
}, 60_000);

afterAll(async () => {
  try {
    await site?.close();
    await Promise.all(agents.map((a) => a.kill()));
    await Promise.all(fleet.map((h) => h.close()));
    await broker?.stop();
  } finally {
    net?.remove();
  }
});

const hs = (results: { check: string; state: string }[]) => results.find((r) => r.check === "handshake")!.state;
const options = { minHosts: 4, recentHosts: 8, recoveryReads: 2, recoveryPerMinute: 60 };

function deps(book: ReturnType<typeof createRegionBook>, round: number): RegionalDeps {
  return { book, dispatcher, judge, gate: createHostGate({ limitOf: () => 1 }), timeoutMs: 15_000, round, log: () => undefined };
}

async function withCut<T>(regions: string[], f: () => Promise<T>): Promise<T> {
  for (const r of regions) ns.get(r)!.cutFleet();
  try {
    return await f();
  } finally {
    for (const r of regions) ns.get(r)!.restoreFleet();
  }
}

describe("a region whose own network fails", () => {
  test("c's route cut: c goes down by its own host share, no server is Failed, verdicts come from a and b; c comes back", async () => {
    const changes: RegionState[] = [];
    const book = createRegionBook({ regions: REGIONS, now: () => new Date(), options, changed: (s) => changes.push(s) });
    const before = await probeAcrossRegions(deps(book, 0), servers[0]!);
    expect(hs(before.verdict!.results)).toBe("verified");

    const verdicts = await withCut(["c"], async () => {
      const out = [];
      for (const [i, s] of servers.entries()) out.push(await probeAcrossRegions(deps(book, i), s));
      return out;
    });
    for (const v of verdicts) {
      expect(hs(v.verdict!.results)).toBe("verified");
      expect(["a", "b"]).toContain(v.verdict!.deciding.region);
    }
    expect(verdicts.some((v) => v.verdict!.quorum.note?.failed[0]?.region === "c")).toBe(true);
    expect(changes.map((c) => `${c.id}:${c.up}`)).toEqual(["c:false"]);
    expect(changes[0]!.down).toMatchObject({ kind: "host_share" });

    // The route is back: copies of probes that read reach c, and two reads in a row bring it up.
    for (let i = 0; i < 10 && !book.isUp("c"); i++) await probeAcrossRegions(deps(book, 50 + i), servers[i]!);
    expect(changes.map((c) => `${c.id}:${c.up}`)).toEqual(["c:false", "c:true"]);
  }, 180_000);

  test("b and c cut: once both are down, a alone is one vantage point (architecture.md §2.7 applies)", async () => {
    const changes: RegionState[] = [];
    const book = createRegionBook({ regions: REGIONS, now: () => new Date(), options, changed: (s) => changes.push(s) });
    const verdicts = await withCut(["b", "c"], async () => {
      const out = [];
      for (const [i, s] of servers.entries()) out.push(await probeAcrossRegions(deps(book, i), s));
      return out;
    });
    expect(
      changes
        .filter((c) => !c.up)
        .map((c) => c.id)
        .sort(),
    ).toEqual(["b", "c"]);
    // While b and c were still up, a failing pair was a majority: such a verdict is Failed by quorum, never by one region.
    for (const v of verdicts) if (hs(v.verdict!.results) === "failed") expect(v.verdict!.quorum.failed.length).toBeGreaterThanOrEqual(2);
    const late = verdicts.slice(-3);
    for (const v of late) {
      expect(v.verdict!.singleVantage).toBe(true);
      expect(v.verdict!.deciding.region).toBe("a");
      expect(hs(v.verdict!.results)).toBe("verified");
    }
  }, 180_000);
});
