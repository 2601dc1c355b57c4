import type { Db } from "@/db/client";
import { historyFromDay, shapeHistory } from "@/lib/site/history";
import { serverHistoryRows } from "@/lib/store/history";

/** A server's 90-day strip and response times (30 days of runs); null for an unknown name. */
export function serverHistory(db: Db, name: string, now: Date) {
  const rows = serverHistoryRows(db, name, historyFromDay(now), new Date(now.getTime() - 30 * 86_400_000).toISOString());
  return rows && shapeHistory(rows, now);
}
