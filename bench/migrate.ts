// npm run bench:migrate: what an upgrade and a backup cost on a production-sized database (architecture.md §9).
// It takes bench:storage's database (30,000 servers, 30 days of rounds; built here unless BENCH_MIGRATE_DB names a kept
// one), rebuilds the same data at an earlier migration level (the schema without the last BENCH_MIGRATE_BACK
// migrations, default 1, with every row of the tables and columns that schema has), and times the site's own opener
// upgrading it; then times npm run backup's copy and npm run restore's checks on it.
//
// Knobs: BENCH_MIGRATE_DB (a database kept by BENCH_KEEP_DB=1 npm run bench:storage), BENCH_MIGRATE_SERVERS (30000, for
// the database built here), BENCH_MIGRATE_SCALE (1: bench:storage simulates SERVERS / SCALE servers and each of them is
// copied SCALE times over, history and all, under new ids and names; 30 days of 30,000 servers take bench:storage
// hours, a thirtieth of them minutes), BENCH_MIGRATE_BACK (1), BENCH_KEEP_DB=1.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { backupDatabase, inspectDatabase, restoreDatabase } from "@/db/backup";
import { closeDb, MIGRATIONS_FOLDER, openDb } from "@/db/client";
import { fmt, printTable } from "./common";

const BACK = Number(process.env.BENCH_MIGRATE_BACK ?? 1);
const SERVERS = Number(process.env.BENCH_MIGRATE_SERVERS ?? 30_000);
const SCALE = Math.max(1, Math.floor(Number(process.env.BENCH_MIGRATE_SCALE ?? 1)));

interface JournalEntry {
  tag: string;
}

function journal(folder: string): { entries: JournalEntry[] } {
  return JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: JournalEntry[] };
}

/** bench:storage's database, built now and kept in `tmp`. */
function buildStorageDb(): Promise<string> {
  const simulated = Math.ceil(SERVERS / SCALE);
  console.log(`[bench:migrate] building bench:storage's database: ${fmt.n(simulated)} servers x 30 days (npm run bench:storage)`);
  const child = spawn(process.execPath, ["--import", "tsx", "bench/storage.ts"], {
    env: { ...process.env, BENCH_STORAGE_SERVERS: String(simulated), BENCH_STORAGE_DAYS: "30", BENCH_KEEP_DB: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    process.stdout.write(d);
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      const kept = /database kept at (\S+)/.exec(out)?.[1];
      if (code === 0 && kept) resolve(kept);
      else reject(new Error(`bench:storage exited ${code} without keeping its database`));
    }),
  );
}

/**
 * Copies every server of `file` `times - 1` more times with its whole history: `servers` (a name of its own per copy)
 * and every table with a `server_id`, under ids shifted past the table's largest; `*run_id` and `*snapshot_id`
 * columns follow the runs and tool snapshots they name. Rounds, hosts and days are shared, as in one registry.
 */
function scaleUp(file: string, times: number): void {
  const db = new Database(file);
  db.pragma("foreign_keys = OFF");
  const tables = (
    db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[]
  ).map((r) => r.name);
  const columns = (t: string) => db.prepare("select name, pk from pragma_table_info(?)").all(t) as { name: string; pk: number }[];
  const perServer = tables.filter((t) => t === "servers" || columns(t).some((c) => c.name === "server_id"));
  const maxId = (t: string) =>
    columns(t).some((c) => c.name === "id" && c.pk)
      ? (db.prepare(`select coalesce(max(id), 0) as m from "${t}"`).get() as { m: number }).m
      : 0;
  const span = new Map(perServer.map((t) => [t, maxId(t)]));
  const shifted = (table: string, column: string): string | undefined => {
    if (column === "id") return table;
    if (column === "server_id") return "servers";
    if (/(^|_)run_id$/.test(column)) return "runs";
    if (/(^|_)snapshot_id$/.test(column)) return "tool_snapshots";
    return undefined;
  };
  for (let k = 1; k < times; k++) {
    db.transaction(() => {
      for (const t of perServer) {
        const cols = columns(t).map((c) => c.name);
        const values = cols.map((c) => {
          const by = shifted(t, c);
          if (t === "servers" && c === "name") return `"name" || '-copy${k}'`;
          return by && span.get(by) ? `"${c}" + ${k * span.get(by)!}` : `"${c}"`;
        });
        // The originals are the rows of the first span of server ids; every copy is shifted past it.
        const own = t === "servers" ? "id" : "server_id";
        db.exec(
          `insert into "${t}" (${cols.map((c) => `"${c}"`).join(", ")}) select ${values.join(", ")} from "${t}" where "${own}" <= ${span.get("servers")}`,
        );
      }
    })();
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** The committed migrations without the last `back` of them, in a folder of their own. */
function earlierMigrations(tmp: string, back: number): { folder: string; dropped: string[] } {
  const folder = path.join(tmp, "migrations-earlier");
  fs.cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const j = journal(folder);
  const dropped = j.entries.slice(-back).map((e) => e.tag);
  j.entries = j.entries.slice(0, -back);
  fs.writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(j));
  return { folder, dropped };
}

/** Writes `source`'s rows into a new database at the earlier schema: every table and column that schema has. */
function atEarlierLevel(source: string, dest: string, migrationsFolder: string): void {
  closeDb(openDb(dest, { migrationsFolder }));
  const db = new Database(dest);
  db.pragma("foreign_keys = OFF");
  db.prepare("attach database ? as src").run(source);
  const names = (schema: string) =>
    (db.prepare(`select name from ${schema}.sqlite_master where type = 'table' and name not like 'sqlite_%'`).all() as { name: string }[])
      .map((r) => r.name)
      .filter((n) => n !== "__drizzle_migrations");
  const have = new Set(names("src"));
  const columns = (schema: string, table: string) =>
    (db.prepare(`select name from pragma_table_info(?, ?)`).all(table, schema) as { name: string }[]).map((r) => r.name);
  db.transaction(() => {
    for (const table of names("main")) {
      if (!have.has(table)) continue;
      const theirs = new Set(columns("src", table));
      const cols = columns("main", table)
        .filter((c) => theirs.has(c))
        .map((c) => `"${c}"`)
        .join(", ");
      db.exec(`insert into main."${table}" (${cols}) select ${cols} from src."${table}"`);
    }
  })();
  db.exec("detach database src");
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

const wall = (ms: number) => (ms < 1000 ? fmt.ms(ms) : fmt.s(ms));
const time = async <T>(fn: () => T | Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-migrate-"));
  const given = process.env.BENCH_MIGRATE_DB;
  const storage = given ?? (await buildStorageDb());
  if (!given && SCALE > 1) {
    const [, scaleMs] = await time(() => scaleUp(storage, SCALE));
    console.log(`[bench:migrate] each server copied ${SCALE} times over with its history in ${fmt.s(scaleMs)}`);
  }
  const current = path.join(tmp, "current.db");
  fs.copyFileSync(storage, current);
  const known = journal(MIGRATIONS_FOLDER).entries;
  const { folder, dropped } = earlierMigrations(tmp, BACK);

  const earlier = path.join(tmp, "earlier.db");
  const [, buildMs] = await time(() => atEarlierLevel(current, earlier, folder));
  const rows = (file: string, table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  console.log(
    `[bench:migrate] ${storage}: ${fmt.mb(fs.statSync(current).size)}, ${fmt.n(rows(current, "servers"))} servers, ` +
      `${fmt.n(rows(current, "runs"))} runs; rebuilt at migration ${known.length - BACK} of ${known.length} in ${fmt.s(buildMs)}`,
  );

  const [, upgradeMs] = await time(() => closeDb(openDb(earlier)));
  const [, openMs] = await time(() => closeDb(openDb(current)));
  // The reference, same run, same disk: a plain copy of the file (what `cp` costs; not a safe backup of a live file).
  const plain = path.join(tmp, "plain-copy.db");
  const [, copyMs] = await time(() => fs.copyFileSync(current, plain));
  fs.rmSync(plain);
  const backupFile = path.join(tmp, "backup.db");
  const [backup, backupMs] = await time(() => backupDatabase({ source: current, dest: backupFile }));
  const [, inspectMs] = await time(() => inspectDatabase(backupFile));
  const restored = path.join(tmp, "restored", "status.db");
  const [, restoreMs] = await time(() =>
    restoreDatabase({ file: backupFile, target: restored, now: new Date(), prepare: (copy) => closeDb(openDb(copy)) }),
  );
  if (rows(restored, "runs") !== rows(current, "runs")) throw new Error("the restored database does not hold the runs of the backup");

  const x = (ms: number) => `${(ms / copyMs).toFixed(2)}x`;
  printTable(
    `bench:migrate: ${fmt.n(rows(current, "servers"))} servers, ${fmt.mb(fs.statSync(current).size)} (Node ${process.version})`,
    ["step", "wall time", "vs a plain copy of the file"],
    [
      [`upgrade on open: ${dropped.join(", ")} (migration ${known.length - BACK} -> ${known.length})`, wall(upgradeMs), x(upgradeMs)],
      ["open at the current level (nothing to apply)", wall(openMs), x(openMs)],
      ["reference: a plain copy of the file (fs.copyFileSync)", wall(copyMs), "1.00x"],
      [`npm run backup's copy and integrity check (${fmt.mb(backup.facts.bytes)})`, wall(backupMs), x(backupMs)],
      ["npm run restore's checks alone (integrity_check)", wall(inspectMs), x(inspectMs)],
      ["npm run restore: checks, copy, open, move into place", wall(restoreMs), x(restoreMs)],
    ],
  );

  if (process.env.BENCH_KEEP_DB === "1") console.log(`[bench:migrate] databases kept in ${tmp}`);
  else {
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!given) fs.rmSync(path.dirname(storage), { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`[bench:migrate] ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
