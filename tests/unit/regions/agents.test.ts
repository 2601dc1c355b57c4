import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { judge } from "@/lib/checks";
import { clientsReport, judgeClients } from "@/lib/checks/clients";
import { createAddressPolicy, probeServer, type ProbeObservation, type ProbeTarget } from "@/lib/probe";
import { createDispatcher, type Dispatcher } from "@/lib/regions/dispatch";
import { createRegionBook, type RegionBook } from "@/lib/regions/health";
import { probeAcrossRegions, type RegionalDeps } from "@/lib/regions/regional";
import { agentQueue, probeSubject } from "@/lib/vocabulary/regions";
import { decodeAnswer, encodeAnswer } from "@/lib/regions/wire";
import { createHostGate } from "@/lib/rounds/host-gate";
import { startLoopbackHost, zooMount, type LoopbackHost, type Mount } from "@/tests/fixtures/loopback-hosts";
import { agentUser, SITE_USER, startAgent, startBroker, type AgentProcess, type Broker } from "@/tests/fixtures/nats";

// Real nats-server with the configuration the project writes, real agent processes for regions a, b and c, real
// loopback servers. The site's side is lib/regions as the round uses it.

const REGIONS = ["a", "b", "c"];
let broker: Broker;
const agents = new Map<string, AgentProcess>();
let site: NatsConnection;
let dispatcher: Dispatcher;
const hosts: LoopbackHost[] = [];
let healthy: LoopbackHost;
let down: LoopbackHost;
let picky: LoopbackHost;
const logs: string[] = [];

/** Answers 502 to region b's agents and is a healthy MCP server to everyone else. */
function failsForB(): Mount {
  const ok = zooMount("modern-healthy-paged", "/s");
  return (req: IncomingMessage, res: ServerResponse) => {
    if ((req.headers["user-agent"] ?? "").includes("region b)")) {
      res.writeHead(502, { "content-type": "text/html" }).end("<h1>bad gateway</h1>");
      return;
    }
    return ok(req, res);
  };
}

async function agent(region: string): Promise<AgentProcess> {
  const a = startAgent(broker, region);
  agents.set(region, a);
  await a.ready;
  return a;
}

function deps(book: RegionBook, round: number, over: Partial<RegionalDeps> = {}): RegionalDeps {
  return {
    book,
    dispatcher,
    judge,
    gate: createHostGate({ limitOf: () => 1 }),
    timeoutMs: 15_000,
    round,
    log: (l) => logs.push(l),
    ...over,
  };
}

const target = (url: string): ProbeTarget => ({ url, transport: "streamable-http" });
const server = (name: string, url: string) => ({
  name,
  target: target(url),
  request: { limits: { deadlineMs: 10_000 } },
  knownFailing: false,
});
const hs = (results: { check: string; state: string }[]) => results.find((r) => r.check === "handshake")!.state;

beforeAll(async () => {
  broker = await startBroker(REGIONS);
  await Promise.all(REGIONS.map(agent));
  site = await connect({ servers: broker.url, user: SITE_USER, pass: broker.users[SITE_USER]! });
  dispatcher = createDispatcher({ connection: Promise.resolve(site), log: (l) => logs.push(l) });
  healthy = await startLoopbackHost("127.0.0.1", {
    mounts: { "/s": zooMount("modern-healthy-paged", "/s"), "/l": zooMount("legacy-2025-06-18-stateless", "/l") },
  });
  down = await startLoopbackHost("127.0.0.1", { mounts: {} });
  await down.close();
  picky = await startLoopbackHost("127.0.0.1", { mounts: { "/s": failsForB() } });
  hosts.push(healthy, picky);
}, 60_000);

afterAll(async () => {
  await site?.close();
  await Promise.all([...agents.values()].map((a) => a.kill()));
  await broker?.stop();
  await Promise.all(hosts.map((h) => h.close()));
});

describe("agents on NATS", () => {
  test("an agent answers with the probe's observation, and its User-Agent names its region", async () => {
    const answer = await dispatcher.probe("a", { url: healthy.url("/s"), transport: "streamable-http" }, 15_000);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(hs(judge(answer.observation))).toBe("verified");
    const uas = new Set(healthy.requests.map((r) => r.userAgent));
    expect([...uas].some((ua) => ua.startsWith("mcp-status-probe/") && ua.includes("; region a)"))).toBe(true);
  });

  test("an agent's answer carries the server's instructions as the in-process probe reads them (architecture.md §2.9)", async () => {
    // A server that answers initialize, whose result carries instructions.
    const target = { url: healthy.url("/l"), transport: "streamable-http" } as const;
    const here = await probeServer(target, { addressPolicy: createAddressPolicy({ allowPrivate: true }) });
    const answer = await dispatcher.probe("b", target, 15_000);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    const instructions = (o: ProbeObservation) => (o.handshake as { instructions?: unknown } | undefined)?.instructions;
    expect(instructions(here)).toBe("A zoo server.");
    expect(instructions(answer.observation)).toBe(instructions(here));
    // Instructions that are not a string make the answer one the site does not read.
    const forged = { ...answer.observation, handshake: { ...answer.observation.handshake!, instructions: 42 } } as never;
    const wire = encodeAnswer({ v: 1, id: "r1", region: "b", agent: "forger", observation: forged });
    expect(decodeAnswer(wire, { id: "r1", url: target.url })).toMatchObject({ ok: false, cause: "invalid" });
    expect(
      decodeAnswer(encodeAnswer({ v: 1, id: "r1", region: "b", agent: "b", observation: here }), { id: "r1", url: target.url }).ok,
    ).toBe(true);
  });

  test("an agent's answer carries the initialize-first client's handshake as the in-process probe reads it (architecture.md §2.10)", async () => {
    const t = target(healthy.url("/s"));
    const here = await probeServer(t, { addressPolicy: createAddressPolicy({ allowPrivate: true }) });
    const answer = await dispatcher.probe("c", t, 15_000);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.observation.initializeFirst?.outcome).toEqual(here.initializeFirst?.outcome);
    expect(answer.observation.initializeFirst?.outcome).toMatchObject({
      kind: "refused",
      method: "initialize",
      answer: { rpcCode: -32602 },
    });
    expect(clientsReport(judgeClients(answer.observation))).toEqual(clientsReport(judgeClients(here)));
    expect(judgeClients(answer.observation).initializeFirst.state).toBe("no");
    // A read the probe's types do not allow makes the answer one the site does not read.
    const forged = { ...answer.observation, initializeFirst: { outcome: { kind: "read", protocolVersion: 7 }, seqs: [] } } as never;
    expect(
      decodeAnswer(encodeAnswer({ v: 1, id: "r2", region: "c", agent: "forger", observation: forged }), { id: "r2", url: t.url }),
    ).toMatchObject({
      ok: false,
      cause: "invalid",
    });
  });

  test("a region with no agent listening answers at once with no responders", async () => {
    const b2 = await startBroker(["x"]);
    try {
      const nc = await connect({ servers: b2.url, user: SITE_USER, pass: b2.users[SITE_USER]! });
      const d = createDispatcher({ connection: Promise.resolve(nc) });
      const t0 = performance.now();
      const answer = await d.probe("x", { url: healthy.url("/s"), transport: "streamable-http" }, 10_000);
      expect(answer).toMatchObject({ ok: false, cause: "no_responders" });
      expect(performance.now() - t0).toBeLessThan(2_000);
      await d.close();
    } finally {
      await b2.stop();
    }
  });

  test("the broker refuses region a's user a subscription to region b's subject and any publish of its own", async () => {
    const nc = await connect({ servers: broker.url, user: agentUser("a"), pass: broker.users[agentUser("a")]! });
    try {
      const refused: string[] = [];
      const sub = nc.subscribe(probeSubject("b"), { queue: agentQueue("b"), callback: (err) => void (err && refused.push(err.message)) });
      nc.publish(probeSubject("b"), "forged");
      await nc.flush();
      await sub.closed;
      await new Promise((r) => setTimeout(r, 200));
      expect(refused.join(" ")).toMatch(/Permissions Violation for Subscription to "mcp-status.probe.b"/);
      expect(broker.log()).toMatch(/Subscription Violation - User "agent-a", Subject "mcp-status.probe.b"/);
      expect(broker.log()).toMatch(/Publish Violation - User "agent-a", Subject "mcp-status.probe.b"/);
    } finally {
      await nc.close();
    }
  });

  test("a malformed or oversized answer is that region not answering, logged with the region", async () => {
    // A rogue responder with the site's permissions cannot answer on a region's subject, so the test's own broker gives
    // region m a user that answers junk.
    const b2 = await startBroker(["m"]);
    try {
      const rogue = await connect({ servers: b2.url, user: agentUser("m"), pass: b2.users[agentUser("m")]! });
      let n = 0;
      rogue.subscribe(probeSubject("m"), {
        queue: agentQueue("m"),
        callback: (_e, msg) => {
          n++;
          if (n === 1) msg.respond(Buffer.from("not gzip"));
          else if (n === 2) msg.respond(encodeAnswer({ v: 1, id: "someone-else", region: "m", agent: "rogue", observation: {} as never }));
          else msg.respond(gzipSync(Buffer.alloc(40 * 1024 * 1024, 32)));
        },
      });
      await rogue.flush();
      const nc = await connect({ servers: b2.url, user: SITE_USER, pass: b2.users[SITE_USER]! });
      const seen: string[] = [];
      const d = createDispatcher({ connection: Promise.resolve(nc), log: (l) => seen.push(l) });
      const ask = () => d.probe("m", { url: healthy.url("/s"), transport: "streamable-http" }, 5_000);
      expect(await ask()).toMatchObject({ ok: false, cause: "invalid" });
      expect(await ask()).toMatchObject({ ok: false, cause: "invalid" });
      expect(await ask()).toMatchObject({ ok: false, cause: "too_large" });
      expect(seen.filter((l) => l.startsWith("[regions] m: answer for"))).toHaveLength(3);
      await d.close();
      await rogue.close();
    } finally {
      await b2.stop();
    }
  });
});

describe("the quorum over three agents", () => {
  test("all healthy: every server Verified, each probed by one region, and primaries rotate across rounds", async () => {
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    const names = Array.from({ length: 9 }, (_, i) => `io.example/healthy-${i}`);
    const byRound: string[][] = [];
    for (const round of [1, 2]) {
      const out = await Promise.all(names.map((n) => probeAcrossRegions(deps(book, round), server(n, healthy.url("/s")))));
      for (const o of out) {
        expect(o.reads).toHaveLength(1);
        expect(hs(o.verdict!.results)).toBe("verified");
      }
      byRound.push(out.map((o) => o.reads[0]!.region));
    }
    expect(new Set(byRound[0])).toEqual(new Set(REGIONS));
    byRound[0]!.forEach((r, i) => expect(byRound[1]![i]).not.toBe(r));
  }, 60_000);

  test("a server down everywhere: Failed by 3 of 3, the reason names the regions", async () => {
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    const o = await probeAcrossRegions(deps(book, 1), server("io.example/down", down.url("/s")));
    expect(o.reads.map((r) => r.role).sort()).toEqual(["confirmation", "confirmation", "primary"]);
    expect(hs(o.verdict!.results)).toBe("failed");
    expect(o.verdict!.quorum.failed.sort()).toEqual(REGIONS);
    const reason = o.verdict!.results.find((r) => r.check === "handshake")!.reason;
    expect(reason).toMatch(/it failed from [abc], [abc] and [abc] \(3 of 3 regions\)\.$/);
  }, 60_000);

  test("a server that fails only from b: Verified with a regional note for b", async () => {
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    // A name whose primary in round 1 is b.
    const name = Array.from({ length: 50 }, (_, i) => `io.example/picky-${i}`).find((n) => book.primaryFor(n, 1) === "b")!;
    const o = await probeAcrossRegions(deps(book, 1), server(name, picky.url("/s")));
    expect(o.reads[0]!.region).toBe("b");
    expect(hs(o.reads[0]!.results)).toBe("failed");
    expect(hs(o.verdict!.results)).toBe("verified");
    expect(o.verdict!.quorum.failed).toEqual(["b"]);
    expect(o.verdict!.quorum.note).toMatchObject({ failed: [{ region: "b", facts: { kind: "status", status: 502 } }] });
    expect(o.verdict!.quorum.note!.readFrom.sort()).toEqual(["a", "c"]);
  }, 60_000);

  test("kill -9 of agent b mid-probe: its probe times out, another region reads the server, nothing is Failed", async () => {
    const slow = await startLoopbackHost("127.0.0.1", { mounts: { "/s": zooMount("modern-healthy-paged", "/s") }, delayMs: 300 });
    hosts.push(slow);
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    const name = Array.from({ length: 50 }, (_, i) => `io.example/slow-${i}`).find((n) => book.primaryFor(n, 1) === "b")!;
    const b = agents.get("b")!;
    const running = probeAcrossRegions(deps(book, 1, { timeoutMs: 10_000 }), server(name, slow.url("/s")));
    while (!slow.requests.some((r) => r.userAgent.includes("region b)"))) await new Promise((r) => setTimeout(r, 20));
    await b.kill("SIGKILL");
    const o = await running;
    expect(o.unanswered).toMatchObject([{ region: "b", cause: "timeout" }]);
    expect(o.reads).toHaveLength(1);
    expect(o.reads[0]!.region).not.toBe("b");
    expect(hs(o.verdict!.results)).toBe("verified");
    // A later probe for b's primaries finds no responders at once and goes elsewhere.
    const t0 = performance.now();
    const again = await probeAcrossRegions(deps(book, 1, { timeoutMs: 10_000 }), server(name, healthy.url("/s")));
    expect(again.unanswered).toMatchObject([{ region: "b", cause: "no_responders" }]);
    expect(performance.now() - t0).toBeLessThan(3_000);
    await agent("b");
  }, 60_000);
});

describe("faults of the broker and of agents", () => {
  test("SIGTERM lets a probe in flight finish and answer before the agent exits", async () => {
    const slow = await startLoopbackHost("127.0.0.1", { mounts: { "/s": zooMount("modern-healthy-paged", "/s") }, delayMs: 800 });
    hosts.push(slow);
    const c = agents.get("c")!;
    const asked = dispatcher.probe("c", { url: slow.url("/s"), transport: "streamable-http" }, 20_000);
    while (!slow.requests.some((r) => r.userAgent.includes("region c)"))) await new Promise((r) => setTimeout(r, 20));
    c.child.kill("SIGTERM");
    const answer = await asked;
    expect(answer.ok).toBe(true);
    expect(await c.exited).toBe(0);
    expect(c.output()).toMatch(/SIGTERM: no new probes; waiting for 1 in flight/);
    expect(await dispatcher.probe("c", { url: healthy.url("/s"), transport: "streamable-http" }, 5_000)).toMatchObject({
      ok: false,
      cause: "no_responders",
    });
    await agent("c");
  }, 60_000);

  test("nats-server restarted: agents and the site reconnect, and the regions answer again", async () => {
    await broker.pause();
    expect(await dispatcher.probe("a", { url: healthy.url("/s"), transport: "streamable-http" }, 2_000)).toMatchObject({ ok: false });
    await broker.start();
    const deadline = Date.now() + 20_000;
    const answered = new Set<string>();
    while (answered.size < REGIONS.length && Date.now() < deadline) {
      for (const r of REGIONS) {
        if (answered.has(r)) continue;
        const a = await dispatcher.probe(r, { url: healthy.url("/s"), transport: "streamable-http" }, 3_000);
        if (a.ok) answered.add(r);
      }
      if (answered.size < REGIONS.length) await new Promise((r) => setTimeout(r, 250));
    }
    expect([...answered].sort()).toEqual(REGIONS);
    for (const r of REGIONS) expect(agents.get(r)!.output()).toMatch(/\[nats\] mcp-status-agent-\w+: reconnected/);
  }, 60_000);
});

describe("the host gate across regions", () => {
  test("a crowded host (50 servers) probed through three regions never sees more than its bound", async () => {
    const mounts = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`/t${i}`, zooMount("modern-healthy-paged", `/t${i}`)]));
    const crowded = await startLoopbackHost("127.0.0.1", { mounts, delayMs: 20 });
    hosts.push(crowded);
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    const gate = createHostGate({ limitOf: () => 4 });
    const names = Object.keys(mounts);
    const queue = [...names];
    const worker = async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const o = await probeAcrossRegions(deps(book, 1, { gate }), server(`io.example${p}`, crowded.url(p)));
        expect(hs(o.verdict!.results)).toBe("verified");
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(crowded.peak).toBeLessThanOrEqual(4);
    expect(crowded.peak).toBeGreaterThan(1);
    const regionsSeen = new Set(crowded.requests.map((r) => /region (\w+)\)/.exec(r.userAgent)?.[1]));
    expect([...regionsSeen].sort()).toEqual(REGIONS);
  }, 120_000);

  test("a Crawl-delay host's requests stay spaced by the delay across regions", async () => {
    const mounts = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`/d${i}`, zooMount("modern-healthy-paged", `/d${i}`)]));
    const polite = await startLoopbackHost("127.0.0.1", { mounts });
    hosts.push(polite);
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    const gate = createHostGate({ limitOf: () => 4 });
    const host = new URL(polite.origin).host;
    gate.setCrawlDelay(host, 0.4);
    const names = Object.keys(mounts);
    await Promise.all(
      names.map((p, i) =>
        probeAcrossRegions(deps(book, i, { gate }), {
          ...server(`io.example${p}`, polite.url(p)),
          request: { limits: { deadlineMs: 20_000 }, crawlDelayMs: gate.crawlDelayMs(host) },
        }),
      ),
    );
    const seen = [...polite.requests].sort((x, y) => x.start - y.start);
    expect(new Set(seen.map((r) => /region (\w+)\)/.exec(r.userAgent)?.[1])).size).toBeGreaterThan(1);
    // The fixture notes a request's end when this busy process gets to it, after the agent has read the last byte, so a
    // gap can look up to a few ms shorter than it was on the wire; 25 ms of the 400 are left for that.
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.start - seen[i - 1]!.end).toBeGreaterThanOrEqual(400 - 25);
  }, 120_000);
});
