// The benchmark fleet, run as a child process so the prober's memory is measured apart: many zoo
// behaviours mounted by path prefix on one node:http listener per loopback host, plus a loopback
// registry listing them all. Like the internet: every answer waits BENCH_FLEET_LATENCY_MS, a share of the
// servers lives on one crowded host, and one small host asks for a Crawl-delay; each host counts the
// requests it has in flight. Talks to its parent over IPC ("stats" answers the counts and resets them);
// exits when told to, when the parent goes away, or after a hard time limit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { entry, startFixtureRegistry } from "@/lib/demo/loopback-registry";
import { createZooHandler } from "@/lib/demo/zoo";

/** One slice of the mix: a zoo behaviour, its share per 100 servers, and an optional delay per request. */
export interface MixEntry {
  label: string;
  behaviour: string;
  per100: number;
  /** Each request waits this long (ms, chosen per server in the range) before the behaviour answers. */
  delayMs?: [number, number];
}

// Healthy modern and legacy, gated, malformed refusals, slow: roughly what a registry crawl meets.
export const FLEET_MIX: MixEntry[] = [
  { label: "modern healthy (2 pages)", behaviour: "modern-healthy-paged", per100: 36 },
  { label: "legacy 2025-06-18 stateless", behaviour: "legacy-2025-06-18-stateless", per100: 14 },
  { label: "dual era", behaviour: "dual-era", per100: 8 },
  { label: "legacy, v1 SDK 400 null id", behaviour: "legacy-ts-v1-null-id", per100: 5 },
  { label: "legacy, python SDK 'server-error' id", behaviour: "legacy-python-sdk-server-error-id", per100: 5 },
  { label: "discover answered 200 HTML", behaviour: "discover-200-html", per100: 2 },
  { label: "gated, valid challenge + PRM", behaviour: "credential-gate-valid-prm", per100: 8 },
  { label: "gated, 401 without challenge", behaviour: "gate-401-no-challenge", per100: 3 },
  { label: "refusal as HTML page", behaviour: "refusal-html-page", per100: 4 },
  { label: "refusal without jsonrpc", behaviour: "refusal-error-without-jsonrpc", per100: 4 },
  { label: "success for unknown tool", behaviour: "refusal-success-for-unknown-tool", per100: 3 },
  { label: "slow modern (200-500 ms per request)", behaviour: "modern-healthy-paged", per100: 8, delayMs: [200, 500] },
];

export interface FleetServer {
  name: string;
  url: string;
  label: string;
  behaviour: string;
}

export interface FleetReady {
  type: "ready";
  registryUrl: string;
  servers: FleetServer[];
  hosts: number;
  startMs: number;
  /** Host index of the crowded host (0) and how many servers it serves; 0 servers when the mix has none. */
  crowdedServers: number;
  serversPerHost: number[];
  /** Host index of the Crawl-delay host, its delay (s) and servers. */
  crawlHost: number;
  crawlDelaySeconds: number;
  crawlServers: number;
}

/** What the hosts saw since the last "stats" message. */
export interface FleetStats {
  type: "stats";
  /** Most requests in flight at once, per host index. */
  peaks: number[];
  requests: number[];
  /** Shortest time between the end of one answer and the arrival of the next request on the Crawl-delay host. */
  crawlMinGapMs: number | null;
  /** A few requests that arrived at a host other than the first while another one was still open there. */
  overlaps: string[];
  /** Requests a server's own handler answered, per slice of the mix (robots.txt and unknown paths left out). */
  bySlice: Record<string, number>;
}

export function mixFor(i: number): MixEntry {
  // Deterministic spread: the position inside each block of 100 picks the slice.
  let slot = (i * 37) % 100;
  for (const m of FLEET_MIX) {
    if (slot < m.per100) return m;
    slot -= m.per100;
  }
  return FLEET_MIX[0]!;
}

export function hostAddress(h: number): string {
  return `127.0.${1 + Math.floor(h / 250)}.${1 + (h % 250)}`;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_FLEET_SERVERS ?? 10_000);
  const lifetimeMs = Number(process.env.BENCH_FLEET_LIFETIME_MS ?? 15 * 60_000);
  const latencyMs = Number(process.env.BENCH_FLEET_LATENCY_MS ?? 0);
  const crowdedPercent = Number(process.env.BENCH_FLEET_CROWDED_PERCENT ?? 0);
  const crawlServers = Number(process.env.BENCH_FLEET_CRAWL_SERVERS ?? 3);
  const crawlDelaySeconds = Number(process.env.BENCH_FLEET_CRAWL_DELAY ?? 1);
  const t0 = performance.now();
  const isCrowded = (i: number) => crowdedPercent > 0 && (i * 53) % 100 < crowdedPercent;
  let crowdedCount = 0;
  for (let i = 0; i < count; i++) if (isCrowded(i)) crowdedCount++;
  // Enough hosts that the rest stay ordinary (fewer than 50 servers each, architecture.md §2.5), else they would be crowded too.
  const hostCount = Math.max(
    Number(process.env.BENCH_FLEET_HOSTS ?? 128),
    crowdedPercent > 0 ? Math.ceil((count - crowdedCount) / 40) + 2 : 0,
  );

  // Per host: prefix → handler. Host 0 is the crowded one when the mix has one; the last host asks for a
  // Crawl-delay and serves only a few servers; the rest go round-robin, so neighbours sit on different hosts.
  const crawlHost = hostCount - 1;
  const mounts: Map<string, Handler>[] = Array.from({ length: hostCount }, () => new Map());
  const sliceOf: Map<string, string>[] = Array.from({ length: hostCount }, () => new Map());
  const bySlice = new Map<string, number>();
  const plan: { i: number; host: number; prefix: string; mix: MixEntry }[] = [];
  let spread = 0;
  let onCrawlHost = 0;
  for (let i = 0; i < count; i++) {
    const crowded = isCrowded(i);
    const firstOrdinary = crowdedPercent > 0 ? 1 : 0;
    const host = crowded
      ? 0
      : onCrawlHost < crawlServers
        ? (onCrawlHost++, crawlHost)
        : firstOrdinary + (spread++ % (crawlHost - firstOrdinary));
    const prefix = `/s${String(i).padStart(5, "0")}`;
    const mix = mixFor(i);
    const zoo = createZooHandler(mix.behaviour, { prefix });
    const delay = latencyMs + (mix.delayMs ? mix.delayMs[0] + ((i * 7919) % (mix.delayMs[1] - mix.delayMs[0] + 1)) : 0);
    // A prober that gives up mid-request (its deadline) must not bring the fleet down.
    const answer: Handler = (req, res) => void zoo(req, res).catch(() => res.destroy());
    const handler: Handler = delay ? (req, res) => void setTimeout(() => answer(req, res), delay) : answer;
    mounts[host]!.set(prefix, handler);
    sliceOf[host]!.set(prefix, mix.label);
    plan.push({ i, host, prefix, mix });
  }
  const crawlRobots = `User-agent: *\nAllow: /\n\nUser-agent: mcp-status-probe\nCrawl-delay: ${crawlDelaySeconds}\n`;

  const peaks = new Array<number>(hostCount).fill(0);
  const requests = new Array<number>(hostCount).fill(0);
  const inFlight = new Array<number>(hostCount).fill(0);
  let crawlLastEnd = -Infinity;
  let crawlMinGapMs: number | null = null;
  const overlaps: string[] = [];

  const listeners: Server[] = [];
  const origins: string[] = [];
  for (let h = 0; h < hostCount; h++) {
    const table = mounts[h]!;
    const openAnswers = new Set<string>();
    const server = createServer((req, res) => {
      requests[h]!++;
      const what = `${req.method} ${req.url}`;
      if (openAnswers.size > 0 && h !== 0 && overlaps.length < 10)
        overlaps.push(`host ${h}: ${what} arrived while ${[...openAnswers].join(" + ")} open`);
      openAnswers.add(what);
      res.once("close", () => openAnswers.delete(what));
      peaks[h] = Math.max(peaks[h]!, ++inFlight[h]!);
      if (h === crawlHost) {
        const gap = performance.now() - crawlLastEnd;
        if (Number.isFinite(gap)) crawlMinGapMs = Math.min(crawlMinGapMs ?? Infinity, gap);
      }
      // In flight until the answer is handed over (or the connection drops): counted at end() rather than at
      // "close", which a busy event loop can deliver after the prober's next request has arrived.
      let open = true;
      const finished = () => {
        if (!open) return;
        open = false;
        inFlight[h]!--;
        if (h === crawlHost) crawlLastEnd = performance.now();
      };
      const endAnswer = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
      res.end = ((...a: unknown[]) => {
        finished();
        return endAnswer(...a);
      }) as typeof res.end;
      res.once("close", finished);
      const path = req.url ?? "/";
      if (path === "/robots.txt") {
        const answer = () =>
          h === crawlHost
            ? res.writeHead(200, { "content-type": "text/plain" }).end(crawlRobots)
            : res.writeHead(404, { "content-type": "text/plain" }).end("no robots.txt\n");
        return void (latencyMs ? setTimeout(answer, latencyMs) : answer());
      }
      const end = path.indexOf("/", 1);
      const prefix = end < 0 ? path.split("?")[0]! : path.slice(0, end);
      const handler = table.get(prefix);
      if (handler) {
        const label = sliceOf[h]!.get(prefix)!;
        bySlice.set(label, (bySlice.get(label) ?? 0) + 1);
        return handler(req, res);
      }
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    });
    server.keepAliveTimeout = 5_000;
    listeners.push(server);
    origins.push(
      await new Promise<string>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, hostAddress(h), () => resolve(`http://${hostAddress(h)}:${(server.address() as AddressInfo).port}`));
      }),
    );
  }

  const servers: FleetServer[] = plan.map((p) => ({
    name: `io.bench.fleet/s-${String(p.i).padStart(5, "0")}`,
    url: `${origins[p.host]}${p.prefix}/mcp`,
    label: p.mix.label,
    behaviour: p.mix.behaviour,
  }));
  const entries = servers.map((s) =>
    entry(s.name, [{ type: "streamable-http", url: s.url }], { description: `Benchmark fleet server (${s.label}).` }),
  );
  const registry = await startFixtureRegistry(entries, { pageSize: 100 });

  const stop = async (code: number) => {
    await registry.close().catch(() => undefined);
    for (const l of listeners) l.closeAllConnections();
    await Promise.all(listeners.map((l) => new Promise((r) => l.close(r))));
    process.exit(code);
  };
  process.on("message", (m) => {
    if (m === "stop") void stop(0);
    if (m === "stats") {
      const stats: FleetStats = {
        type: "stats",
        peaks: [...peaks],
        requests: [...requests],
        crawlMinGapMs: crawlMinGapMs === null ? null : Math.round(crawlMinGapMs),
        overlaps: overlaps.splice(0),
        bySlice: Object.fromEntries(bySlice),
      };
      bySlice.clear();
      process.send?.(stats);
      peaks.fill(0);
      requests.fill(0);
      crawlMinGapMs = null;
      crawlLastEnd = -Infinity;
    }
  });
  process.on("disconnect", () => void stop(0));
  setTimeout(() => {
    console.error(`[fleet] lifetime of ${lifetimeMs} ms reached; stopping`);
    void stop(1);
  }, lifetimeMs).unref();
  // Keeps the process alive until stopped (the listeners do too; this is belt and braces for the limit above).
  setInterval(() => undefined, 60_000);

  const ready: FleetReady = {
    type: "ready",
    registryUrl: registry.url,
    servers,
    hosts: hostCount,
    startMs: Math.round(performance.now() - t0),
    crowdedServers: crowdedCount,
    serversPerHost: mounts.map((m) => m.size),
    crawlHost,
    crawlDelaySeconds,
    crawlServers: plan.filter((p) => p.host === crawlHost).length,
  };
  process.send?.(ready);
}

if (process.env.BENCH_ROLE === "fleet") {
  main().catch((e: unknown) => {
    console.error(`[fleet] failed to start: ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  });
}
