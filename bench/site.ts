// npm run bench:site: seeds a database with 30,000 servers and 30 days of history, serves it with
// `npm start`, and loads `/`, a server page, a badge, `/api/servers/<name>` and a static file (the
// reference) with autocannon at 50 connections.
//
// Knobs: BENCH_SITE_SERVERS (30000), BENCH_SITE_DAYS (30), BENCH_SITE_DURATION (10 s per target),
// BENCH_SITE_CONNECTIONS (50), BENCH_KEEP_DB=1.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDb } from "@/db/client";
import { badgePath, encodeName, serverJsonPath, serverPath } from "@/lib/site/paths";
import { descendants, fmt, freePort, pool, printTable, printTargets, procRss, type TargetRow } from "./common";
import { startNext } from "@/tests/fixtures/next-server";
import { benchServerName, seedSiteDb } from "./seed";

const SERVERS = Number(process.env.BENCH_SITE_SERVERS ?? 30_000);
const DAYS = Number(process.env.BENCH_SITE_DAYS ?? 30);
const DURATION_S = Number(process.env.BENCH_SITE_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_SITE_CONNECTIONS ?? 50);
const WHOLE_RUN_LIMIT_MS = 20 * 60_000;

const TARGET_PAGE_P99_MS = 100;
/** Throughput targets as a share of the static reference's req/s, measured in the same run. */
const TARGET_SHARE: Record<string, number> = { "/ (index)": 0.25, "server page": 0.25, badge: 0.5, "/api/servers/<name>": 0.5 };

// ---------------------------------------------------------------------------------------------
// next build / npm start

function ensureBuild(): void {
  if (fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    console.log("[bench:site] using the existing .next build");
    return;
  }
  console.log("[bench:site] no .next build: running next build under flock /tmp/team/next-build.lock");
  const r = spawnSync("flock", ["/tmp/team/next-build.lock", "sh", "-c", "test -f .next/BUILD_ID || npx next build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    timeout: 10 * 60_000,
  });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status})`);
}

function staticReference(): string {
  const pub = path.join(process.cwd(), "public");
  const walk = (dir: string): string | null => {
    if (!fs.existsSync(dir)) return null;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isFile()) return p;
      if (e.isDirectory()) {
        const f = walk(p);
        if (f) return f;
      }
    }
    return null;
  };
  const file = walk(pub);
  if (file) return `/${path.relative(pub, file).split(path.sep).map(encodeURIComponent).join("/")}`;
  const chunks = path.join(process.cwd(), ".next", "static", "chunks");
  const js = fs.existsSync(chunks) ? fs.readdirSync(chunks).find((f) => f.endsWith(".js")) : undefined;
  if (js) return `/_next/static/chunks/${js}`;
  throw new Error("no static file to use as the reference (public/ is empty and .next/static has no chunks)");
}

// ---------------------------------------------------------------------------------------------

interface Target {
  label: string;
  /** Paths rotated through, one per request. */
  paths: string[];
}

interface Measured {
  label: string;
  example: string;
  /** Warm-up time per distinct path, 8 at a time: what computing each answer once costs. */
  firstRenderMs: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  requests: number;
}

async function load(origin: string, t: Target): Promise<Measured> {
  // Warm-up: every path once, so the run measures answers served between two writes (each is computed once per
  // change of its data); the warm-up's own rate is the cost of computing them, shown beside.
  const t0 = performance.now();
  await pool(t.paths, 8, (p) => fetch(`${origin}${p}`).then((r) => r.arrayBuffer()).then(() => undefined));
  const firstRenderMs = (performance.now() - t0) / t.paths.length;
  let n = 0;
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: DURATION_S,
    timeout: 10,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: t.paths[n++ % t.paths.length]! }) }],
  });
  return {
    label: t.label,
    example: t.paths[0]!,
    firstRenderMs,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    timeouts: result.timeouts,
    requests: result.requests.total,
  };
}

async function main(): Promise<void> {
  const hardStop = setTimeout(() => {
    console.error(`[bench:site] gave up after ${WHOLE_RUN_LIMIT_MS / 60_000} min`);
    process.exit(2);
  }, WHOLE_RUN_LIMIT_MS);
  hardStop.unref();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-site-"));
  // BENCH_SITE_DB=<file> reuses a database seeded by an earlier run (kept with BENCH_KEEP_DB=1).
  const reuse = process.env.BENCH_SITE_DB;
  const dbPath = reuse ? path.resolve(reuse) : path.join(tmp, "site.db");
  let server: Awaited<ReturnType<typeof startNext>> | undefined;
  try {
    if (reuse) {
      console.log(`[bench:site] reusing the seeded database ${dbPath}`);
    } else {
      console.log(`[bench:site] seeding ${fmt.n(SERVERS)} servers x ${DAYS} days into ${dbPath}`);
      const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
      const db = openDb(dbPath);
      const stats = seedSiteDb(db, end, SERVERS, DAYS);
      db.$client.close();
      console.log(
        `[bench:site] seeded in ${fmt.s(stats.ms)}: ${fmt.n(stats.servers)} servers, ${fmt.n(stats.runs)} runs, ${fmt.n(stats.transitions)} transitions, ` +
          `${fmt.n(stats.snapshots)} tool snapshots, ${fmt.n(stats.toolChanges)} tool changes, ${fmt.n(stats.coverageRows)} coverage rows; file ${fmt.mb(fs.statSync(dbPath).size)}`,
      );
    }
    const size = fs.statSync(dbPath).size;

    ensureBuild();
    const port = await freePort();
    // BENCH_NEXT_PROF=<dir> runs next under `node --cpu-prof` (profiles land there when it stops).
    const prof = process.env.BENCH_NEXT_PROF;
    server = await startNext({ dbPath, port, nodeArgs: prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [] });
    console.log(`[bench:site] npm start on ${server.origin} (pid ${server.pid})`);

    // Rotate over many servers so the figures are not one cached row; each list is a realistic spread of profiles.
    const sample = Array.from({ length: 500 }, (_, k) => benchServerName((k * 7919) % SERVERS));
    const targets: Target[] = [
      { label: "/ (index)", paths: ["/"] },
      { label: "server page", paths: sample.map(serverPath) },
      { label: "badge", paths: sample.map((n) => badgePath(n)) },
      { label: "/api/servers/<name>", paths: sample.map(serverJsonPath) },
      { label: "static file (reference)", paths: [staticReference()] },
    ];
    for (const t of targets) {
      const r = await fetch(`${server.origin}${t.paths[0]}`);
      await r.arrayBuffer();
      if (r.status !== 200) console.log(`[bench:site] warning: ${t.paths[0]} answered ${r.status} before the load`);
    }

    const measured: Measured[] = [];
    let nextPeak = 0;
    const sampler = setInterval(() => {
      const pid = server!.pid;
      nextPeak = Math.max(nextPeak, [pid, ...descendants(pid)].reduce((a, p) => a + procRss(p), 0));
    }, 200);
    for (const t of targets) {
      console.log(`[bench:site] ${t.label}: ${CONNECTIONS} connections for ${DURATION_S} s (${t.paths.length} distinct paths, e.g. ${t.paths[0]})`);
      measured.push(await load(server.origin, t));
    }
    clearInterval(sampler);

    printTable(
      `bench:site: ${fmt.n(SERVERS)} servers, ${DAYS} days of history, ${CONNECTIONS} connections, ${DURATION_S} s per target, ${os.cpus().length} cores`,
      ["target", "req/s", "p50", "p99", "requests", "errors", "non-2xx", "timeouts", "first answer"],
      measured.map((m) => [
        m.label,
        fmt.n(Math.round(m.rps)),
        fmt.ms(m.p50),
        fmt.ms(m.p99),
        fmt.n(m.requests),
        String(m.errors),
        String(m.non2xx),
        String(m.timeouts),
        `${fmt.ms(m.firstRenderMs)} per path`,
      ]),
    );
    console.log(`npm start peak RSS (with children): ${fmt.mb(nextPeak)}; database ${fmt.mb(size)}`);
    console.log(`example server: ${encodeName(sample[0]!)}`);

    const page = measured.find((m) => m.label === "server page")!;
    const reference = measured.find((m) => m.label === "static file (reference)")!;
    const bad = measured.reduce((a, m) => a + m.errors + m.non2xx + m.timeouts, 0);
    const share = (m: Measured) => m.rps / reference.rps;
    const rows: TargetRow[] = [
      ...measured
        .filter((m) => TARGET_SHARE[m.label] !== undefined)
        .map((m): TargetRow => ({
          figure: `${m.label} req/s vs static`,
          value: `${fmt.n(Math.round(m.rps))} / ${fmt.n(Math.round(reference.rps))} = ${(share(m) * 100).toFixed(0)}%`,
          target: `>= ${TARGET_SHARE[m.label]! * 100}%`,
          verdict: share(m) >= TARGET_SHARE[m.label]! ? "PASS" : "MISS",
        })),
      { figure: "server page p99", value: fmt.ms(page.p99), target: `<= ${TARGET_PAGE_P99_MS} ms`, verdict: page.p99 <= TARGET_PAGE_P99_MS ? "PASS" : "MISS" },
      { figure: "errors + non-2xx + timeouts, all targets", value: String(bad), target: "0", verdict: bad === 0 ? "PASS" : "MISS" },
    ];
    printTargets("bench:site targets", rows);
    // One line of figures for scripts.
    console.log(
      JSON.stringify({
        bench: "site",
        servers: SERVERS,
        days: DAYS,
        connections: CONNECTIONS,
        durationS: DURATION_S,
        cores: os.cpus().length,
        targets: Object.fromEntries(
          measured.map((m) => [m.label, { rps: Math.round(m.rps), firstAnswerMs: Number(m.firstRenderMs.toFixed(1)), shareOfStatic: Number(share(m).toFixed(3)), p50Ms: m.p50, p99Ms: m.p99, errors: m.errors + m.non2xx + m.timeouts }]),
        ),
        nextPeakRssMb: Math.round(nextPeak / 1024 / 1024),
        pass: rows.every((r) => r.verdict !== "MISS"),
      }),
    );
  } finally {
    await server?.stop();
    const keep = process.env.BENCH_KEEP_DB === "1" && !reuse;
    if (keep || reuse) console.log(`[bench:site] database kept at ${dbPath}`);
    if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`[bench:site] ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
