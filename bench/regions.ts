// npm run bench:regions: the same fleet probed in one run, in-process (probeServer + judge, as the default round does)
// and through NATS with real agents (architecture.md §8), at the same concurrency. Prints probes per second, the site's
// CPU per server and the ratio of the two. The fleet is a child process; the broker and the agents are processes.
// Knobs: BENCH_SERVERS (600), BENCH_HOSTS (60), BENCH_CONCURRENCY (32), BENCH_REGIONS (1: one agent each), BENCH_LATENCY_MS
// (20), BENCH_FAILING_PERCENT (0: that share of the servers refuse connections, so confirmations are sent).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "@nats-io/transport-node";
import { judge } from "@/lib/checks";
import { createZooHandler } from "@/lib/demo/zoo";
import { createAddressPolicy, probeServer } from "@/lib/probe";
import { createDispatcher } from "@/lib/regions/dispatch";
import { createRegionBook } from "@/lib/regions/health";
import { probeAcrossRegions } from "@/lib/regions/regional";
import { SITE_USER, startAgent, startBroker } from "@/tests/fixtures/nats";
import { cpuSeconds, fmt, forkTs, nextMessage, pool, printTable, stopChild } from "./common";

const SERVERS = Number(process.env.BENCH_SERVERS ?? 600);
const HOSTS = Number(process.env.BENCH_HOSTS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const REGIONS = Array.from({ length: Number(process.env.BENCH_REGIONS ?? 1) }, (_, i) => String.fromCharCode(97 + i));
const FAILING_PERCENT = Number(process.env.BENCH_FAILING_PERCENT ?? 0);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);

async function fleetRole(): Promise<void> {
  const urls: string[] = [];
  const perHost = Math.ceil(SERVERS / HOSTS);
  for (let h = 0; h < HOSTS; h++) {
    const handlers = Array.from({ length: perHost }, (_, i) => createZooHandler("modern-healthy-paged", { prefix: `/s${i}` }));
    const server = createServer((req, res) => {
      const i = Number(/^\/s(\d+)\//.exec(req.url ?? "")?.[1] ?? -1);
      const go = () => (handlers[i] ? handlers[i]!(req, res).catch(() => res.destroy()) : res.writeHead(404).end());
      if (LATENCY_MS > 0) setTimeout(go, LATENCY_MS);
      else void go();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    for (let i = 0; i < perHost && urls.length < SERVERS; i++) urls.push(`http://127.0.0.1:${port}/s${i}/mcp`);
  }
  process.send!({ type: "ready", urls });
  process.on("message", (m) => m === "stop" && process.exit(0));
}

async function main(): Promise<void> {
  const fleet = forkTs(new URL(import.meta.url).pathname, "fleet");
  const broker = await startBroker(REGIONS);
  const agents = REGIONS.map((r) => startAgent(broker, r));
  try {
    const ready = await nextMessage<{ type: "ready"; urls: string[] }>(fleet, "ready", 60_000);
    // The failing share points at a port nothing listens on: refused at once, from every region.
    const failing = Math.round((ready.urls.length * FAILING_PERCENT) / 100);
    const every = failing > 0 ? Math.floor(ready.urls.length / failing) : Infinity;
    const urls = ready.urls.map((u, i) => (i % every === 0 && i / every < failing ? "http://127.0.0.1:9/mcp" : u));
    await Promise.all(agents.map((a) => a.ready));
    const policy = createAddressPolicy({ allowPrivate: true });
    const limits = { deadlineMs: 15_000 };
    const measure = async (label: string, one: (url: string, i: number) => Promise<boolean>) => {
      const cpu0 = process.cpuUsage();
      const agentCpu0 = cpuSeconds(agents.map((a) => a.pid));
      const t0 = performance.now();
      let read = 0;
      await pool(urls, CONCURRENCY, async (url, i) => void ((await one(url, i)) && read++));
      const wall = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(cpu0);
      const siteCpu = (c.user + c.system) / 1e6;
      return {
        label,
        wall,
        read,
        rate: urls.length / wall,
        siteCpuMs: (siteCpu * 1000) / urls.length,
        agentCpu: cpuSeconds(agents.map((a) => a.pid)) - agentCpu0,
      };
    };
    const verified = (r: ReturnType<typeof judge>) => r.find((c) => c.check === "handshake")?.state === "verified";
    const inProcess = await measure("in-process", async (url) =>
      verified(judge(await probeServer({ url, transport: "streamable-http" }, { addressPolicy: policy, limits }))),
    );
    const nc = await connect({ servers: broker.url, user: SITE_USER, pass: broker.users[SITE_USER]! });
    const dispatcher = createDispatcher({ connection: Promise.resolve(nc), log: () => undefined });
    const book = createRegionBook({ regions: REGIONS, now: () => new Date() });
    let sent = 0;
    const viaNats = await measure(`NATS, ${REGIONS.length} region${REGIONS.length > 1 ? "s" : ""} (1 agent each)`, async (url, i) => {
      const o = await probeAcrossRegions(
        // No host gate on either side: the figure is the transport's cost, not politeness.
        { book, dispatcher, judge, gate: { acquire: async () => () => undefined }, timeoutMs: 30_000, round: 1, log: () => undefined },
        { name: `bench/${i}`, target: { url, transport: "streamable-http" }, request: { limits }, knownFailing: false },
      );
      sent += o.reads.length + o.unanswered.length;
      return o.verdict !== null && verified(o.verdict.results);
    });
    const failShare = urls.filter((u) => u.endsWith(":9/mcp")).length / urls.length;
    await dispatcher.close();
    printTable(
      `bench:regions: ${urls.length} servers on ${HOSTS} hosts, ${LATENCY_MS} ms per answer, concurrency ${CONCURRENCY}`,
      ["mode", "wall s", "probes/s", "read", "site CPU ms/server", "agent CPU s"],
      [inProcess, viaNats].map((m) => [
        m.label,
        m.wall.toFixed(1),
        fmt.rate(m.rate),
        String(m.read),
        m.siteCpuMs.toFixed(2),
        m.agentCpu.toFixed(1),
      ]),
    );
    console.log(`ratio (NATS / in-process) probes per second: ${(viaNats.rate / inProcess.rate).toFixed(2)}`);
    console.log(`ratio (NATS / in-process) site CPU per server: ${(viaNats.siteCpuMs / inProcess.siteCpuMs).toFixed(2)}`);
    console.log(`ratio (NATS / in-process) wall time: ${(viaNats.wall / inProcess.wall).toFixed(2)}`);
    console.log(
      `probes sent per server through NATS: ${(sent / urls.length).toFixed(2)} (bound 1 + 2 × failure share = ${(1 + 2 * failShare).toFixed(2)})`,
    );
  } finally {
    await Promise.all(agents.map((a) => a.kill()));
    await broker.stop();
    await stopChild(fleet);
  }
}

if (process.env.BENCH_ROLE === "fleet") void fleetRole();
else
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
