import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { assertNativeBuild } from "./native-build";
import * as schema from "./schema";
import { watchWrites, type WriteWatch } from "./write-watch";

/** The one database type: drizzle over better-sqlite3 with this schema, and what its writes report (write-watch.ts). */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database; $writes: WriteWatch };

/** Runs `fn` in one SQLite transaction (BEGIN IMMEDIATE): every query on `db` inside it is part of it. */
export function transaction<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate();
}

/** Where the committed migrations live; resolved from the working directory so standalone builds find them. */
export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

/** Opens (creating if needed) the database file, applies pending migrations, and returns a drizzle handle. */
export function openDb(file: string, opts: { migrationsFolder?: string } = {}): Db {
  assertNativeBuild();
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  const writes = watchWrites(sqlite);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  // WAL makes NORMAL durable across process crashes (a kill -9 loses nothing committed).
  sqlite.pragma("synchronous = NORMAL");
  // Every server's run writes inside a savepoint (persist-batch.ts), whose copies of the pages it changes spill past 64 KiB to
  // a temporary file: one created, written and deleted in /var/tmp per server (a round's second-largest write after the WAL).
  sqlite.pragma("temp_store = MEMORY");
  const db = Object.assign(drizzle(sqlite, { schema }), { $writes: writes });
  // Migrations zero what they drop (an old index's pages held addresses); then FAST zeroes the bytes a write frees or moves
  // within the pages it writes anyway, so a subscriber's address leaves no stale copy when a page splits (architecture.md §10).
  sqlite.pragma("secure_delete = ON");
  migrate(db, { migrationsFolder: opts.migrationsFolder ?? MIGRATIONS_FOLDER });
  sqlite.pragma("secure_delete = FAST");
  return db;
}

// Kept on globalThis: Next bundles instrumentation and route handlers separately, and module state is
// not shared between bundles, but the process must still hold one connection per file.
const OPEN_KEY = Symbol.for("mcp-status.db.open");
const shared = globalThis as { [OPEN_KEY]?: Map<string, Db> };
const open = (shared[OPEN_KEY] ??= new Map<string, Db>());

/** One connection per process and file. */
export function getDb(config: { databasePath: string }): Db {
  let db = open.get(config.databasePath);
  if (!db) {
    db = openDb(config.databasePath);
    open.set(config.databasePath, db);
  }
  return db;
}

export function closeDb(db: Db): void {
  for (const [k, v] of open) if (v === db) open.delete(k);
  db.$client.close();
}
