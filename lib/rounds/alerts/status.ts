// What /api/status tells an outside monitor, and what /api/cross-reads serves: public facts only.
import type { Db } from "../../../db/client";
import { addDays, judgeCoverageDay, utcDay } from "../coverage";
import { lastRoundFinishedAt, openAlerts } from "../../store/alerts";
import { coverageBetween, firstCoverageDay } from "../../store/coverage";
import { crossReadCounts, crossReadsOn, latestCrossReadDay } from "../../store/cross-reads";
import type { ApiShape } from "../../api/schemas";
import { heldAlert, type OpenAlertView } from "./unwritable";

/** The open alerts, oldest first: those stored, and database_unwritable while this process holds it in memory. */
export function openAlertsNow(db: Db): OpenAlertView[] {
  const held = heldAlert(db);
  const stored: OpenAlertView[] = openAlerts(db);
  return held ? [...stored, held].sort((a, b) => a.createdAt.localeCompare(b.createdAt)) : stored;
}
import { storedRegionStates } from "../../store/regions";

/** The answer of GET /api/status (its shape: StatusAnswer in lib/api/schemas). */
export function siteStatus(db: Db, now: Date): ApiShape<"StatusAnswer"> {
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
    alerts: openAlertsNow(db).map((a) => ({
      kind: a.kind,
      since: a.createdAt,
      day: a.day,
      message: a.message,
      ...(a.subject ? { subject: a.subject } : {}),
    })),
    regions: storedRegionStates(db).map((r) => ({ id: r.id, up: r.up, lastAnswerAt: r.lastAnswerAt, hostShare: r.hostShare })),
  };
}

/** The latest day's outcomes, the probe's possible blind spots first. */
export function latestCrossReads(db: Db): ApiShape<"CrossReadsAnswer"> {
  const day = latestCrossReadDay(db);
  if (!day) return { day: null, servers: [] };
  return {
    day,
    servers: crossReadsOn(db, day).map((r) => ({
      name: r.name,
      outcome: r.outcome,
      explained: r.explained,
      explanation: r.explanation,
      paths: r.paths,
    })),
  };
}
