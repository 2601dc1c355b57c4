// npm run bench:census: the census over time at registry size (architecture.md §3). On bench:site's seeded database (30,000
// servers, 30 days of runs and transitions, one finished round per day): the day's row computed and written, the 30 earlier
// days rebuilt from the stored runs, the day's servers file written (size, time), and then, against `npm start`, the file
// served by the front beside nginx serving the same bytes (bench:site's nginx), and /census beside nginx serving a copy of it.
//
// Knobs: BENCH_CENSUS_SERVERS (30000), BENCH_CENSUS_DAYS (30), BENCH_CENSUS_DURATION (10 s per load), BENCH_CENSUS_DB (reuse
// a seeded file), BENCH_CENSUS_SERVE=0 (the figures of the writes only: no npm start, no nginx).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDb } from "@/db/client";
import { writeServersFile } from "@/lib/rounds/open-data";
import { censusSnapshot, insertCensusDay, rebuildCensusDay } from "@/lib/store/census";
import { serversFileName, serversFilePath } from "@/lib/site/paths";
import { startNext } from "@/tests/fixtures/next-server";
import { cpuSeconds, descendants, fmt, freePort, printTargets, type TargetRow } from "./common";
import { ensureNginx, startNginx } from "./nginx";
import { seedSiteDb } from "./seed";

const SERVERS = Number(process.env.BENCH_CENSUS_SERVERS ?? 30_000);
const DAYS = Number(process.env.BENCH_CENSUS_DAYS ?? 30);
const DURATION_S = Number(process.env.BENCH_CENSUS_DURATION ?? 10);
const CONNECTIONS = 20;
const DAY_MS = 86_400_000;
const TARGET = { rowMs: 2_000, fileMs: 10_000, rpsShare: 0.8 };
const log = (line: string) => console.log(line);
class Skip extends Error {}

async function load(origin: string, p: string, pids: () => number[]) {
  const cpu0 = cpuSeconds(pids());
  const r = await autocannon({ url: `${origin}${p}`, connections: CONNECTIONS, duration: DURATION_S, timeout: 10 });
  const cpu = cpuSeconds(pids()) - cpu0;
  return {
    rps: r.requests.total / r.duration,
    p99: r.latency.p99,
    bad: r.errors + r.non2xx + r.timeouts,
    perCore: cpu > 0 ? r.requests.total / cpu : NaN,
  };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-census-"));
  fs.chmodSync(tmp, 0o755);
  const reuse = process.env.BENCH_CENSUS_DB;
  const dbPath = reuse ? path.resolve(reuse) : path.join(tmp, "site.db");
  const dataDir = path.join(tmp, "open-data");
  const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const today = end.toISOString().slice(0, 10);
  const rows: TargetRow[] = [];
  let site: Awaited<ReturnType<typeof startNext>> | undefined;
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    const db = openDb(dbPath);
    if (!reuse) {
      log(`[bench:census] seeding ${fmt.n(SERVERS)} servers x ${DAYS} days into ${dbPath}`);
      const s = seedSiteDb(db, end, SERVERS, DAYS);
      log(`[bench:census] seeded in ${fmt.s(s.ms)}: ${fmt.n(s.runs)} runs, ${fmt.n(s.transitions)} transitions`);
    }
    // One finished round a day, at 00:30 UTC, as the rebuild looks for.
    const insRound = db.$client.prepare(`insert into rounds (started_at, finished_at, status, trigger) values (?, ?, 'done', 'scheduler')`);
    for (let d = DAYS - 1; d >= 1; d--) {
      const t = Date.parse(`${new Date(end.getTime() - d * DAY_MS).toISOString().slice(0, 10)}T00:30:00Z`);
      insRound.run(new Date(t - 60_000).toISOString(), new Date(t).toISOString());
    }
    db.$client.prepare("delete from census_days").run();

    // The day's row: what the round computes and stores after the day's first round (best and worst of three).
    const rowTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const counts = censusSnapshot(db);
      if (i === 0)
        insertCensusDay(db, {
          ...counts,
          day: today,
          source: "round",
          asOf: end.toISOString(),
          writtenAt: end.toISOString(),
          roundId: null,
        });
      rowTimes.push(performance.now() - t0);
      if (i === 0) log(`[bench:census] today's row counts ${fmt.n(counts.registry)} servers`);
    }
    const rowMs = Math.max(...rowTimes);
    rows.push({
      figure: `day's row, ${fmt.n(SERVERS)} servers (worst of 3)`,
      value: fmt.ms(rowMs),
      target: `≤ ${fmt.s(TARGET.rowMs)}`,
      verdict: rowMs <= TARGET.rowMs ? "PASS" : "MISS",
    });
    const bytes = db.$client
      .prepare(
        "select length(revisions) + length(eras) + length(transports) + length(auth) + length(refusals) + length(overall) + length(not_checked_causes) as n from census_days",
      )
      .get() as { n: number };
    rows.push({ figure: "day's row, JSON counts stored", value: `${bytes.n} bytes`, target: "small", verdict: "info" });

    // The rebuild of every earlier day whose runs are still stored (a deployment's first day).
    const retainedFrom = new Date(end.getTime() - 30 * DAY_MS).toISOString();
    const rebuildTimes: number[] = [];
    for (let d = DAYS - 1; d >= 1; d--) {
      const asOf = `${new Date(end.getTime() - d * DAY_MS).toISOString().slice(0, 10)}T00:30:00.000Z`;
      const t0 = performance.now();
      rebuildCensusDay(db, asOf, retainedFrom);
      rebuildTimes.push(performance.now() - t0);
    }
    const rebuildTotal = rebuildTimes.reduce((a, b) => a + b, 0);
    rows.push({
      figure: `rebuild ${rebuildTimes.length} days from runs`,
      value: `${fmt.s(rebuildTotal)} (worst day ${fmt.ms(Math.max(...rebuildTimes))})`,
      target: "once, yielding per day",
      verdict: "info",
    });

    // The day's servers file.
    const t0 = performance.now();
    const file = await writeServersFile(db, dataDir, today, end);
    const fileMs = performance.now() - t0;
    db.$client.close();
    rows.push({
      figure: `servers file, ${fmt.n(file!.servers)} lines`,
      value: `${fmt.ms(fileMs)}, ${(file!.bytes / 1024).toFixed(0)} KB gzip`,
      target: `≤ ${fmt.s(TARGET.fileMs)}`,
      verdict: fileMs <= TARGET.fileMs ? "PASS" : "MISS",
    });

    // Served: the front (npm start) beside nginx with the same file, and /census beside nginx with a copy of its HTML.
    if (process.env.BENCH_CENSUS_SERVE === "0") throw new Skip();
    ensureNginx(log);
    site = await startNext({ dbPath, port: await freePort(), env: { OPEN_DATA_DIR: dataDir, CROSS_READ_SAMPLE: "0" } });
    const front = site;
    const root = path.join(tmp, "root");
    fs.mkdirSync(path.join(root, "data"), { recursive: true, mode: 0o755 });
    fs.copyFileSync(file!.file, path.join(root, "data", serversFileName(today)));
    const census = await fetch(`${front.origin}/census`);
    if (census.status !== 200) throw new Error(`/census answered ${census.status}`);
    fs.writeFileSync(path.join(root, "census"), Buffer.from(await census.arrayBuffer()));
    for (const p of [root, path.join(root, "data")]) fs.chmodSync(p, 0o755);
    for (const f of [path.join(root, "census"), path.join(root, "data", serversFileName(today))]) fs.chmodSync(f, 0o644);
    nginx = await startNginx(path.join(tmp, "nginx"), root, [
      { prefix: "/data/", contentType: "application/gzip" },
      { prefix: "/census", contentType: "text/html; charset=utf-8" },
    ]);
    const ref = nginx;
    const frontPids = () => [front.pid, ...descendants(front.pid)];
    for (const [label, p] of [
      ["servers file", serversFilePath(today)],
      ["/census", "/census"],
    ] as const) {
      // Warm both, then measure each.
      await fetch(`${front.origin}${p}`).then((r) => r.arrayBuffer());
      const f = await load(front.origin, p, frontPids);
      const n = await load(ref.origin, p, ref.pids);
      const share = f.rps / n.rps;
      log(`[bench:census] ${label}: front ${fmt.rate(f.rps)} (p99 ${f.p99} ms, ${f.bad} bad), nginx ${fmt.rate(n.rps)} (p99 ${n.p99} ms)`);
      rows.push({
        figure: `${label}: front req/s as a share of nginx's`,
        value: `${(share * 100).toFixed(0)}% (${fmt.rate(f.rps)} vs ${fmt.rate(n.rps)})`,
        target: label === "servers file" ? `≥ ${TARGET.rpsShare * 100}%` : "info",
        verdict: label === "servers file" ? (share >= TARGET.rpsShare && f.bad === 0 ? "PASS" : "MISS") : "info",
      });
    }
  } catch (e) {
    if (!(e instanceof Skip)) throw e;
  } finally {
    await site?.stop();
    await nginx?.stop();
    if (!reuse) fs.rmSync(tmp, { recursive: true, force: true });
  }
  printTargets(`[bench:census] ${fmt.n(SERVERS)} servers, ${DAYS} days of runs`, rows);
  if (rows.some((r) => r.verdict === "MISS")) process.exitCode = 1;
}

void main();
