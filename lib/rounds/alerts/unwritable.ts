// database_unwritable (architecture.md §6): held in memory by the connection (db/write-watch.ts) while writes fail, told
// at once to /api/status, /coverage and /metrics, its opening POSTed to the webhook from memory, and written down
// with its whole story (opening, delivery, resolution) once a write has proved the database writable again.
import type { Db } from "../../../db/client";
import type { UnwritableAlert } from "../../../db/write-watch";
import { storeHeldAlert, type AlertRecord } from "../../store/alerts";
import { checkWrites, WRITE_ROOM_BYTES } from "../../store/writes";
import { counted, WORDS } from "../../site/plural";
import { utcDay } from "../coverage";

/** An open alert as the site lists it: a stored one, or the held one (no id until it is stored). */
export type OpenAlertView = Pick<AlertRecord, "kind" | "createdAt" | "day" | "message" | "value" | "baseline" | "subject"> & {
  id: number | null;
};

/** One sentence with the facts: the code, SQLite's words, how many writes failed since when. */
export function unwritableMessage(a: UnwritableAlert): string {
  const failed = counted(a.failures, WORDS.failedWrite);
  const checked = a.lastCheck ? `; the latest check: ${a.lastCheck.why}` : "";
  if (a.code === "ENOSPC" && a.failures === 1) return `The database's volume is nearly full since ${a.since}: ${a.error}${checked}.`;
  return `Writes to the database fail with ${a.code} (${a.error}): ${failed} since ${a.since}${checked}.`;
}

export function recoveredMessage(a: UnwritableAlert): string {
  const room = `${Math.round(WRITE_ROOM_BYTES / 1024 / 1024)} MiB`;
  return `Writes work again at ${a.resolvedAt}: the write-ahead log was checkpointed, ${room} fit beside the database and a row was written, after ${counted(a.failures, WORDS.failedWrite)}.`;
}

/** The held alert of this process, if writes are failing. */
export function heldAlert(db: Db): OpenAlertView | null {
  const a = db.$writes.unwritable;
  if (!a) return null;
  return {
    id: null,
    kind: "database_unwritable",
    createdAt: a.since,
    day: utcDay(new Date(a.since)),
    message: unwritableMessage(a),
    value: a.failures,
    baseline: null,
    subject: null,
  };
}

/** One pass of the alert clock: says an opening once, tries the proving write, stores alerts that resolved.
 * Returns true while the alert stays open (then nothing else the clock does could be written). */
export function tendUnwritable(db: Db, now: Date, options: { log: (line: string) => void; told: WeakSet<UnwritableAlert> }): boolean {
  // Measures the volume's room while writes still work: a nearly full one opens the alert now, not at a round's batch.
  if (!db.$writes.unwritable) checkWrites(db, now);
  const open = db.$writes.unwritable;
  if (open && !options.told.has(open)) {
    options.told.add(open);
    options.log(`[alerts] database_unwritable opened: ${unwritableMessage(open)}`);
  } else if (open) {
    const check = checkWrites(db, now);
    if (!check.writable) options.log(`[alerts] database_unwritable still open: ${check.why}`);
  }
  for (const a of [...db.$writes.unstored]) {
    try {
      storeHeldAlert(db, {
        kind: "database_unwritable",
        day: utcDay(new Date(a.since)),
        message: unwritableMessage(a),
        value: a.failures,
        createdAt: a.since,
        resolvedAt: a.resolvedAt ?? now.toISOString(),
        resolvedMessage: recoveredMessage(a),
        opening: a.opening,
      });
      db.$writes.stored(a);
      options.log(`[alerts] database_unwritable resolved: ${recoveredMessage(a)}`);
    } catch (e) {
      options.log(`[alerts] database_unwritable resolved but not stored yet: ${(e as Error).message}`);
      break;
    }
  }
  return db.$writes.unwritable !== null;
}
