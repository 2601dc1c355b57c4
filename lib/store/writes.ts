import fs from "node:fs";
import path from "node:path";
import type { Db } from "../../db/client";
import { DatabaseUnwritable } from "../../db/write-watch";
import { META_KEYS, setMeta } from "./meta";

// architecture.md §6, database_unwritable: the write that proves the database takes writes again. A small write
// alone proves little: after a failed one it may fit in the write-ahead log's leftover space while the next round's
// batch would fail again. So the log is checkpointed into the database and truncated (a failure here is the same
// full disk), room for a round's worth of writes must exist beside the database file, and then one row is written.

/** Room asked for beside the database: the write-ahead log grows to about 4 MB before a checkpoint moves it into
 * the database file, which may grow by as much. */
export const WRITE_ROOM_BYTES = 8 * 1024 * 1024;
/** Checks asked for more often than this (every POST /api/rounds while the alert is open) reuse the last answer. */
export const WRITE_CHECK_MIN_MS = 5_000;

export type WriteCheck = { writable: true } | { writable: false; why: string };

/** While database_unwritable is open, tries the proving write (at most every WRITE_CHECK_MIN_MS) and resolves the
 * alert when it succeeds. Writable at once while no alert is open. */
export function checkWrites(db: Db, now: Date = new Date()): WriteCheck {
  if (!db.$writes.unwritable) measureRoom(db);
  const open = db.$writes.unwritable;
  if (!open) return { writable: true };
  const last = open.lastCheck;
  if (last && now.getTime() - Date.parse(last.at) < WRITE_CHECK_MIN_MS) return { writable: false, why: last.why };
  const answer = proveWritable(db, now);
  if (!answer.writable) open.lastCheck = { at: now.toISOString(), why: answer.why };
  return answer;
}

/** Free bytes on the volume that holds `file` (what an unprivileged writer may use), or null when it cannot be told. */
export function freeBytesBeside(file: string): number | null {
  try {
    const volume = fs.statfsSync(path.dirname(file));
    return volume.bavail * volume.bsize;
  } catch {
    return null;
  }
}

/** Why the database's volume has too little room for a round's writes, or null. */
function lowOnRoom(db: Db): string | null {
  if (db.$client.memory) return null;
  const free = freeBytesBeside(db.$client.name);
  if (free === null || free >= WRITE_ROOM_BYTES) return null;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${mib(free)} free on the database's volume, under the ${mib(WRITE_ROOM_BYTES)} a round's writes may need`;
}

/** A full volume can go on taking small writes for a long while, into space the write-ahead log already holds, and fail
 * only when a round's batch outgrows it. Measured instead (one statfs), too little room opens database_unwritable now,
 * with the same margin the proving write asks for before it resolves. */
function measureRoom(db: Db): void {
  const why = lowOnRoom(db);
  if (why) db.$writes.noRoom(why);
}

/** Throws DatabaseUnwritable while the alert stays open after checkWrites: for work that would write. */
export function assertWritable(db: Db, now: Date = new Date()): void {
  checkWrites(db, now);
  const open = db.$writes.unwritable;
  if (open) throw new DatabaseUnwritable(open);
}

function proveWritable(db: Db, now: Date): WriteCheck {
  try {
    const [checkpoint] = db.$client.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
    if (checkpoint?.busy) return { writable: false, why: "a reader kept the write-ahead log from being checkpointed" };
    if (!db.$client.memory) {
      const room = lowOnRoom(db) ?? roomBeside(db.$client.name, WRITE_ROOM_BYTES);
      if (room) return { writable: false, why: room };
    }
    setMeta(db, META_KEYS.writesCheckedAt, now.toISOString());
  } catch (e) {
    // The watched connection has already counted a failure with SQLite's codes; anything else is said as it is.
    return { writable: false, why: (e as Error).message };
  }
  db.$writes.recovered(now);
  return { writable: true };
}

/** null when `bytes` could be written (and synced) in a file beside `file`, else why not. The file is removed. */
function roomBeside(file: string, bytes: number): string | null {
  const probe = `${file}.room-check`;
  const chunk = Buffer.alloc(1024 * 1024);
  let fd: number | undefined;
  try {
    fd = fs.openSync(probe, "w");
    for (let written = 0; written < bytes; written += chunk.length) fs.writeSync(fd, chunk, 0, Math.min(chunk.length, bytes - written));
    fs.fsyncSync(fd);
    return null;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return `no room for ${Math.round(bytes / 1024 / 1024)} MiB beside the database (${err.code ?? err.message})`;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(probe, { force: true });
  }
}
