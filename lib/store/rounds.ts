import { and, asc, desc, eq, gt, gte, isNull, lt, ne, or, sql } from "drizzle-orm";
import { transaction, type Db } from "../../db/client";
import { roundLock, rounds } from "../../db/schema";
import { countEvent, observeRoundDuration } from "./counters";
import { REPROBE_ROUND_TRIGGER } from "../vocabulary/store";

export type RoundRow = typeof rounds.$inferSelect;

export type LockResult = { acquired: true; roundId: number } | { acquired: false; roundId: number; holder: string; heartbeatAt: string };

/** The name a round's process holds the lock under: host and pid first, so the process that started it
 * (the front, for its renderer) can release it once it knows that process is gone. */
export const roundLockHolder = (host: string, pid: number, nonce: string) => `${host}:${pid}:${nonce}`;

/** Releases the lock if a process `host:pid` that is known to have ended holds it, marking its round
 * abandoned, so the next round need not wait for the heartbeat to go stale; returns the round's id. */
export function releaseRoundLockOf(db: Db, options: { host: string; pid: number; now: Date; reason: string }): number | null {
  return transaction(db, () => {
    const held = db.select().from(roundLock).where(eq(roundLock.id, 1)).get();
    if (!held || !held.holder.startsWith(roundLockHolder(options.host, options.pid, ""))) return null;
    db.update(rounds)
      .set({ status: "abandoned", finishedAt: options.now.toISOString(), error: options.reason })
      .where(and(eq(rounds.id, held.roundId), eq(rounds.status, "running")))
      .run();
    db.delete(roundLock)
      .where(and(eq(roundLock.id, 1), eq(roundLock.holder, held.holder)))
      .run();
    return held.roundId;
  });
}

/** A database restored from a backup: no process holds its rounds any more. Marks the rounds still running abandoned
 * (counted as such) and frees the lock, so the restored site's first round need not wait for a stale heartbeat. */
export function abandonRunningRounds(db: Db, options: { now: Date; reason: string }): number[] {
  return transaction(db, () => {
    const ids = db
      .update(rounds)
      .set({ status: "abandoned", finishedAt: options.now.toISOString(), error: options.reason })
      .where(eq(rounds.status, "running"))
      .returning({ id: rounds.id })
      .all()
      .map((r) => r.id);
    if (ids.length) countEvent(db, "rounds_finished", "abandoned", ids.length);
    db.delete(roundLock).run();
    return ids;
  });
}

/** Takes the single round lock, or reports who holds it. A holder whose heartbeat is older than `staleMs`
 * is presumed dead: its round is marked abandoned and the lock passes on. */
export function acquireRoundLock(db: Db, options: { holder: string; trigger: string; now: Date; staleMs: number }): LockResult {
  return transaction(db, () => {
    const nowIso = options.now.toISOString();
    const held = db.select().from(roundLock).where(eq(roundLock.id, 1)).get();
    if (held) {
      const age = options.now.getTime() - Date.parse(held.heartbeatAt);
      if (age < options.staleMs) {
        return { acquired: false, roundId: held.roundId, holder: held.holder, heartbeatAt: held.heartbeatAt };
      }
      const abandoned = db
        .update(rounds)
        .set({ status: "abandoned", finishedAt: nowIso, error: `holder ${held.holder} stopped heartbeating` })
        .where(and(eq(rounds.id, held.roundId), eq(rounds.status, "running")))
        .run();
      if (abandoned.changes > 0) countEvent(db, "rounds_finished", "abandoned");
    }
    const roundId = db
      .insert(rounds)
      .values({ startedAt: nowIso, status: "running", trigger: options.trigger, heartbeatAt: nowIso })
      .returning({ id: rounds.id })
      .get().id;
    db.insert(roundLock)
      .values({ id: 1, roundId, holder: options.holder, acquiredAt: nowIso, heartbeatAt: nowIso })
      .onConflictDoUpdate({
        target: roundLock.id,
        set: { roundId, holder: options.holder, acquiredAt: nowIso, heartbeatAt: nowIso },
      })
      .run();
    countEvent(db, "rounds_started", options.trigger);
    return { acquired: true, roundId };
  });
}

export interface RoundProgress {
  due?: number;
  probed?: number;
  read?: number;
  failed?: number;
  gated?: number;
  partlyRead?: number;
  slowedDown?: number;
  skipped?: number;
}

/** Refreshes the lock and the round's counters; false when the lock is no longer ours (we were presumed dead). */
export function heartbeatRound(db: Db, roundId: number, holder: string, now: Date, progress: RoundProgress): boolean {
  return transaction(db, () => {
    const nowIso = now.toISOString();
    const res = db
      .update(roundLock)
      .set({ heartbeatAt: nowIso })
      .where(and(eq(roundLock.id, 1), eq(roundLock.roundId, roundId), eq(roundLock.holder, holder)))
      .run();
    db.update(rounds)
      .set({ ...progress, heartbeatAt: nowIso })
      .where(eq(rounds.id, roundId))
      .run();
    return res.changes === 1;
  });
}

/** architecture.md §2.7: a round's distinct hosts tried, those whose latest probe failed at the network level, and whether
 * the round paused because its own network looked down. */
export interface RoundNetwork {
  hostsTried: number;
  hostsNetworkFailed: number;
  paused: boolean;
}

export function finishRound(
  db: Db,
  roundId: number,
  holder: string,
  options: { now: Date; status: "done" | "failed"; error?: string; progress: RoundProgress; network?: RoundNetwork; durationMs?: number },
): void {
  const network = options.network
    ? {
        hostsTried: options.network.hostsTried,
        hostsNetworkFailed: options.network.hostsNetworkFailed,
        networkPaused: options.network.paused,
      }
    : {};
  transaction(db, () => {
    const finished = db
      .update(rounds)
      .set({ ...options.progress, ...network, status: options.status, finishedAt: options.now.toISOString(), error: options.error ?? null })
      .where(and(eq(rounds.id, roundId), eq(rounds.status, "running")))
      .run();
    // A round another holder already marked abandoned was counted then.
    if (finished.changes > 0) {
      countEvent(db, "rounds_finished", options.status);
      if (options.durationMs !== undefined) observeRoundDuration(db, options.durationMs / 1000);
    }
    db.delete(roundLock)
      .where(and(eq(roundLock.id, 1), eq(roundLock.roundId, roundId), eq(roundLock.holder, holder)))
      .run();
  });
}

export function getRound(db: Db, id: number): RoundRow | null {
  return db.select().from(rounds).where(eq(rounds.id, id)).get() ?? null;
}

export function listRecentRounds(db: Db, limit = 20): RoundRow[] {
  return db.select().from(rounds).orderBy(desc(rounds.id)).limit(limit).all();
}

/** Deletes finished rounds that started before `before`; the running one (if any) is never touched. */
export function pruneRounds(db: Db, before: string): number {
  return db
    .delete(rounds)
    .where(and(lt(rounds.startedAt, before), sql`${rounds.status} <> 'running'`))
    .run().changes;
}

const notPaused = or(isNull(rounds.networkPaused), eq(rounds.networkPaused, false));

/** The share of hosts whose latest probe failed at the network level over the fleet rounds finished since `since`
 * (ISO), leaving out rounds that paused for the probe's own network: the level the host-share guard compares with. */
export function networkShareLevel(db: Db, since: string): number {
  const r = db
    .select({ tried: sql<number | null>`sum(${rounds.hostsTried})`, failed: sql<number | null>`sum(${rounds.hostsNetworkFailed})` })
    .from(rounds)
    .where(and(eq(rounds.status, "done"), gte(rounds.finishedAt, since), ne(rounds.trigger, REPROBE_ROUND_TRIGGER), notPaused))
    .get();
  return r?.tried ? (r.failed ?? 0) / r.tried : 0;
}

/** The first round finished after `after` (ISO) that did not pause and whose hosts mostly answered: the probe's own
 * network works again. */
export function firstRoundWithNetwork(db: Db, after: string): RoundRow | null {
  return (
    db
      .select()
      .from(rounds)
      .where(
        and(
          eq(rounds.status, "done"),
          gt(rounds.finishedAt, after),
          notPaused,
          gt(rounds.hostsTried, 0),
          sql`${rounds.hostsNetworkFailed} * 2 <= ${rounds.hostsTried}`,
        ),
      )
      .orderBy(asc(rounds.finishedAt))
      .limit(1)
      .get() ?? null
  );
}
