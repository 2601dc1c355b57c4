// architecture.md §2.7 against real loopback fleets: distinct loopback addresses are distinct hosts, a closed listener
// refuses connections the way an unreachable network does, and a real round decides whose failure it was.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { status } from "@/app/api/_lib/handlers";
import { incidents, rounds, runs, servers } from "@/db/schema";
import { judge } from "@/lib/checks";
import { createAddressPolicy, probeServer } from "@/lib/probe";
import { deliverPendingAlerts } from "@/lib/rounds/alerts/webhook";
import { createHostGate } from "@/lib/rounds/host-gate";
import { createOwnNetworkWatch, LEVEL_FACTOR, MIN_HOSTS, OWN_NETWORK_TIMING, RECENT_HOSTS, SHARE_LIMIT } from "@/lib/rounds/own-network";
import { createRobotsBook } from "@/lib/rounds/robots";
import type { PersistInput } from "@/lib/rounds/persist";
import { runRound, type RoundDeps, type RoundSummary } from "@/lib/rounds/round";
import { alertsAtom } from "@/lib/site/alerts-feed";
import { FAQ } from "@/lib/site/faq";
import { openAlerts, recentAlertEvents, resolvedAlerts } from "@/lib/store/alerts";
import { getRobots, putRobots } from "@/lib/store/optouts";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { makeAllDue, type DueServer } from "@/lib/store/servers/round";
import { registryRows, startLoopbackHost, zooMount, type LoopbackHost } from "../../fixtures/loopback-hosts";
import { startReceiver, type Receiver } from "../../fixtures/webhook-receiver";
import { serverUptime } from "@/lib/store/uptime";
import { tempDb } from "../store/helpers";

const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
/** architecture.md §2.7's 60 s, 30 s and 10 min, shortened. */
const FAST = { secondProbeAfterMs: 400, recheckEveryMs: 150, recheckForMs: 700 };

function deps(db: RoundDeps["db"], extra: Partial<RoundDeps> = {}): RoundDeps {
  return {
    db,
    addressPolicy: policy,
    limits: { deadlineMs: 10_000 },
    log: () => undefined,
    trigger: "test",
    concurrency: 8,
    ownNetwork: FAST,
    ...extra,
  };
}

interface Fleet {
  hosts: LoopbackHost[];
  /** Registry name of every server, per host. */
  names: Map<LoopbackHost, string[]>;
}

/** One host per address, `perHost(i)` servers each (healthy modern servers), registered in `db`. */
async function startFleet(
  db: RoundDeps["db"],
  addresses: string[],
  perHost: (i: number) => number = () => 1,
  o: { resetConnections?: (i: number) => number } = {},
): Promise<Fleet> {
  const hosts: LoopbackHost[] = [];
  const names = new Map<LoopbackHost, string[]>();
  for (const [i, address] of addresses.entries()) {
    const prefixes = Array.from({ length: perHost(i) }, (_, k) => `/s${k}`);
    const h = await startLoopbackHost(address, {
      mounts: Object.fromEntries(prefixes.map((p) => [p, zooMount("modern-healthy-paged", p)])),
      resetConnections: o.resetConnections?.(i) ?? 0,
    });
    hosts.push(h);
    names.set(
      h,
      prefixes.map((p) => `io.test/${address}${p}`),
    );
  }
  const rows = hosts.flatMap((h) => names.get(h)!.map((name, k) => ({ name, url: h.url(`/s${k}`) })));
  applyRegistrySnapshot(db, registryRows(rows), new Date().toISOString());
  return { hosts, names };
}

const range = (prefix: string, from: number, n: number) => Array.from({ length: n }, (_, i) => `${prefix}.${from + i}`);
const allServers = (db: RoundDeps["db"]) => db.select().from(servers).all();
const handshakeOf = (db: RoundDeps["db"], name: string) => getServerDetail(db, name)!.checks.find((c) => c.check === "handshake")!;

describe("every listener closed: the probe's own network is down, not 40 servers", () => {
  const t = tempDb("own-network-");
  let fleet: Fleet;
  let receiver: Receiver;
  let down: RoundSummary;
  let roundEnd: number;

  beforeAll(async () => {
    receiver = await startReceiver();
    fleet = await startFleet(t.db, range("127.0.1", 1, 40));
    expect(await runRound(deps(t.db))).toMatchObject({ status: "done", probed: 40, read: 40 });
    for (const h of fleet.hosts) await h.close();
    makeAllDue(t.db, new Date().toISOString(), "test: everything due");
    down = await runRound(deps(t.db));
    roundEnd = Date.now();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(fleet.hosts.map((h) => h.close()));
    await receiver.close();
    t.cleanup();
  });

  test("no previously healthy server is recorded Failed, none backs off, and the round stopped starting probes", () => {
    expect(down).toMatchObject({ status: "done", failed: 0, read: 0, network: { paused: true } });
    const rows = allServers(t.db);
    expect(rows).toHaveLength(40);
    for (const s of rows) {
      expect(s.stateHandshake, s.name).not.toBe("failed");
      expect(s.consecutiveFailures, s.name).toBe(0);
      // Due for the next round: nothing pushed it out.
      expect(Date.parse(s.nextDueAt!), s.name).toBeLessThanOrEqual(roundEnd);
    }
    // The ones it probed are Not checked for our network; the rest were never started and keep their verdict.
    const notChecked = rows.filter((s) => s.stateHandshake === "not_checked");
    expect(notChecked.length).toBeGreaterThanOrEqual(20);
    expect(notChecked.length).toBeLessThan(40);
    expect(rows.filter((s) => s.stateHandshake === "verified").length).toBe(40 - notChecked.length);
    for (const s of notChecked) {
      const hs = handshakeOf(t.db, s.name);
      expect(hs.reason).toMatch(
        /^Not checked: the probe's own network was failing \(\d+ of the last \d+ hosts probed failed at the network level/,
      );
      expect(hs.reason.split(/\.\s/)).toHaveLength(1);
      expect(s.scheduleReason).toBe("the probe's own network was failing; probed again next round");
      // The refused request is kept as evidence.
      expect(getServerDetail(t.db, s.name)!.exchanges.map((e) => e.network)).toContain("refused");
    }
    // architecture.md §4: those probes are left out of uptime (neither up nor down) and open no incident.
    const downRuns = t.db
      .select()
      .from(runs)
      .all()
      .filter((r) => r.roundId === down.roundId);
    expect(downRuns.length).toBe(notChecked.length);
    expect(new Set(downRuns.map((r) => r.uptime))).toEqual(new Set(["left_out"]));
    expect(t.db.select().from(incidents).all()).toEqual([]);
    for (const s of notChecked)
      expect(serverUptime(t.db, s.name, new Date())!.last24h, s.name).toMatchObject({ up: 1, reached: 1, ratio: 1 });
    const row = t.db
      .select()
      .from(rounds)
      .all()
      .find((r) => r.id === down.roundId)!;
    expect(row).toMatchObject({ networkPaused: true });
    expect(row.hostsNetworkFailed).toBe(row.hostsTried);
  });

  test("probe_network is open: /api/status answers 503, the feed and the webhook carry it", async () => {
    expect(openAlerts(t.db).map((a) => a.kind)).toEqual(["probe_network"]);
    const res = status(t.db);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ alerts: [{ kind: "probe_network" }] });
    expect(alertsAtom({ origin: "https://status.example", events: recentAlertEvents(t.db), now: new Date() })).toContain("probe_network");
    await deliverPendingAlerts(t.db, { url: receiver.url, log: () => undefined });
    expect(receiver.bodies).toHaveLength(1);
    expect(receiver.bodies[0]!.alert).toMatchObject({ kind: "probe_network", state: "open" });
    expect(receiver.bodies[0]!.text).toMatch(
      /^mcp-status alert probe_network \(the probe's own network is failing\) opened: \d+ of the last \d+ hosts probed failed at the network level/,
    );
  });

  test("when the listeners return, the next round reads every server and resolves probe_network", async () => {
    for (const h of fleet.hosts) await h.reopen();
    // Nothing was made due by hand: the Not checked servers and the ones never started are due on their own.
    const back = await runRound(deps(t.db));
    expect(back).toMatchObject({ status: "done", probed: 40, read: 40, network: { paused: false, hostsTried: 40, hostsNetworkFailed: 0 } });
    expect(allServers(t.db).every((s) => s.stateHandshake === "verified")).toBe(true);
    expect(openAlerts(t.db)).toEqual([]);
    expect(resolvedAlerts(t.db).map((a) => [a.kind, a.resolvedMessage])).toEqual([
      ["probe_network", expect.stringMatching(/^Probes succeed again: round \d+ reached its hosts/)],
    ]);
    expect(status(t.db).status).toBe(200);
    await deliverPendingAlerts(t.db, { url: receiver.url, log: () => undefined });
    expect(receiver.bodies.map((b) => b.alert.state)).toEqual(["open", "resolved"]);
  }, 60_000);

  test("listeners that return during the pause: the round sees them answer, resolves probe_network and goes on", async () => {
    for (const h of fleet.hosts) await h.close();
    makeAllDue(t.db, new Date().toISOString(), "test: everything due");
    const logs: string[] = [];
    const s = await runRound(
      deps(t.db, {
        ownNetwork: { ...FAST, recheckForMs: 20_000 },
        log: (line) => {
          logs.push(line);
          if (line.includes("own network looks down")) setTimeout(() => void Promise.all(fleet.hosts.map((h) => h.reopen())), 50);
        },
      }),
    );
    expect(logs.some((l) => l.includes("probes succeed again"))).toBe(true);
    expect(s).toMatchObject({ status: "done", probed: 40, failed: 0, network: { paused: true } });
    // The servers started after the pause were read in this round; those it failed on before wait for the next one.
    const rows = allServers(t.db);
    expect(rows.filter((r) => r.stateHandshake === "verified").length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.stateHandshake === "not_checked").length).toBeGreaterThanOrEqual(20);
    expect(rows.every((r) => r.stateHandshake !== "failed")).toBe(true);
    expect(openAlerts(t.db)).toEqual([]);
    expect(resolvedAlerts(t.db)[0]).toMatchObject({
      kind: "probe_network",
      resolvedMessage: expect.stringMatching(/^Probes succeed again: \d+ of \d+ hosts that had failed answered/),
    });
  }, 60_000);
});

describe("one server down among healthy ones", () => {
  const t = tempDb("own-network-one-");
  let fleet: Fleet;
  let resetting: LoopbackHost;
  let s: RoundSummary;

  beforeAll(async () => {
    fleet = await startFleet(t.db, range("127.0.4", 1, 25));
    expect(await runRound(deps(t.db))).toMatchObject({ probed: 25, read: 25 });
    await fleet.hosts[0]!.close();
    // A second down host, at its address and port, that resets every connection before any answer: a
    // network-level failure the server side can count.
    const h = fleet.hosts[1]!;
    await h.close();
    resetting = await startLoopbackHost(h.address, { mounts: {}, resetConnections: Infinity, port: Number(new URL(h.origin).port) });
    makeAllDue(t.db, new Date().toISOString(), "test: everything due");
    s = await runRound(deps(t.db));
  }, 120_000);

  afterAll(async () => {
    await resetting.close();
    await Promise.all(fleet.hosts.map((h) => h.close()));
    t.cleanup();
  });

  test("the down server is Failed only after its second probe, and the reason says it failed twice", () => {
    expect(s).toMatchObject({
      status: "done",
      probed: 25,
      read: 23,
      failed: 2,
      network: { paused: false, hostsTried: 25, hostsNetworkFailed: 2 },
    });
    const name = fleet.names.get(fleet.hosts[0]!)![0]!;
    const hs = handshakeOf(t.db, name);
    expect(hs.state).toBe("failed");
    expect(hs.reason).toMatch(
      /^server\/discover got no answer \(connection refused\); it failed twice: a second probe \d+\.\d s after the first, in the same round, failed the same way\.$/,
    );
    // Both probes are the evidence: two refused discover requests.
    const d = getServerDetail(t.db, name)!;
    expect(d.exchanges.map((e) => [e.seq, e.phase, e.network])).toEqual([
      [1, "discover", "refused"],
      [2, "discover", "refused"],
    ]);
    expect(hs.evidence).toEqual([1, 2]);
    // A failure like any other for the schedule: the first step of the back-off.
    expect(d.schedule.consecutiveFailures).toBe(1);
    expect(Date.parse(d.schedule.nextDueAt!) - Date.now()).toBeGreaterThan(5 * 3_600_000);
    expect(openAlerts(t.db)).toEqual([]);
  });

  test("the second probe comes at least the wait after the first, as the server side sees it", () => {
    expect(resetting.connectionTimes).toHaveLength(2);
    expect(resetting.connectionTimes[1]! - resetting.connectionTimes[0]!).toBeGreaterThanOrEqual(FAST.secondProbeAfterMs);
    const hs = handshakeOf(t.db, fleet.names.get(fleet.hosts[1]!)![0]!);
    expect(hs.state).toBe("failed");
    expect(hs.reason).toContain("it failed twice");
  });
});

describe("a host that answers its second probe", () => {
  test("is read, not Failed: the first failure is never recorded", async () => {
    const t = tempDb("own-network-flaky-");
    const fleet = await startFleet(t.db, range("127.0.6", 1, 3));
    let again: LoopbackHost | undefined;
    try {
      expect(await runRound(deps(t.db))).toMatchObject({ read: 3 });
      // The same server at the same address and port, whose first connection is reset before any answer.
      const flaky = fleet.hosts[0]!;
      await flaky.close();
      again = await startLoopbackHost(flaky.address, {
        mounts: { "/s0": zooMount("modern-healthy-paged", "/s0") },
        resetConnections: 1,
        port: Number(new URL(flaky.origin).port),
      });
      makeAllDue(t.db, new Date().toISOString(), "test: everything due");
      const s = await runRound(deps(t.db));
      expect(s).toMatchObject({ probed: 3, read: 3, failed: 0 });
      expect(again.connectionTimes.length).toBeGreaterThanOrEqual(2);
      expect(again.connectionTimes[1]! - again.connectionTimes[0]!).toBeGreaterThanOrEqual(FAST.secondProbeAfterMs);
      expect(handshakeOf(t.db, fleet.names.get(flaky)![0]!).state).toBe("verified");
    } finally {
      await again?.close();
      await Promise.all(fleet.hosts.map((h) => h.close()));
      t.cleanup();
    }
  }, 60_000);
});

describe("one crowded host down (50 servers)", () => {
  const t = tempDb("own-network-crowded-");
  let fleet: Fleet;
  let s: RoundSummary;

  beforeAll(async () => {
    // 127.0.5.1 serves 50 registry servers (a hosting platform); 25 ordinary hosts beside it.
    fleet = await startFleet(t.db, range("127.0.5", 1, 26), (i) => (i === 0 ? 50 : 1));
    expect(await runRound(deps(t.db))).toMatchObject({ probed: 75, read: 75 });
    await fleet.hosts[0]!.close();
    makeAllDue(t.db, new Date().toISOString(), "test: everything due");
    s = await runRound(deps(t.db));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(fleet.hosts.map((h) => h.close()));
    t.cleanup();
  });

  test("is that host's failure: its 50 servers Failed after their second probes, one host of 26 in the share, no alert", () => {
    expect(s).toMatchObject({
      status: "done",
      probed: 75,
      read: 25,
      failed: 50,
      network: { paused: false, hostsTried: 26, hostsNetworkFailed: 1 },
    });
    for (const name of fleet.names.get(fleet.hosts[0]!)!) expect(handshakeOf(t.db, name).reason, name).toContain("it failed twice");
    expect(openAlerts(t.db)).toEqual([]);
  });
});

describe("the 7-day level", () => {
  test("60% of hosts down is not the probe's network when 30% of hosts usually fail", async () => {
    const t = tempDb("own-network-level-");
    const fleet = await startFleet(t.db, range("127.0.7", 1, 30));
    try {
      expect(await runRound(deps(t.db))).toMatchObject({ read: 30 });
      // A week of rounds in which 30% of hosts failed at the network level.
      const yesterday = new Date(Date.now() - 86_400_000).toISOString();
      t.db
        .insert(rounds)
        .values({
          startedAt: yesterday,
          finishedAt: yesterday,
          status: "done",
          trigger: "test",
          hostsTried: 1_000,
          hostsNetworkFailed: 300,
          networkPaused: false,
        })
        .run();
      for (const h of fleet.hosts.slice(0, 18)) await h.close();
      makeAllDue(t.db, new Date().toISOString(), "test: everything due");
      const s = await runRound(deps(t.db));
      expect(s).toMatchObject({ failed: 18, read: 12, network: { paused: false } });
      expect(openAlerts(t.db)).toEqual([]);
    } finally {
      await Promise.all(fleet.hosts.map((h) => h.close()));
      t.cleanup();
    }
  }, 60_000);
});

/** A watch with no queue behind it, recording what it writes. `requeue` answers whether a second probe's place in
 * the queue could still be withdrawn. */
function watch(requeue: (server: DueServer) => () => boolean = () => () => false) {
  const recorded: PersistInput[] = [];
  const opened: string[] = [];
  const w = createOwnNetworkWatch({
    timing: FAST,
    level: 0,
    now: () => new Date(),
    log: () => undefined,
    requeue,
    hold: () => undefined,
    resume: () => undefined,
    stop: () => undefined,
    remaining: () => 0,
    record: (_s, input) => void recorded.push(input),
    reachable: async () => 0,
    opened: (m) => void opened.push(m),
    recovered: () => undefined,
  });
  return { w, recorded, opened };
}

describe("a name that does not exist", () => {
  // The watch fed real probes of names: some resolve (to a loopback host), some get NXDOMAIN from the lookup.
  async function probes(names: string[], origin: string) {
    const port = new URL(origin).port;
    const lookup = async (hostname: string) => {
      if (hostname.startsWith("gone-")) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return [{ address: "127.0.8.1", family: 4 }];
    };
    const out: { server: DueServer; input: PersistInput }[] = [];
    for (const [i, name] of names.entries()) {
      const url = `http://${name}:${port}/s0/mcp`;
      const obs = await probeServer(
        { url, transport: "streamable-http" },
        { addressPolicy: policy, dnsLookup: lookup, limits: { deadlineMs: 5_000 } },
      );
      const server: DueServer = {
        id: i + 1,
        name: `io.test/${name}`,
        remoteUrl: url,
        transport: "streamable-http",
        host: `${name}:${port}`,
        needsConfig: null,
        stateHandshake: null,
      };
      out.push({ server, input: { serverId: server.id, roundId: null, obs, results: judge(obs), skipped: false, now: new Date() } });
    }
    return out;
  }

  let host: LoopbackHost;
  beforeAll(async () => {
    host = await startLoopbackHost("127.0.8.1", { mounts: { "/s0": zooMount("modern-healthy-paged", "/s0") } });
  });
  afterAll(() => host.close());

  test("NXDOMAIN while the resolver answers other names is the server's failure, written at once", async () => {
    const names = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `ok-${i}.test` : `gone-${i}.test`));
    const { w, recorded, opened } = watch();
    for (const { server, input } of await probes(names, host.origin)) {
      const now = w.settle(server, input);
      if (now) recorded.push(now);
    }
    await w.drained();
    expect(opened).toEqual([]);
    expect(recorded).toHaveLength(30);
    const gone = recorded.filter((r) => r.obs.url.includes("gone-"));
    expect(gone.every((r) => r.results.find((c) => c.check === "handshake")!.state === "failed")).toBe(true);
    expect(w.figures()).toMatchObject({ hostsTried: 30, hostsNetworkFailed: 0, paused: false });
  }, 60_000);

  test("NXDOMAIN for every name, with no answer from the resolver at all, is the probe's own network", async () => {
    const names = Array.from({ length: 25 }, (_, i) => `gone-${i}.test`);
    const { w, recorded, opened } = watch();
    for (const { server, input } of await probes(names, host.origin)) {
      const now = w.settle(server, input);
      if (now) recorded.push(now);
    }
    await w.drained();
    expect(opened).toHaveLength(1);
    expect(recorded).toHaveLength(25);
    expect(recorded.every((r) => r.obs.blocked?.kind === "probe_network")).toBe(true);
  }, 60_000);
});

describe("a second probe that fails before the share can be judged", () => {
  // A slow round (a loaded machine, a long robots.txt wait) may finish a server's second probe before MIN_HOSTS hosts
  // were tried: the failure waits for the share's verdict like a first one, so the guard can still find it was ours.
  test("is held until the share trips, then Not checked, never Failed", async () => {
    const dead = await startLoopbackHost("127.0.9.2", { mounts: {} });
    await dead.close();
    const refused = await probeServer({ url: dead.url("/s0"), transport: "streamable-http" }, { addressPolicy: policy });
    expect(refused.exchanges.map((e) => e.network)).toEqual(["refused"]);
    const requeued: number[] = [];
    const { w, recorded, opened } = watch((server) => (requeued.push(server.id), () => true));
    // Each server on a host of its own, last read healthy, refused now.
    const server = (i: number): DueServer => ({
      id: i,
      name: `io.test/slow-${i}`,
      remoteUrl: `http://127.0.10.${i}:${new URL(dead.origin).port}/mcp`,
      transport: "streamable-http",
      host: `127.0.10.${i}:${new URL(dead.origin).port}`,
      needsConfig: null,
      stateHandshake: "verified",
    });
    const input = (s: DueServer): PersistInput => {
      const obs = { ...refused, url: s.remoteUrl! };
      return { serverId: s.id, roundId: null, obs, results: judge(obs), skipped: false, now: new Date() };
    };
    const settle = (s: DueServer) => {
      const now = w.settle(s, input(s));
      if (now) recorded.push(now);
    };
    // Two first failures, then their second probes, all before the share counts.
    for (const i of [1, 2]) settle(server(i));
    expect(requeued).toEqual([1, 2]);
    for (const i of [1, 2]) settle(server(i));
    expect(recorded).toEqual([]);
    // The rest of the round fails the same way: the share trips, and nothing was Failed.
    for (let i = 3; i <= MIN_HOSTS + 2; i++) settle(server(i));
    await w.drained();
    expect(opened).toHaveLength(1);
    const first = recorded.filter((r) => r.serverId <= 2);
    expect(first).toHaveLength(2);
    for (const r of first) {
      expect(r.obs.blocked?.kind).toBe("probe_network");
      expect(r.results.find((c) => c.check === "handshake")!.state).toBe("not_checked");
    }
    expect(recorded.every((r) => r.results.find((c) => c.check === "handshake")!.state !== "failed")).toBe(true);
  });

  test("is written Failed once the share counts and says the network is fine", async () => {
    const dead = await startLoopbackHost("127.0.9.3", { mounts: {} });
    await dead.close();
    const refused = await probeServer({ url: dead.url("/s0"), transport: "streamable-http" }, { addressPolicy: policy });
    const healthy = await startLoopbackHost("127.0.9.4", { mounts: { "/s0": zooMount("modern-healthy-paged", "/s0") } });
    const read = await probeServer({ url: healthy.url("/s0"), transport: "streamable-http" }, { addressPolicy: policy });
    await healthy.close();
    const { w, recorded } = watch(() => () => true);
    const server = (i: number): DueServer => ({
      id: i,
      name: `io.test/one-down-${i}`,
      remoteUrl: `http://127.0.11.${i}:80/mcp`,
      transport: "streamable-http",
      host: `127.0.11.${i}:80`,
      needsConfig: null,
      stateHandshake: "verified",
    });
    const settle = (s: DueServer, obs: typeof read) => {
      const o = { ...obs, url: s.remoteUrl! };
      const now = w.settle(s, { serverId: s.id, roundId: null, obs: o, results: judge(o), skipped: false, now: new Date() });
      if (now) recorded.push(now);
    };
    settle(server(1), refused);
    settle(server(1), refused);
    expect(recorded).toEqual([]);
    for (let i = 2; i <= MIN_HOSTS + 1; i++) settle(server(i), read);
    const down = recorded.find((r) => r.serverId === 1)!;
    expect(down.results.find((c) => c.check === "handshake")!.state).toBe("failed");
    expect(down.results.find((c) => c.check === "handshake")!.reason).toContain("it failed twice");
    await w.drained();
    expect(recorded).toHaveLength(MIN_HOSTS + 1);
  });
});

describe("robots.txt while a host is unreachable", () => {
  test("the last file read stays in force, Crawl-delay included, and the failure does not replace it", async () => {
    const t = tempDb("own-network-robots-");
    const h = await startLoopbackHost("127.0.9.1", { mounts: {} });
    await h.close();
    const host = new URL(h.origin).host;
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const before = {
      host,
      fetchedAt: twoDaysAgo,
      status: 200,
      body: "User-agent: *\nCrawl-delay: 2\n",
      disallowed: false,
      crawlDelaySeconds: 2,
    };
    putRobots(t.db, before);
    try {
      const gate = createHostGate({ db: t.db, limitOf: () => 1 });
      const book = createRobotsBook({ db: t.db, now: () => new Date(), policy, userAgent: "test", gate });
      expect(book.known(host)).toBe(false); // older than a day: read again…
      const row = await book.rowFor(new URL(`${h.origin}/mcp`));
      expect(row).toEqual(before); // …but the host did not answer
      expect(gate.crawlDelayMs(host)).toBe(2_000);
      expect(getRobots(t.db, host)).toEqual(before);
    } finally {
      t.cleanup();
    }
  });
});

describe("the FAQ states the numbers the round enforces", () => {
  test("second probe, recheck, window, hosts and factor", () => {
    const en = JSON.stringify(FAQ.en["own-network"].body);
    expect(en).toContain(`at least ${OWN_NETWORK_TIMING.secondProbeAfterMs / 1000} seconds later`);
    expect(en).toContain(`Every ${OWN_NETWORK_TIMING.recheckEveryMs / 1000} seconds`);
    expect(en).toContain(`after ${OWN_NETWORK_TIMING.recheckForMs / 60_000} minutes`);
    expect(en).toContain(`the last ${RECENT_HOSTS} distinct hosts`);
    expect(en).toContain(`at least ${MIN_HOSTS}`);
    expect(SHARE_LIMIT).toBe(0.5);
    expect(en).toContain("more than half");
    expect(LEVEL_FACTOR).toBe(3);
    expect(en).toContain("three times its usual level over the past 7 days");
    const zh = JSON.stringify(FAQ.zh["own-network"].body);
    for (const n of [
      OWN_NETWORK_TIMING.secondProbeAfterMs / 1000,
      OWN_NETWORK_TIMING.recheckEveryMs / 1000,
      OWN_NETWORK_TIMING.recheckForMs / 60_000,
      RECENT_HOSTS,
      MIN_HOSTS,
    ]) {
      expect(zh).toMatch(new RegExp(`(?<!\\d)${n} `));
    }
  });
});
