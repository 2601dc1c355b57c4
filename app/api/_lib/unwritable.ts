import type { Db } from "@/db/client";
import { unwritableCode } from "@/db/write-watch";
import type { ApiShape } from "@/lib/api/schemas";
import { ALERT_CLOCK_MS } from "@/lib/rounds/alerts/clock";
import { checkWrites } from "@/lib/store/writes";

// architecture.md §6: while the database cannot be written, routes that would write answer 503 with a JSON error
// (never an empty 500), whether the alert was already open or this request's own write is the one that failed.

function answer(what: string): Response {
  const retry = ALERT_CLOCK_MS / 1000;
  const message = `The database cannot be written ${what}, so nothing was started. Free space on its volume or check the volume; writes are tried again every ${retry} s.`;
  return Response.json({ error: "database_unwritable", message } satisfies ApiShape<"DatabaseUnwritable">, {
    status: 503,
    headers: { "cache-control": "no-store", "retry-after": String(retry) },
  });
}

/** The 503 answer for an error with SQLite's FULL, IOERR or READONLY codes (or DatabaseUnwritable); null for any other. */
export function unwritableAnswer(db: Db, e: unknown): Response | null {
  const code = unwritableCode(e);
  if (!code) return null;
  const held = db.$writes.unwritable;
  return answer(held ? `since ${held.since} (${held.code}: ${held.error})` : `(${code}: ${(e as Error).message})`);
}

/** The 503 answer while the alert stays open after trying the proving write again; null once writes work. */
export function refuseWhileUnwritable(db: Db, now: Date = new Date()): Response | null {
  checkWrites(db, now);
  const held = db.$writes.unwritable;
  return held ? answer(`since ${held.since} (${held.code}: ${held.error})`) : null;
}
