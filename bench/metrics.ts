// npm run bench:metrics: what /metrics costs and whether a crowd of scrapers slows page answers. Seeds a
// database of 30,000 servers, measures one computation of the stored figures in this process, then serves it
// with `npm start` (METRICS_TOKEN set) and loads a cached server page with autocannon three times: alone,
// beside 20 scrapers that each scrape /metrics back to back, and alone again. The verdict is the p99 ratio
// against the mean of the two runs alone, measured in the same run.
//
// Knobs: BENCH_METRICS_SERVERS (30000), BENCH_METRICS_DAYS (7), BENCH_METRICS_DURATION (10 s per run),
// BENCH_METRICS_CONNECTIONS (10), BENCH_METRICS_SCRAPERS (20).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDb } from "@/db/client";
import { storedFamilies } from "@/lib/metrics/stored";
import { exposition } from "@/lib/metrics/registry";
import { serverPath } from "@/lib/site/paths";
import { startNext } from "@/tests/fixtures/next-server";
import { fmt, freePort, percentile, printTable, sortedNumbers } from "./common";
import { benchServerName, seedSiteDb } from "./seed";

const SERVERS = Number(process.env.BENCH_METRICS_SERVERS ?? 30_000);
const DAYS = Number(process.env.BENCH_METRICS_DAYS ?? 7);
const DURATION_S = Number(process.env.BENCH_METRICS_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_METRICS_CONNECTIONS ?? 10);
const SCRAPERS = Number(process.env.BENCH_METRICS_SCRAPERS ?? 20);
const TOKEN = "bench-metrics-token";
/** Page p99 beside the scrapers, as a multiple of its p99 alone. */
const TARGET_RATIO = 1.5;

async function pageLoad(origin: string, page: string) {
  const r = await autocannon({ url: `${origin}${page}`, connections: CONNECTIONS, duration: DURATION_S, timeout: 10 });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

/** Scrapers back to back until `stop`; each scrape's latency in ms. */
function scrapers(origin: string, n: number, stop: { done: boolean }): Promise<number[]> {
  const latencies: number[] = [];
  return Promise.all(
    Array.from({ length: n }, async () => {
      while (!stop.done) {
        const t0 = performance.now();
        const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}`, "accept-encoding": "gzip" } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  ).then(() => latencies);
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-metrics-"));
  const dbPath = path.join(tmp, "site.db");
  let site: Awaited<ReturnType<typeof startNext>> | undefined;
  try {
    console.log(`[bench:metrics] seeding ${fmt.n(SERVERS)} servers x ${DAYS} days`);
    const db = openDb(dbPath);
    seedSiteDb(db, new Date(Math.floor(Date.now() / 60_000) * 60_000), SERVERS, DAYS);
    // One computation of the stored figures, as the renderer does it at most once a second.
    const costs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      bytes = (await exposition([storedFamilies(db, new Date())])).length;
      costs.push(performance.now() - t0);
    }
    db.$client.close();
    const cost = sortedNumbers(costs);

    site = await startNext({ dbPath, port: await freePort(), env: { METRICS_TOKEN: TOKEN } });
    const page = serverPath(benchServerName(7));
    for (let i = 0; i < 50; i++) await (await fetch(`${site.origin}${page}`)).arrayBuffer();

    const alone1 = await pageLoad(site.origin, page);
    const stop = { done: false };
    const scraping = scrapers(site.origin, SCRAPERS, stop);
    const beside = await pageLoad(site.origin, page);
    stop.done = true;
    const scrapes = sortedNumbers(await scraping);
    const alone2 = await pageLoad(site.origin, page);
    const aloneP99 = (alone1.p99 + alone2.p99) / 2;
    const ratio = beside.p99 / aloneP99;

    printTable(
      `[bench:metrics] ${fmt.n(SERVERS)} servers; cached server page, ${CONNECTIONS} connections, ${DURATION_S} s per run`,
      ["run", "req/s", "p50 ms", "p99 ms", "errors"],
      [
        ["page alone", fmt.n(alone1.rps), String(alone1.p50), String(alone1.p99), String(alone1.errors)],
        [`page + ${SCRAPERS} scrapers`, fmt.n(beside.rps), String(beside.p50), String(beside.p99), String(beside.errors)],
        ["page alone again", fmt.n(alone2.rps), String(alone2.p50), String(alone2.p99), String(alone2.errors)],
      ],
    );
    console.log(
      `[bench:metrics] stored figures computed in p50 ${cost[Math.floor(cost.length / 2)]!.toFixed(1)} ms, max ${cost.at(-1)!.toFixed(1)} ms (${fmt.n(bytes)} bytes of text)`,
    );
    console.log(
      `[bench:metrics] ${fmt.n(scrapes.length)} scrapes answered in ${DURATION_S} s (${(scrapes.length / DURATION_S).toFixed(1)}/s), latency p50 ${percentile(scrapes, 50).toFixed(0)} ms, p99 ${percentile(scrapes, 99).toFixed(0)} ms`,
    );
    console.log(
      `[bench:metrics] page p99 beside the scrapers / alone: ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}) ${ratio <= TARGET_RATIO ? "PASS" : "MISS"}`,
    );
  } finally {
    await site?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`[bench:metrics] ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
