import { and, asc, desc, eq, gte, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { placeholders, prepared } from "./prepared";
import { alerts, coverageDaily, coverageServers } from "../../db/schema";

// Coverage per UTC day (distinct servers attempted and read, requests) and the alerts judged from it.

export type CoverageDay = typeof coverageDaily.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;

/** Counts one probe of one server into its UTC day: distinct servers attempted and read, requests and successes.
 * Incremental (no recount of the day), so a round's cost stays linear in its servers. */
export function recordCoverage(
  db: Db,
  options: { day: string; serverId: number; read: boolean; requests: number; requestsOk: number },
): void {
  const key = { day: options.day, serverId: options.serverId };
  const prev = prepared(db, "coverageServers.get", () =>
    db
      .select({ read: coverageServers.read })
      .from(coverageServers)
      .where(and(eq(coverageServers.day, sql.placeholder("day")), eq(coverageServers.serverId, sql.placeholder("serverId"))))
      .prepare(),
  ).get(key);
  let attempted = 0;
  let read = 0;
  if (!prev) {
    prepared(db, "coverageServers.insert", () =>
      db
        .insert(coverageServers)
        .values(placeholders(["day", "serverId", "read"] as const))
        .prepare(),
    ).run({
      ...key,
      read: options.read,
    });
    attempted = 1;
    read = options.read ? 1 : 0;
  } else if (!prev.read && options.read) {
    db.update(coverageServers)
      .set({ read: true })
      .where(and(eq(coverageServers.day, options.day), eq(coverageServers.serverId, options.serverId)))
      .run();
    read = 1;
  }
  prepared(db, "coverageDaily.add", () =>
    db
      .insert(coverageDaily)
      .values(placeholders(["day", "serversAttempted", "serversRead", "requests", "requestsOk"] as const))
      .onConflictDoUpdate({
        target: coverageDaily.day,
        set: {
          serversAttempted: sql`${coverageDaily.serversAttempted} + excluded.servers_attempted`,
          serversRead: sql`${coverageDaily.serversRead} + excluded.servers_read`,
          requests: sql`${coverageDaily.requests} + excluded.requests`,
          requestsOk: sql`${coverageDaily.requestsOk} + excluded.requests_ok`,
        },
      })
      .prepare(),
  ).run({ day: options.day, serversAttempted: attempted, serversRead: read, requests: options.requests, requestsOk: options.requestsOk });
}

/** Coverage rows between two UTC days inclusive (YYYY-MM-DD), oldest first. */
export function coverageBetween(db: Db, from: string, to: string): CoverageDay[] {
  return db
    .select()
    .from(coverageDaily)
    .where(and(gte(coverageDaily.day, from), lte(coverageDaily.day, to)))
    .orderBy(asc(coverageDaily.day))
    .all();
}

/** The last `days` UTC days that have coverage rows, oldest first. */
export function coverageDays(db: Db, days = 30): CoverageDay[] {
  const rows = db.select().from(coverageDaily).orderBy(desc(coverageDaily.day)).limit(days).all();
  return rows.reverse();
}

export function firstCoverageDay(db: Db): string | null {
  return db.select({ day: coverageDaily.day }).from(coverageDaily).orderBy(asc(coverageDaily.day)).limit(1).get()?.day ?? null;
}

export function listAlerts(db: Db, limit = 50): AlertRow[] {
  return db.select().from(alerts).orderBy(desc(alerts.day), desc(alerts.id)).limit(limit).all();
}

/** Open alerts, and the latest few resolved ones for context. */
export function alertState(db: Db, recent = 5): { open: AlertRow[]; resolved: AlertRow[] } {
  const open = db.select().from(alerts).where(isNull(alerts.resolvedAt)).orderBy(desc(alerts.createdAt)).all();
  const resolved = db.select().from(alerts).where(isNotNull(alerts.resolvedAt)).orderBy(desc(alerts.resolvedAt)).limit(recent).all();
  return { open, resolved };
}

/** Drops the per-server bookkeeping of days older than `beforeDay`; the daily totals stay. */
export function pruneCoverageServers(db: Db, beforeDay: string): number {
  return db
    .delete(coverageServers)
    .where(sql`${coverageServers.day} < ${beforeDay}`)
    .run().changes;
}
