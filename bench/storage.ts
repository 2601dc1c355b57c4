// npm run bench:storage: 30 days of rounds through the write path the rounds use (persistRun, with
// synthetic observations judged by the real judges), the real schedule deciding who is due when,
// then the file size per server per day at steady state (growth over the last 10 days), and the disk the
// site takes as it keeps the file (never vacuumed: database plus write-ahead log, largest seen at a day's end).
//
// Knobs: BENCH_STORAGE_SERVERS (default 1000; 30000 is the full-size run, about 30x longer),
// BENCH_STORAGE_DAYS (30), BENCH_KEEP_DB=1. A smaller fleet is extrapolated: the figure is per server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "@/db/client";
import { judge } from "@/lib/checks";
import { persistRun } from "@/lib/rounds/persist";
import { evaluateCoverage } from "@/lib/rounds/alerts/evaluate";
import { acquireRoundLock, finishRound } from "@/lib/store/rounds";
import { applyRegistrySnapshot, type ListedServer } from "@/lib/store/servers/registry";
import { pruneOldRuns } from "@/lib/store/runs";
import { pruneCoverageServers } from "@/lib/store/coverage";
import { addDays, utcDay } from "@/lib/rounds/coverage";
import { fmt, printTable, printTargets } from "./common";
import { profileFor, rng, syntheticObservation, type Profile } from "./synthetic";

const FULL = 30_000;
const SERVERS = Number(process.env.BENCH_STORAGE_SERVERS ?? 1_000);
const DAYS = Number(process.env.BENCH_STORAGE_DAYS ?? 30);
const STEADY_DAYS = Math.min(10, Math.max(1, DAYS - 5));
const ROUND_MS = 5 * 60_000; // the default scheduler cadence (*/5 * * * *)
const ROUNDS_PER_DAY = (24 * 60 * 60_000) / ROUND_MS;
const T0 = Date.UTC(2026, 9, 1);
const TARGET_BYTES = 2 * 1024;
const TIME_LIMIT_MS = 45 * 60_000;

// Daily change rates: most servers change nothing; a few % change state or tools.
const P_STATE_CHANGE = 0.02;
const P_TOOL_CHANGE = 0.01;

interface Sim {
  id: number;
  base: Profile;
  /** Temporary profile until `until` (a day index), after a state change. */
  temp?: { profile: Profile; until: number };
  toolVersion: number;
}

/** The size of a vacuumed copy: the data alone. The live file is left as the site keeps it (no VACUUM). */
function sizeOnDisk(db: Db, file: string): number {
  const copy = `${file}.vacuumed`;
  fs.rmSync(copy, { force: true });
  db.$client.prepare("VACUUM INTO ?").run(copy);
  const bytes = fs.statSync(copy).size;
  fs.rmSync(copy, { force: true });
  return bytes;
}

/** The database file and its write-ahead log as they stand: what the site's volume holds. The log's size follows
 * the checkpoints (about 4 MB), not the fleet, so only the file is extrapolated per server. */
function liveBytes(file: string): { file: number; wal: number } {
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  return { file: size(file), wal: size(`${file}-wal`) };
}

function tableSizes(db: Db): Map<string, number> {
  try {
    const rows = db.$client.prepare("select name, sum(pgsize) as bytes from dbstat group by name").all() as {
      name: string;
      bytes: number;
    }[];
    return new Map(rows.map((r) => [r.name, r.bytes]));
  } catch {
    return new Map();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-storage-"));
  const file = path.join(tmp, "storage.db");
  const db = openDb(file);
  const random = rng(42);
  console.log(
    `[bench:storage] ${fmt.n(SERVERS)} servers x ${DAYS} days, rounds every 5 min (${fmt.n(DAYS * ROUNDS_PER_DAY)} rounds), ` +
      `${P_STATE_CHANGE * 100}% state changes and ${P_TOOL_CHANGE * 100}% tool changes per server per day; ${file}`,
  );
  if (SERVERS < FULL)
    console.log(`[bench:storage] scaled down from ${fmt.n(FULL)} servers; bytes per server per day are extrapolated to the full size`);

  const listed: ListedServer[] = Array.from({ length: SERVERS }, (_, i) => ({
    name: `io.github.org${i % 4000}/server-${i}`,
    title: `Server ${i}`,
    description: `A remote MCP server for ${["issues", "invoices", "calendars", "documents"][i % 4]} (benchmark population).`,
    version: "1.0.0",
    url: `https://mcp${i % 997}.example-host${i % 113}.com/s/${i}/mcp`,
    transport: "streamable-http",
    host: `mcp${i % 997}.example-host${i % 113}.com`,
    needsConfig: null,
    registryUpdatedAt: "2026-09-30T00:00:00.000Z",
  }));
  applyRegistrySnapshot(db, listed, new Date(T0).toISOString());
  const ids = db.$client.prepare("select id, name from servers order by id").all() as { id: number; name: string }[];
  const sims: Sim[] = ids.map((r, i) => ({ id: r.id, base: profileFor(i), toolVersion: 0 }));

  // Round index → servers due then; everyone is due in the first round.
  const due = new Map<number, number[]>([[0, sims.map((_, i) => i)]]);
  const sizes: { day: number; bytes: number }[] = [];
  let persisted = 0;
  let live = { day: 0, file: 0, wal: 0 };
  let transitions = 0;
  let toolChanges = 0;
  const runsPerDay: number[] = [];

  for (let r = 0; r < DAYS * ROUNDS_PER_DAY; r++) {
    const now = new Date(T0 + r * ROUND_MS);
    const day = Math.floor(r / ROUNDS_PER_DAY);
    if (r % ROUNDS_PER_DAY === 0) {
      if (performance.now() - started > TIME_LIMIT_MS) throw new Error(`stopped after ${TIME_LIMIT_MS / 60_000} min on day ${day}`);
      const kept = liveBytes(file);
      live = { day: kept.file > live.file ? day : live.day, file: Math.max(live.file, kept.file), wal: Math.max(live.wal, kept.wal) };
      if (day > 0 && day % 10 === 0) {
        const free = db.$client.pragma("freelist_count", { simple: true }) as number;
        const pageSize = db.$client.pragma("page_size", { simple: true }) as number;
        console.log(
          `[bench:storage] day ${day}: the file as kept is ${fmt.mb(kept.file)} (${fmt.mb(free * pageSize)} of it free pages), the WAL ${fmt.mb(kept.wal)}`,
        );
      }
      if (day > 0) {
        // Daily housekeeping as the rounds do it (they run it every round; its effect on size is the same).
        pruneOldRuns(db, new Date(now.getTime() - 30 * 86_400_000).toISOString());
        pruneCoverageServers(db, addDays(utcDay(now), -40));
        evaluateCoverage(db, now, () => undefined);
        for (const s of sims) {
          if (s.temp && s.temp.until <= day) s.temp = undefined;
          if (random() < P_STATE_CHANGE) {
            const to: Profile = s.base === "failing" ? "modern" : random() < 0.7 ? "failing" : "risky";
            s.temp = { profile: to, until: day + 1 + Math.floor(random() * 3) };
          }
          if (random() < P_TOOL_CHANGE) s.toolVersion++;
        }
      }
      if (day === DAYS - STEADY_DAYS || day === 1) {
        sizes.push({ day, bytes: sizeOnDisk(db, file) });
        console.log(
          `[bench:storage] day ${day}: ${fmt.mb(sizes.at(-1)!.bytes)} on disk, ${fmt.n(persisted)} runs so far (${fmt.s(performance.now() - started)})`,
        );
      }
      runsPerDay[day] = 0;
    }
    const list = due.get(r);
    if (!list?.length) continue;
    due.delete(r);
    const lock = acquireRoundLock(db, { holder: "bench-storage", trigger: "bench", now, staleMs: 2 * 60_000 });
    if (!lock.acquired) throw new Error(`round lock held by ${lock.roundId}`);
    for (const i of list) {
      const s = sims[i]!;
      const profile = s.temp?.profile ?? s.base;
      const at = new Date(now.getTime() + (i % 60) * 1000);
      const obs = syntheticObservation(i, profile, s.toolVersion, at);
      const res = persistRun(db, { serverId: s.id, roundId: lock.roundId, obs, results: judge(obs), skipped: false, now: at });
      persisted++;
      runsPerDay[day]!++;
      transitions += res.transitions;
      toolChanges += res.toolChanges;
      const next = Math.max(r + 1, Math.ceil((Date.parse(res.nextDueAt) - T0) / ROUND_MS));
      const bucket = due.get(next);
      if (bucket) bucket.push(i);
      else due.set(next, [i]);
    }
    finishRound(db, lock.roundId, "bench-storage", {
      now: new Date(now.getTime() + 60_000),
      status: "done",
      progress: { due: list.length, probed: list.length, read: 0, failed: 0, gated: 0, skipped: 0 },
    });
  }

  const end = new Date(T0 + DAYS * 86_400_000);
  pruneOldRuns(db, new Date(end.getTime() - 30 * 86_400_000).toISOString());
  const liveEnd = liveBytes(file);
  live = { day: liveEnd.file > live.file ? DAYS : live.day, file: Math.max(live.file, liveEnd.file), wal: Math.max(live.wal, liveEnd.wal) };
  const finalBytes = sizeOnDisk(db, file);
  sizes.push({ day: DAYS, bytes: finalBytes });
  const breakdown = tableSizes(db);
  closeDb(db);

  const from = sizes.find((s) => s.day === DAYS - STEADY_DAYS) ?? sizes[0]!;
  const growth = finalBytes - from.bytes;
  const perServerDay = growth / (SERVERS * (DAYS - from.day));
  const avgRuns = runsPerDay.slice(-STEADY_DAYS).reduce((a, b) => a + b, 0) / STEADY_DAYS / SERVERS;

  if (breakdown.size) {
    printTable(
      "Where the bytes are (dbstat, after VACUUM)",
      ["table or index", "bytes", "per server"],
      [...breakdown]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 14)
        .map(([name, bytes]) => [name, fmt.mb(bytes), `${Math.round(bytes / SERVERS)} B`]),
    );
  }
  printTable(
    "Simulation",
    ["figure", "value"],
    [
      ["servers simulated", fmt.n(SERVERS)],
      ["days", String(DAYS)],
      ["runs written (persistRun)", fmt.n(persisted)],
      ["runs per server per day (last days)", avgRuns.toFixed(2)],
      ["transitions written", fmt.n(transitions)],
      ["tool change rows written", fmt.n(toolChanges)],
      ["file after day 1", fmt.mb(sizes.find((s) => s.day === 1)?.bytes ?? NaN)],
      [`file after day ${from.day}`, fmt.mb(from.bytes)],
      [`file after day ${DAYS}`, fmt.mb(finalBytes)],
      [`file extrapolated to ${fmt.n(FULL)} servers`, fmt.mb((finalBytes / SERVERS) * FULL)],
      [`file as the site keeps it (no VACUUM), largest at a day's end (day ${live.day})`, fmt.mb(live.file)],
      [`file as kept after day ${DAYS}`, fmt.mb(liveEnd.file)],
      [`file as kept, largest, extrapolated to ${fmt.n(FULL)} servers`, fmt.mb((live.file / SERVERS) * FULL)],
      ["write-ahead log, largest", fmt.mb(live.wal)],
      ["wall time", fmt.s(performance.now() - started)],
    ],
  );
  printTargets(
    `bench:storage: ${fmt.n(SERVERS)} servers${SERVERS < FULL ? ` (extrapolated per server to ${fmt.n(FULL)})` : ""}, ${DAYS} days`,
    [
      {
        figure: `bytes per server per day (days ${from.day}-${DAYS})`,
        value: `${Math.round(perServerDay)} B`,
        target: "<= 2048 B",
        verdict: perServerDay <= TARGET_BYTES ? "PASS" : "MISS",
      },
      {
        figure: `file size after ${DAYS} days, whole registry`,
        value: fmt.mb((finalBytes / SERVERS) * FULL),
        target: "(info)",
        verdict: "info",
      },
      {
        figure: `disk the site takes within ${DAYS} days, whole registry (largest file as kept + largest WAL)`,
        value: fmt.mb((live.file / SERVERS) * FULL + live.wal),
        target: "(info)",
        verdict: "info",
      },
    ],
  );

  if (process.env.BENCH_KEEP_DB === "1") console.log(`[bench:storage] database kept at ${file}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`[bench:storage] ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
