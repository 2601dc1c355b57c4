import type { Db } from "../../db/client";
import { eventCounters } from "../../db/schema";
import type { Exchange } from "../probe/types";
import { prepared } from "./prepared";
import type { EventCounter, ProbeRequestOutcome } from "../vocabulary/store";

// Totals of events, kept in the database rather than in one process's memory: a round runs in the renderer,
// in `npm run round` or in a test, and any process may answer a scrape. Each count is written in the same
// transaction as the event, so a rolled-back write is never counted.

/** Upper bounds (seconds) of the round-duration histogram's buckets; a longer round lands in "+Inf". */
export const ROUND_DURATION_BUCKETS_SECONDS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200] as const;

export interface EventCount {
  name: EventCounter;
  label: string;
  value: number;
}

/** Adds `by` to the count of `name` with `label`. */
export function countEvent(db: Db, name: EventCounter, label: string, by = 1): void {
  prepared(db, "counters.add", () =>
    db.$client.prepare(
      `insert into event_counters (name, label, value) values (@name, @label, @by)
       on conflict (name, label) do update set value = value + excluded.value`,
    ),
  ).run({ name, label, by });
}

/** One round's duration, as a histogram: the count of the smallest bucket that holds it, and the sum. */
export function observeRoundDuration(db: Db, seconds: number): void {
  const bound = ROUND_DURATION_BUCKETS_SECONDS.find((b) => seconds <= b);
  countEvent(db, "round_duration_bucket", bound === undefined ? "+Inf" : String(bound));
  countEvent(db, "round_duration_sum", "", seconds);
}

/** How one request of a probe ended. */
export function requestOutcome(e: Pick<Exchange, "status" | "network">): ProbeRequestOutcome {
  if (e.status === undefined) return e.network ? "network" : "no_answer";
  if (e.status >= 200 && e.status < 600) return `${Math.floor(e.status / 100)}xx` as ProbeRequestOutcome;
  return "other_status";
}

/** Counts a probe's requests by outcome: one write per outcome seen, not per request. */
export function countProbeRequests(db: Db, exchanges: readonly Pick<Exchange, "status" | "network">[]): void {
  const byOutcome = new Map<ProbeRequestOutcome, number>();
  for (const e of exchanges) {
    const o = requestOutcome(e);
    byOutcome.set(o, (byOutcome.get(o) ?? 0) + 1);
  }
  for (const [outcome, n] of byOutcome) countEvent(db, "probe_requests", outcome, n);
}

export function eventCounts(db: Db): EventCount[] {
  return db.select().from(eventCounters).all();
}
