// npm run bench:site: seeds a database with 30,000 servers and 30 days of history, serves it with
// `npm start`, and measures it against nginx (Debian's package, installed when missing: one worker,
// sendfile, keep-alive) serving byte-identical copies of the same answers, plain and gzipped
// (gzip_static with the front's own gzip bytes). The same load generator (autocannon, 50 connections)
// reads `/`, server pages, badges and `/api/servers/<name>` from each, alternating, and the CPU time both
// servers spent is read from /proc.
//
// Knobs: BENCH_SITE_SERVERS (30000), BENCH_SITE_DAYS (30), BENCH_SITE_DURATION (10 s per measurement),
// BENCH_SITE_ROUNDS (2 measurements per target and server), BENCH_SITE_CONNECTIONS (50), BENCH_KEEP_DB=1,
// BENCH_SITE_DB=<file> (reuse a kept database).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDb } from "@/db/client";
import { badgePath, encodeName, serverJsonPath, serverPath } from "@/lib/site/paths";
import { cpuSeconds, descendants, fmt, freePort, pool, printTable, printTargets, procRss, type TargetRow } from "./common";
import { ensureNginx, startNginx, type RunningNginx } from "./nginx";
import { startNext } from "@/tests/fixtures/next-server";
import { benchServerName, seedSiteDb } from "./seed";

const SERVERS = Number(process.env.BENCH_SITE_SERVERS ?? 30_000);
const DAYS = Number(process.env.BENCH_SITE_DAYS ?? 30);
const DURATION_S = Number(process.env.BENCH_SITE_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_SITE_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_SITE_CONNECTIONS ?? 50);
const WHOLE_RUN_LIMIT_MS = 30 * 60_000;

/** Targets, each against nginx in the same run: req/s share, p99 ratio, requests per CPU core-second share. */
const TARGET = { rpsShare: 0.8, p99Ratio: 2, perCoreShare: 0.4 };

const log = (line: string) => console.log(line);

function ensureBuild(): void {
  if (fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) {
    log("[bench:site] using the existing .next build");
    return;
  }
  log("[bench:site] no .next build: running next build");
  const r = spawnSync("npx", ["next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    timeout: 10 * 60_000,
  });
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status})`);
}

type Coding = "identity" | "gzip";
const CODINGS: Coding[] = ["identity", "gzip"];

interface Target {
  label: string;
  /** Paths rotated through, one per request. */
  paths: string[];
  contentType: string;
  /** The nginx location its files live under. */
  prefix: string;
}

interface Measured {
  rps: number;
  p99: number;
  requests: number;
  bad: number;
  /** Requests per CPU core-second the server spent (its whole process tree). */
  perCore: number;
}

const acceptOf = (c: Coding): Record<string, string> => (c === "gzip" ? { "accept-encoding": "gzip" } : {});

/** An answer's exact bytes as the server sends them in that coding, and how the front answered. */
function bytesOf(
  origin: string,
  p: string,
  coding: Coding,
): Promise<{ status: number; how: string; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}${p}`, { agent: false, headers: acceptOf(coding) }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            how: String(res.headers["x-page-cache"]),
            encoding: res.headers["content-encoding"],
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });
}

async function measure(origin: string, t: Target, coding: Coding, pids: () => number[]): Promise<Measured> {
  let n = 0;
  const cpu0 = cpuSeconds(pids());
  const result = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration: DURATION_S,
    timeout: 10,
    headers: acceptOf(coding),
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: t.paths[n++ % t.paths.length]! }) }],
  });
  const cpu = cpuSeconds(pids()) - cpu0;
  const requests = result.requests.total;
  return {
    rps: requests / result.duration,
    p99: result.latency.p99,
    requests,
    bad: result.errors + result.non2xx + result.timeouts,
    perCore: cpu > 0 ? requests / cpu : NaN,
  };
}

/** Sums rounds: rates over the whole time, p99 as the mean of the rounds'. */
function combine(ms: Measured[]): Measured {
  const sum = (f: (m: Measured) => number) => ms.reduce((a, m) => a + f(m), 0);
  return {
    rps: sum((m) => m.rps) / ms.length,
    p99: sum((m) => m.p99) / ms.length,
    requests: sum((m) => m.requests),
    bad: sum((m) => m.bad),
    perCore: sum((m) => m.requests) / sum((m) => m.requests / m.perCore),
  };
}

async function main(): Promise<void> {
  const hardStop = setTimeout(() => {
    console.error(`[bench:site] gave up after ${WHOLE_RUN_LIMIT_MS / 60_000} min`);
    process.exit(2);
  }, WHOLE_RUN_LIMIT_MS);
  hardStop.unref();

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-site-"));
  fs.chmodSync(tmp, 0o755);
  const reuse = process.env.BENCH_SITE_DB;
  const dbPath = reuse ? path.resolve(reuse) : path.join(tmp, "site.db");
  let server: Awaited<ReturnType<typeof startNext>> | undefined;
  let nginx: RunningNginx | undefined;
  try {
    if (reuse) {
      log(`[bench:site] reusing the seeded database ${dbPath}`);
    } else {
      log(`[bench:site] seeding ${fmt.n(SERVERS)} servers x ${DAYS} days into ${dbPath}`);
      const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
      const db = openDb(dbPath);
      const stats = seedSiteDb(db, end, SERVERS, DAYS);
      db.$client.close();
      log(
        `[bench:site] seeded in ${fmt.s(stats.ms)}: ${fmt.n(stats.servers)} servers, ${fmt.n(stats.runs)} runs; file ${fmt.mb(fs.statSync(dbPath).size)}`,
      );
    }
    ensureBuild();
    ensureNginx(log);

    server = await startNext({ dbPath, port: await freePort() });
    const front = server;
    log(`[bench:site] npm start on ${front.origin} (pid ${front.pid})`);

    // Many servers, so the figures are not one cached row; each list is a realistic spread of profiles.
    const sample = Array.from({ length: 500 }, (_, k) => benchServerName((k * 7919) % SERVERS));
    const targets: Target[] = [
      { label: "/ (index)", paths: ["/"], contentType: "text/html; charset=utf-8", prefix: "/" },
      { label: "server page", paths: sample.map(serverPath), contentType: "text/html; charset=utf-8", prefix: "/servers/" },
      { label: "badge", paths: sample.map((n) => badgePath(n)), contentType: "image/svg+xml; charset=utf-8", prefix: "/badge/" },
      { label: "/api/servers/<name>", paths: sample.map(serverJsonPath), contentType: "application/json", prefix: "/api/servers/" },
    ];

    // Every answer once through the front (what computing it costs), its bytes copied for nginx.
    const root = path.join(tmp, "root");
    const firstMs = new Map<string, number>();
    let bytes = 0;
    for (const t of targets) {
      const t0 = performance.now();
      await pool(t.paths, 8, async (p) => {
        const a = await bytesOf(front.origin, p, "identity");
        if (a.status !== 200) throw new Error(`${p} answered ${a.status} before the load`);
        const file = p === "/" ? path.join(root, "index.html") : path.join(root, ...p.split("/").map(decodeURIComponent));
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
        fs.writeFileSync(file, a.body, { mode: 0o644 });
        // nginx's gzip_static sends file.gz to clients that accept gzip: the front's own gzip bytes.
        const gz = await bytesOf(front.origin, p, "gzip");
        if (gz.encoding === "gzip") fs.writeFileSync(`${file}.gz`, gz.body, { mode: 0o644 });
        bytes += a.body.length + (gz.encoding === "gzip" ? gz.body.length : 0);
      });
      firstMs.set(t.label, (performance.now() - t0) / t.paths.length);
    }
    for (let d = root; d !== tmp; d = path.dirname(d)) fs.chmodSync(d, 0o755);
    nginx = await startNginx(
      path.join(tmp, "nginx"),
      root,
      targets.map((t) => ({ prefix: t.prefix, contentType: t.contentType })),
    );
    const ref = nginx;
    log(
      `[bench:site] nginx on ${ref.origin}, serving ${fmt.n(targets.reduce((a, t) => a + t.paths.length, 0))} copied answers (${fmt.mb(bytes)})`,
    );
    // Byte-identical in both codings, and still held by the front.
    for (const t of targets) {
      for (const coding of CODINGS) {
        const p = t.paths[0]!;
        const [a, b] = await Promise.all([bytesOf(front.origin, p, coding), bytesOf(ref.origin, p, coding)]);
        if (!a.body.equals(b.body) || a.encoding !== b.encoding)
          throw new Error(`${p} (${coding}): nginx's copy differs from the front's answer`);
        if (a.how !== "hit") throw new Error(`${p}: the front answered "${a.how}", not from memory`);
      }
    }

    const frontPids = () => [front.pid, ...descendants(front.pid)];
    const rowsOf = targets.flatMap((t) =>
      CODINGS.map((coding) => ({ t, coding, label: `${t.label}${coding === "gzip" ? ", gzip" : ""}` })),
    );
    const results = new Map<string, { front: Measured[]; nginx: Measured[] }>(rowsOf.map((r) => [r.label, { front: [], nginx: [] }]));
    let frontPeak = 0;
    const sampler = setInterval(
      () =>
        (frontPeak = Math.max(
          frontPeak,
          frontPids().reduce((a, p) => a + procRss(p), 0),
        )),
      500,
    );
    for (let round = 1; round <= ROUNDS; round++) {
      for (const { t, coding, label } of rowsOf) {
        for (const [who, origin, pids] of [
          ["front", front.origin, frontPids],
          ["nginx", ref.origin, ref.pids],
        ] as const) {
          log(`[bench:site] round ${round}/${ROUNDS}, ${label}, ${who}: ${CONNECTIONS} connections for ${DURATION_S} s`);
          results.get(label)![who].push(await measure(origin, t, coding, pids));
        }
      }
    }
    clearInterval(sampler);

    const rows = rowsOf.map(({ t, label }) => {
      const r = results.get(label)!;
      return { label, target: t.label, front: combine(r.front), nginx: combine(r.nginx) };
    });
    const pct = (x: number) => `${Math.round(x * 100)}%`;
    printTable(
      `bench:site: ${fmt.n(SERVERS)} servers, ${DAYS} days, ${CONNECTIONS} connections, ${ROUNDS} x ${DURATION_S} s per target and server, alternating, ${os.cpus().length} cores`,
      [
        "target",
        "front req/s",
        "nginx req/s",
        "share",
        "front p99",
        "nginx p99",
        "ratio",
        "front req/core-s",
        "nginx req/core-s",
        "share",
        "errors",
        "first answer",
      ],
      rows.map((r) => [
        r.label,
        fmt.n(Math.round(r.front.rps)),
        fmt.n(Math.round(r.nginx.rps)),
        pct(r.front.rps / r.nginx.rps),
        fmt.ms(r.front.p99),
        fmt.ms(r.nginx.p99),
        `${(r.front.p99 / Math.max(r.nginx.p99, 1)).toFixed(2)}x`,
        fmt.n(Math.round(r.front.perCore)),
        fmt.n(Math.round(r.nginx.perCore)),
        pct(r.front.perCore / r.nginx.perCore),
        String(r.front.bad + r.nginx.bad),
        fmt.ms(firstMs.get(r.target)!),
      ]),
    );
    log(`npm start peak RSS (front and renderer): ${fmt.mb(frontPeak)}`);
    log(`example server: ${encodeName(sample[0]!)}`);
    log("p99 ratios use at least 1 ms for nginx's p99 (autocannon reports whole milliseconds).");

    const targetRows: TargetRow[] = rows.flatMap((r): TargetRow[] => [
      {
        figure: `${r.label} req/s vs nginx`,
        value: pct(r.front.rps / r.nginx.rps),
        target: `>= ${pct(TARGET.rpsShare)}`,
        verdict: r.front.rps / r.nginx.rps >= TARGET.rpsShare ? "PASS" : "MISS",
      },
      {
        figure: `${r.label} p99 vs nginx`,
        value: `${(r.front.p99 / Math.max(r.nginx.p99, 1)).toFixed(2)}x`,
        target: `<= ${TARGET.p99Ratio}x`,
        verdict: r.front.p99 <= TARGET.p99Ratio * Math.max(r.nginx.p99, 1) ? "PASS" : "MISS",
      },
      {
        figure: `${r.label} req per core-second vs nginx`,
        value: pct(r.front.perCore / r.nginx.perCore),
        target: `>= ${pct(TARGET.perCoreShare)}`,
        verdict: r.front.perCore / r.nginx.perCore >= TARGET.perCoreShare ? "PASS" : "MISS",
      },
    ]);
    const bad = rows.reduce((a, r) => a + r.front.bad + r.nginx.bad, 0);
    targetRows.push({
      figure: "errors + non-2xx + timeouts, all runs",
      value: String(bad),
      target: "0",
      verdict: bad === 0 ? "PASS" : "MISS",
    });
    printTargets("bench:site targets (front vs nginx, same run)", targetRows);
    console.log(
      JSON.stringify({
        bench: "site",
        servers: SERVERS,
        connections: CONNECTIONS,
        durationS: DURATION_S,
        rounds: ROUNDS,
        cores: os.cpus().length,
        targets: Object.fromEntries(
          rows.map((r) => [
            r.label,
            {
              frontRps: Math.round(r.front.rps),
              nginxRps: Math.round(r.nginx.rps),
              frontP99Ms: r.front.p99,
              nginxP99Ms: r.nginx.p99,
              frontPerCore: Math.round(r.front.perCore),
              nginxPerCore: Math.round(r.nginx.perCore),
              firstAnswerMs: Number(firstMs.get(r.target)!.toFixed(1)),
            },
          ]),
        ),
        pass: targetRows.every((r) => r.verdict !== "MISS"),
      }),
    );
  } finally {
    await nginx?.stop();
    await server?.stop();
    if (reuse) log(`[bench:site] database kept at ${dbPath}`);
    else if (process.env.BENCH_KEEP_DB === "1" && fs.existsSync(dbPath)) {
      const kept = path.join(os.tmpdir(), `bench-site-${Date.now()}.db`);
      fs.renameSync(dbPath, kept);
      log(`[bench:site] database kept at ${kept} (BENCH_SITE_DB=${kept} reuses it)`);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`[bench:site] ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
