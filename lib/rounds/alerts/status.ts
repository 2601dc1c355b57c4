// What /api/status tells an outside monitor, and what /api/cross-reads serves: public facts only.
import type { Db } from "../../../db/client";
import { addDays, judgeCoverageDay, utcDay } from "../coverage";
import { lastRoundFinishedAt, openAlerts } from "../../store/alerts";
import { coverageBetween, firstCoverageDay } from "../../store/coverage";
import { crossReadCounts, crossReadsOn, latestCrossReadDay, type CrossReadCounts } from "../../store/cross-reads";
import type { AlertKind, CrossReadExplanation, CrossReadOutcome } from "../../store/vocabulary";

export interface SiteStatus {
  lastRoundFinishedAt: string | null;
  coverage: { today: number; median7d: number | null };
  crossRead: ({ day: string } & CrossReadCounts) | null;
  alerts: { kind: AlertKind; since: string; day: string; message: string }[];
}

export function siteStatus(db: Db, now: Date): SiteStatus {
  const today = utcDay(now);
  const first = firstCoverageDay(db);
  const history = new Map(coverageBetween(db, addDays(today, -7), today).map((c) => [c.day, c.serversRead]));
  // The 7 complete days before today, as the coverage alert judges them (null until 3 days of history exist).
  const verdict = first ? judgeCoverageDay(today, history, first) : null;
  const day = latestCrossReadDay(db);
  return {
    lastRoundFinishedAt: lastRoundFinishedAt(db),
    coverage: { today: history.get(today) ?? 0, median7d: verdict?.baseline ?? null },
    crossRead: day ? { day, ...crossReadCounts(db, day) } : null,
    alerts: openAlerts(db).map((a) => ({ kind: a.kind, since: a.createdAt, day: a.day, message: a.message })),
  };
}

export interface CrossReadsAnswer {
  day: string | null;
  /** `explained`: the difference follows from the probe's own rules (DESIGN §6); `explanation` names the rule. */
  servers: { name: string; outcome: CrossReadOutcome; explained: boolean; explanation: CrossReadExplanation | null; paths: string[] }[];
}

/** The latest day's outcomes, the probe's possible blind spots first. */
export function latestCrossReads(db: Db): CrossReadsAnswer {
  const day = latestCrossReadDay(db);
  if (!day) return { day: null, servers: [] };
  return {
    day,
    servers: crossReadsOn(db, day).map((r) => ({ name: r.name, outcome: r.outcome, explained: r.explained, explanation: r.explanation, paths: r.paths })),
  };
}
