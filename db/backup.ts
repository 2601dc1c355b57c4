// Backups and restores of the SQLite file (architecture.md §9): an online copy through SQLite's backup API, the checks
// a copy must pass, and the move into place. Every file is written under a temporary name and renamed last, so a
// process killed half-way leaves at most a file whose name says it is partial, never one that looks complete.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { MIGRATIONS_FOLDER } from "./client";
import { assertNativeBuild } from "./native-build";

/** Why a backup or a restore stopped: `path` and `usage` are the caller's to fix (exit 2); `refused` is a file that fails
 * the checks, `in_use` a database another process has open, `failed` a copy that broke off (exit 1). */
export type DbFileProblem = "usage" | "path" | "refused" | "in_use" | "failed";

export class DbFileError extends Error {
  constructor(
    readonly problem: DbFileProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Tables every mcp-status database has had since its first migration, beside drizzle's own. */
const CORE_TABLES = ["servers", "runs", "check_results", "rounds"] as const;
const MIGRATIONS_TABLE = "__drizzle_migrations";
const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
/** Pages copied per step of the backup API (4 MiB at SQLite's default page size). */
const PAGES_PER_STEP = 1024;

export interface SchemaLevel {
  /** Migrations of this version the file has. */
  applied: number;
  /** Migrations this version ships (db/migrations). */
  known: number;
}

export interface DbFacts {
  level: SchemaLevel;
  servers: number;
  runs: number;
  /** The latest run's start (ISO), or null when the file holds no run. */
  latestRunAt: string | null;
  bytes: number;
}

export interface Progress {
  copiedBytes: number;
  totalBytes: number;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The error text of a failed file operation, without Node's stack or syscall prefix. */
function osReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const byCode: Record<string, string> = {
    ENOENT: "the folder does not exist",
    ENOTDIR: "a part of the path is not a folder",
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "the file system is read-only",
    ENOSPC: "no space left on the device",
    EISDIR: "it is a folder",
    EEXIST: "a file of that name is in the way",
  };
  return (err.code && byCode[err.code]) ?? err.message;
}

/** The file's migration level against the migrations this version ships; refuses a newer or unknown schema. */
export function schemaLevel(sqlite: Database.Database, file: string, migrationsFolder = MIGRATIONS_FOLDER): SchemaLevel {
  const known = readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis);
  const rows = sqlite.prepare(`select created_at as at from ${MIGRATIONS_TABLE} order by created_at`).all() as { at: number | string }[];
  const applied = rows.map((r) => Number(r.at));
  const latest = applied.at(-1);
  if (latest === undefined) return { applied: 0, known: known.length };
  const newest = known.at(-1) ?? 0;
  if (latest > newest) {
    const ahead = applied.filter((at) => at > newest).length;
    throw new DbFileError(
      "refused",
      `${file} is from a newer mcp-status: its schema has ${ahead} migration(s) this version does not know (the latest made ` +
        `${dateOf(latest)}); upgrade mcp-status to the version that wrote it before restoring it`,
    );
  }
  const index = known.indexOf(latest);
  if (index < 0) {
    throw new DbFileError(
      "refused",
      `${file} has a migration this version does not ship (made ${dateOf(latest)}): it was written by another build of ` +
        `mcp-status; restore it with that build`,
    );
  }
  return { applied: index + 1, known: known.length };
}

/** Opens `file` read-only after checking it is an SQLite file at all; the caller closes it. */
function openForReading(file: string): Database.Database {
  let head: Buffer;
  try {
    const fd = fs.openSync(file, "r");
    try {
      head = Buffer.alloc(SQLITE_MAGIC.length);
      fs.readSync(fd, head, 0, head.length, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    throw new DbFileError("path", `cannot read ${file}: ${osReason(e)}`);
  }
  if (!head.equals(SQLITE_MAGIC)) throw new DbFileError("refused", `${file} is not an SQLite database, so not an mcp-status one`);
  try {
    const sqlite = new Database(file, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    return sqlite;
  } catch (e) {
    throw new DbFileError("refused", `${file} cannot be opened as an SQLite database: ${(e as Error).message}`);
  }
}

/** Refuses a file that lacks the tables every mcp-status database has, or whose schema this version cannot serve. */
function mcpStatusLevel(sqlite: Database.Database, file: string, migrationsFolder?: string): SchemaLevel {
  const tables = new Set(
    (sqlite.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  const missing = [MIGRATIONS_TABLE, ...CORE_TABLES].filter((t) => !tables.has(t));
  if (missing.length) {
    throw new DbFileError("refused", `${file} is an SQLite database but not an mcp-status one: it has no ${missing.join(", ")} table`);
  }
  return schemaLevel(sqlite, file, migrationsFolder);
}

function integrity(sqlite: Database.Database, file: string): void {
  let rows: { integrity_check: string }[];
  try {
    rows = sqlite.pragma("integrity_check") as { integrity_check: string }[];
  } catch (e) {
    throw new DbFileError("refused", `${file} fails PRAGMA integrity_check: ${(e as Error).message}`);
  }
  if (rows.length !== 1 || rows[0]!.integrity_check !== "ok") {
    const first = rows
      .slice(0, 3)
      .map((r) => r.integrity_check)
      .join("; ");
    throw new DbFileError("refused", `${file} fails PRAGMA integrity_check: ${first}`);
  }
}

function factsOf(sqlite: Database.Database, level: SchemaLevel, file: string): DbFacts {
  const n = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
  const latest = sqlite.prepare("select max(started_at) as at from runs").get() as { at: string | null };
  return {
    level,
    servers: n("select count(*) as n from servers"),
    runs: n("select count(*) as n from runs"),
    latestRunAt: latest.at,
    bytes: fs.statSync(file).size,
  };
}

/** Checks a file as a restore would: an SQLite file, an mcp-status schema this version can serve, PRAGMA integrity_check. */
export function inspectDatabase(file: string, o: { migrationsFolder?: string } = {}): DbFacts {
  const sqlite = openForReading(file);
  try {
    const level = mcpStatusLevel(sqlite, file, o.migrationsFolder);
    integrity(sqlite, file);
    return factsOf(sqlite, level, file);
  } finally {
    sqlite.close();
  }
}

/** Removes what a killed copy to `target` left: `<target>.<tag>-<pid>` (and its journal) of processes that are gone. */
function removeStaleTemps(target: string, tag: string): string[] {
  const dir = path.dirname(target);
  const re = new RegExp(`^${path.basename(target).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.${tag}-(\\d+)(-journal|-wal|-shm)?$`);
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = re.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A temporary file beside `target`, created empty now so a path that cannot be written fails before any copying. */
function createTemp(target: string, tag: string): string {
  const temp = `${target}.${tag}-${process.pid}`;
  try {
    fs.closeSync(fs.openSync(temp, "w"));
  } catch (e) {
    throw new DbFileError("path", `cannot write ${path.dirname(target)}: ${osReason(e)}`);
  }
  return temp;
}

function removeTemp(temp: string): void {
  for (const f of [temp, `${temp}-journal`, `${temp}-wal`, `${temp}-shm`]) fs.rmSync(f, { force: true });
}

function fsyncPath(p: string): void {
  const fd = fs.openSync(p, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Blocks this thread (a command's own process) for `ms` without spinning. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Copies `source` into `dest` through the backup API, inside one read transaction on the source: the copy is the
 * database as it stood when the copy began (every run committed before it), and writers go on meanwhile (WAL). */
async function copyDatabase(
  source: Database.Database,
  dest: string,
  o: { limitBytesPerSecond?: number; onProgress?: (p: Progress) => void; signal?: AbortSignal },
): Promise<void> {
  const pageSize = source.pragma("page_size", { simple: true }) as number;
  // Under a rate limit, steps of about a tenth of a second, so a signal to stop is seen soon.
  const pages = o.limitBytesPerSecond
    ? Math.max(16, Math.min(PAGES_PER_STEP, Math.floor((o.limitBytesPerSecond * 0.1) / pageSize)))
    : PAGES_PER_STEP;
  source.exec("BEGIN");
  try {
    source.prepare("select count(*) from sqlite_master").get();
    const started = performance.now();
    await source.backup(dest, {
      progress: ({ totalPages, remainingPages }) => {
        o.signal?.throwIfAborted();
        const copied = (totalPages - remainingPages) * pageSize;
        o.onProgress?.({ copiedBytes: copied, totalBytes: totalPages * pageSize });
        if (o.limitBytesPerSecond) {
          const ahead = started + (copied / o.limitBytesPerSecond) * 1000 - performance.now();
          if (ahead > 0) pause(ahead);
        }
        return pages;
      },
    });
  } finally {
    source.exec("COMMIT");
  }
}

export interface BackupResult {
  dest: string;
  facts: DbFacts;
  ms: number;
  removedStale: string[];
}

/** `npm run backup`: an online copy of `source` (the live database) into `dest`, checked, then renamed into place. */
export async function backupDatabase(o: {
  source: string;
  dest: string;
  limitBytesPerSecond?: number;
  onProgress?: (p: Progress) => void;
  /** Stops the copy between two steps (a signal to the command); the partial file is removed. */
  signal?: AbortSignal;
  migrationsFolder?: string;
}): Promise<BackupResult> {
  assertNativeBuild();
  const started = performance.now();
  const source = path.resolve(o.source);
  const dest = path.resolve(o.dest);
  if (!fs.existsSync(source)) throw new DbFileError("path", `the database ${source} (DATABASE_PATH) does not exist`);
  if (fs.existsSync(dest) && fs.statSync(dest).isDirectory()) throw new DbFileError("usage", `${dest} is a folder: name the backup file`);
  if (sameFile(source, dest) || [`${source}-wal`, `${source}-shm`, `${source}-journal`].includes(dest)) {
    throw new DbFileError("usage", `${dest} is the live database itself: name another file`);
  }
  const removedStale = removeStaleTemps(dest, "partial");
  const live = openForReading(source);
  let temp: string | undefined;
  try {
    mcpStatusLevel(live, source, o.migrationsFolder);
    temp = createTemp(dest, "partial");
    try {
      await copyDatabase(live, temp, o);
    } catch (e) {
      if (o.signal?.aborted) throw new DbFileError("failed", `stopped (${String(o.signal.reason)}); the partial copy was removed`);
      throw new DbFileError("failed", `the copy to ${temp} broke off: ${(e as Error).message}`);
    }
    const facts = settle(temp, dest, { check: true, migrationsFolder: o.migrationsFolder });
    temp = undefined;
    return { dest, facts, ms: performance.now() - started, removedStale };
  } finally {
    live.close();
    if (temp) removeTemp(temp);
  }
}

/** Makes a finished copy self-contained (rollback journal, no -wal beside it), checks it, and renames it to `target`. */
function settle(temp: string, target: string, o: { check: boolean; migrationsFolder?: string }): DbFacts {
  const copy = new Database(temp, { fileMustExist: true });
  let facts: DbFacts;
  try {
    copy.pragma("journal_mode = DELETE");
    const level = mcpStatusLevel(copy, target, o.migrationsFolder);
    if (o.check) integrity(copy, target);
    facts = factsOf(copy, level, temp);
  } finally {
    copy.close();
  }
  fsyncPath(temp);
  fs.renameSync(temp, target);
  fsyncPath(path.dirname(target));
  return facts;
}

function sameFile(a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

/** A connection holding SQLite's exclusive lock on `file`, or null when another connection has it open. Every
 * connection in WAL mode keeps a shared lock on the file for as long as it is open, idle or not, and the operating
 * system drops it when its process ends however it ends; so this sees the site between rounds and ignores a crashed one. */
export function lockExclusive(file: string): Database.Database | null {
  const sqlite = new Database(file, { fileMustExist: true });
  try {
    sqlite.pragma("busy_timeout = 0");
    sqlite.pragma("locking_mode = EXCLUSIVE");
    sqlite.exec("BEGIN EXCLUSIVE");
    sqlite.exec("ROLLBACK");
    return sqlite;
  } catch (e) {
    sqlite.close();
    if ((e as { code?: string }).code === "SQLITE_BUSY") return null;
    throw e;
  }
}

export interface RestoreResult {
  target: string;
  facts: DbFacts;
  /** The database the restore replaced, kept under this name; null when there was none. */
  previous: string | null;
  /** Migrations the copy had before `prepare` upgraded it. */
  levelBefore: SchemaLevel;
  ms: number;
}

/** `npm run restore`: checks `file`, copies it beside `target`, lets `prepare` open the copy (migrations, the lock of a
 * round that was running when it was taken), checks it again, and moves it into place; the database it replaces is
 * kept as `<target>.before-restore-<time>`. Refuses while any process has `target` open. */
export async function restoreDatabase(o: {
  file: string;
  target: string;
  prepare: (copy: string) => void;
  now: Date;
  migrationsFolder?: string;
}): Promise<RestoreResult> {
  assertNativeBuild();
  const started = performance.now();
  const file = path.resolve(o.file);
  const target = path.resolve(o.target);
  if (!fs.existsSync(file)) throw new DbFileError("path", `${file} does not exist`);
  if (!fs.statSync(file).isFile()) throw new DbFileError("usage", `${file} is not a file`);
  if (sameFile(file, target)) throw new DbFileError("usage", `${file} is the database (DATABASE_PATH) itself`);

  const source = openForReading(file);
  let levelBefore: SchemaLevel;
  try {
    levelBefore = mcpStatusLevel(source, file, o.migrationsFolder);
  } catch (e) {
    source.close();
    throw e;
  }

  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
  } catch (e) {
    source.close();
    throw new DbFileError("path", `cannot make the folder ${path.dirname(target)}: ${osReason(e)}`);
  }
  removeStaleTemps(target, "restoring");
  // Held until the renames are done, so nothing opens the old file in between.
  let held: Database.Database | null = null;
  try {
    held = fs.existsSync(target) ? lockExclusive(target) : null;
  } catch (e) {
    source.close();
    throw new DbFileError(
      "refused",
      `${target} (DATABASE_PATH) cannot be opened as an SQLite database (${(e as Error).message}): move it away first`,
    );
  }
  if (fs.existsSync(target) && !held) {
    source.close();
    throw new DbFileError(
      "in_use",
      `${target} is open in another process (the site, a round or another command): stop it first; nothing was changed`,
    );
  }
  let temp: string | undefined;
  try {
    temp = createTemp(target, "restoring");
    try {
      await copyDatabase(source, temp, {});
    } catch (e) {
      throw new DbFileError("failed", `the copy to ${temp} broke off: ${(e as Error).message}`);
    } finally {
      source.close();
    }
    inspectCopy(temp, file, o.migrationsFolder);
    o.prepare(temp);
    // The site opens the file again as it starts (WAL); the copy goes in place without -wal or -shm beside it.
    let previous: string | null = null;
    if (held) {
      held.pragma("wal_checkpoint(TRUNCATE)");
      held.pragma("journal_mode = DELETE");
      previous = `${target}.before-restore-${o.now.toISOString().replace(/[:.]/g, "-")}`;
      fs.renameSync(target, previous);
    }
    for (const f of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) fs.rmSync(f, { force: true });
    const facts = settle(temp, target, { check: false, migrationsFolder: o.migrationsFolder });
    temp = undefined;
    return { target, facts, previous, levelBefore, ms: performance.now() - started };
  } finally {
    held?.close();
    if (temp) removeTemp(temp);
  }
}

/** The copy of a restore's file passes integrity_check before anything opens it for writing. */
function inspectCopy(temp: string, file: string, migrationsFolder?: string): void {
  const copy = new Database(temp, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    mcpStatusLevel(copy, file, migrationsFolder);
    integrity(copy, file);
  } finally {
    copy.close();
  }
}

export const describeBytes = mb;
