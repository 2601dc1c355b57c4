// npm run bench:host-gate: what the host gate of architecture.md §2.5 costs per request, in one run: without a database
// (the floor: the gate's own bookkeeping), on a database this process has to itself (slots kept in memory), and on a
// database another process works on at the same time (a child running the same probes on the same hosts, already on the
// gate in memory: this process waits for its hand-over, then slots go back and forth as leases and waits are recorded).
// Every mode runs the same probes: BENCH_PROBES (20000) probes of BENCH_REQUESTS (8) requests in a row, BENCH_CONCURRENCY
// (64) at once, over BENCH_HOSTS (200) hosts with one request in flight each; a request holds its slot for one turn of
// the event loop. Prints this process's CPU per request and SQLite statements per request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { closeDb, openDb, type Db } from "@/db/client";
import { createHostGate, type RoundHostGate } from "@/lib/rounds/host-gate";
import { fmt, forkTs, nextMessage, pool, printTable, stopChild } from "./common";

const PROBES = Number(process.env.BENCH_PROBES ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const HOSTS = Number(process.env.BENCH_HOSTS ?? 200);

// Every statement better-sqlite3 runs goes through these three methods; the bench counts them (and their writes).
const counts = { reads: 0, writes: 0 };
const proto = Database.prototype.prepare.call(new Database(":memory:"), "select 1").constructor.prototype as Record<
  "run" | "get" | "all",
  (...a: unknown[]) => unknown
>;
for (const m of ["run", "get", "all"] as const) {
  const original = proto[m]!;
  proto[m] = function (this: unknown, ...args: unknown[]) {
    if (m === "run") counts.writes++;
    else counts.reads++;
    return original.apply(this, args);
  };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

type Run = { cpuUs: number; wallMs: number; reads: number; writes: number };

const median = (runs: Run[]): Run => [...runs].sort((a, b) => a.cpuUs - b.cpuUs)[Math.floor(runs.length / 2)]!;

async function probes(gate: RoundHostGate): Promise<Run> {
  const before = { ...counts };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await pool(
    Array.from({ length: PROBES }, (_, i) => `h${i % HOSTS}.example:443`),
    CONCURRENCY,
    async (host) => {
      for (let r = 0; r < REQUESTS; r++) {
        const release = await gate.acquire(host);
        await tick();
        release();
      }
    },
  );
  gate.settle();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: cpu.user + cpu.system, wallMs, reads: counts.reads - before.reads, writes: counts.writes - before.writes };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-host-gate-"));
  const dbs: Db[] = [];
  const open = (name: string) => {
    const db = openDb(path.join(dir, name));
    dbs.push(db);
    return db;
  };
  try {
    console.log(
      `[bench:host-gate] ${os.cpus().length} cores, node ${process.version}: ${fmt.n(PROBES)} probes × ${REQUESTS} requests, ${CONCURRENCY} at once, ${HOSTS} hosts, one request in flight per host`,
    );
    const limitOf = () => 1;
    // A warm-up so the modules and statements are ready before anything is measured.
    await probes(createHostGate({ limitOf }));
    await probes(createHostGate({ db: open("warm.db"), limitOf }));
    // The two cheap modes take turns three times and each keeps its median, so neither gains from running later.
    const floors: Run[] = [];
    const alones: Run[] = [];
    for (let i = 0; i < 3; i++) {
      floors.push(await probes(createHostGate({ limitOf })));
      alones.push(await probes(createHostGate({ db: open(`alone-${i}.db`), limitOf })));
    }
    const floor = median(floors);
    const alone = median(alones);
    const sharedFile = path.join(dir, "shared.db");
    const sharedDb = open("shared.db");
    const other = forkTs(new URL(import.meta.url).pathname, "other", { BENCH_SHARED_DB: sharedFile });
    await nextMessage(other, "ready", 60_000);
    // The child is alone on the gate (in memory) until this process asks: its first slot waits for the hand-over.
    const sharedGate = createHostGate({ db: sharedDb, limitOf });
    const asked = performance.now();
    (await sharedGate.acquire("handover.example:443"))();
    const handOverMs = performance.now() - asked;
    const shared = await probes(sharedGate);
    other.send("stop");
    const otherDone = await nextMessage<{ type: "done"; requests: number }>(other, "done", 120_000);
    await stopChild(other);
    const n = PROBES * REQUESTS;
    const rows = [
      ["no database (the gate's own bookkeeping)", floor],
      ["database, this process alone", alone],
      ["database, another process on it", shared],
    ] as const;
    console.log(
      `[bench:host-gate] the other process sent ${fmt.n(otherDone.requests)} requests to the same hosts meanwhile; this process's first slot came ${handOverMs.toFixed(0)} ms after it asked (the other's hand-over)`,
    );
    printTable(
      `bench:host-gate: ${fmt.n(n)} requests per mode`,
      ["mode", "wall", "CPU µs/request", "vs no database", "statements/request", "of them writes"],
      rows.map(([label, m]) => [
        label,
        fmt.s(m.wallMs),
        (m.cpuUs / n).toFixed(2),
        `${(m.cpuUs / floor.cpuUs).toFixed(2)}x`,
        ((m.reads + m.writes) / n).toFixed(3),
        (m.writes / n).toFixed(3),
      ]),
    );
    console.log(
      JSON.stringify({
        bench: "host-gate",
        requests: n,
        handOverMs: Math.round(handOverMs),
        modes: Object.fromEntries(
          rows.map(([label, m]) => [
            label,
            {
              cpuUsPerRequest: Number((m.cpuUs / n).toFixed(3)),
              statementsPerRequest: Number(((m.reads + m.writes) / n).toFixed(4)),
              writesPerRequest: Number((m.writes / n).toFixed(4)),
              wallMs: Math.round(m.wallMs),
            },
          ]),
        ),
      }),
    );
  } finally {
    for (const db of dbs) closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The other process of the shared mode: the same probes on the same hosts and database, until told to stop. */
async function other(file: string): Promise<void> {
  const db = openDb(file);
  const gate = createHostGate({ db, limitOf: () => 1 });
  let stop = false;
  let requests = 0;
  process.on("message", (m) => void (m === "stop" && (stop = true)));
  // On the gate before the parent asks, so the parent arrives while this process keeps its slots in memory.
  (await gate.acquire("handover.example:443"))();
  process.send!({ type: "ready" });
  await pool(
    Array.from({ length: CONCURRENCY }, (_, i) => i),
    CONCURRENCY,
    async (w) => {
      for (let i = w; !stop; i += CONCURRENCY) {
        for (let r = 0; r < REQUESTS; r++) {
          const release = await gate.acquire(`h${i % HOSTS}.example:443`);
          await tick();
          release();
          requests++;
        }
      }
    },
  );
  gate.settle();
  closeDb(db);
  process.send!({ type: "done", requests });
}

if (process.env.BENCH_ROLE === "other") {
  other(process.env.BENCH_SHARED_DB!).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
} else
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
