// architecture.md §6, database_unwritable: what a round does once the database stops taking writes, whoever's write
// failed (the connection's watch, db/write-watch.ts, holds the alert). It starts no more probes; the results it could
// not write are counted and their servers stay due, since nothing about them was written; then it waits, trying the
// write that proves the database writable (lib/store/writes.ts), until it can record its end as failed with that count,
// or until the next round has taken its lock over (its heartbeat could not be written either, so the lock went stale).
import type { Db } from "../../db/client";
import { unwritableCode, type UnwritableAlert } from "../../db/write-watch";
import { counted, WORDS } from "../site/plural";
import { getRound } from "../store/rounds";
import { checkWrites } from "../store/writes";

/** How often a stopped round tries again to record its end; the proving write itself runs at most every
 * WRITE_CHECK_MIN_MS, whoever asks. */
export const STOPPED_ROUND_POLL_MS = 1_000;

export interface WriteStop {
  /** SQLite's code and words for the failure this round met; null while it met none. */
  readonly cause: { code: string; error: string } | null;
  /** Results the round had and could not write. */
  readonly notRecorded: number;
  /** true when the round must start nothing more: an alert is open, or `e` (if given) is a failed write. Remembers
   * the first cause it saw. */
  met(e?: unknown): boolean;
  /** One server's result could not be written (`e` was a failed write): counted, and true. false for any other error. */
  unrecorded(e: unknown): boolean;
  /** A result the stopped round does not write (its probe ended after the stop): counted like one that failed. */
  dropped(): void;
  /** The sentence a round stopped by the database ends with (its `error`). */
  error(stage?: string): string;
}

export function createWriteStop(db: Db): WriteStop {
  let cause: { code: string; error: string } | null = null;
  let notRecorded = 0;
  const remember = (a: Pick<UnwritableAlert, "code" | "error">) => (cause ??= { code: a.code, error: a.error });
  const stop: WriteStop = {
    get cause() {
      return cause;
    },
    get notRecorded() {
      return notRecorded;
    },
    met(e) {
      const code = e === undefined ? null : unwritableCode(e);
      if (code) remember({ code, error: (e as Error).message });
      const open = db.$writes.unwritable;
      if (open) remember(open);
      return cause !== null;
    },
    unrecorded(e) {
      if (!unwritableCode(e)) return false;
      stop.met(e);
      notRecorded++;
      return true;
    },
    dropped() {
      notRecorded++;
    },
    error(stage) {
      const c = cause ?? db.$writes.unwritable ?? { code: "unknown", error: "no failed write was seen" };
      const lost = `${counted(notRecorded, WORDS.result)} not recorded, ${notRecorded > 0 ? "their servers stay due" : "the servers it did not probe stay due"}`;
      return `the database could not be written (${c.code}: ${c.error}): ${lost}${stage ? `; ${stage}` : ""}`;
    },
  };
  return stop;
}

/**
 * Waits until the database takes writes again (true), trying the proving write every poll, or until the round's row
 * says it is no longer running (false: the next round took the lock over and marked it abandoned). Reads still work
 * on a full disk, so the round's row can be read while nothing can be written.
 */
export async function untilWritable(db: Db, options: { roundId: number; now: () => Date; pollMs?: number }): Promise<boolean> {
  for (;;) {
    // A closed connection (the process is stopping) records nothing more.
    if (!db.$client.open) return false;
    if (checkWrites(db, options.now()).writable) return true;
    if (getRound(db, options.roundId)?.status !== "running") return false;
    await new Promise((r) => setTimeout(r, options.pollMs ?? STOPPED_ROUND_POLL_MS));
  }
}
