import { and, asc, desc, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { alerts, coverageDaily, coverageServers } from "../../db/schema";

export type CoverageDay = typeof coverageDaily.$inferSelect;
export type AlertRow = typeof alerts.$inferSelect;

/** Counts one probe of one server into its UTC day: distinct servers attempted and read, requests and successes. */
export function recordCoverage(
  db: Db,
  o: { day: string; serverId: number; read: boolean; requests: number; requestsOk: number },
): void {
  db.insert(coverageServers)
    .values({ day: o.day, serverId: o.serverId, read: o.read })
    .onConflictDoUpdate({
      target: [coverageServers.day, coverageServers.serverId],
      set: { read: sql`max(${coverageServers.read}, ${o.read ? 1 : 0})` },
    })
    .run();
  const counts = db
    .select({
      attempted: sql<number>`count(*)`,
      read: sql<number>`coalesce(sum(${coverageServers.read}), 0)`,
    })
    .from(coverageServers)
    .where(eq(coverageServers.day, o.day))
    .get() ?? { attempted: 0, read: 0 };
  db.insert(coverageDaily)
    .values({
      day: o.day,
      serversAttempted: counts.attempted,
      serversRead: counts.read,
      requests: o.requests,
      requestsOk: o.requestsOk,
    })
    .onConflictDoUpdate({
      target: coverageDaily.day,
      set: {
        serversAttempted: counts.attempted,
        serversRead: counts.read,
        requests: sql`${coverageDaily.requests} + ${o.requests}`,
        requestsOk: sql`${coverageDaily.requestsOk} + ${o.requestsOk}`,
      },
    })
    .run();
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

export function firstCoverageDay(db: Db): string | null {
  return db.select({ day: coverageDaily.day }).from(coverageDaily).orderBy(asc(coverageDaily.day)).limit(1).get()?.day ?? null;
}

/** Stores an alert once per (day, kind); returns false when it was already stored. */
export function insertAlert(db: Db, a: Omit<typeof alerts.$inferInsert, "id">): boolean {
  return db.insert(alerts).values(a).onConflictDoNothing().run().changes > 0;
}

export function listAlerts(db: Db, limit = 50): AlertRow[] {
  return db.select().from(alerts).orderBy(desc(alerts.day), desc(alerts.id)).limit(limit).all();
}

/** Drops the per-server bookkeeping of days older than `beforeDay`; the daily totals stay. */
export function pruneCoverageServers(db: Db, beforeDay: string): number {
  return db.delete(coverageServers).where(sql`${coverageServers.day} < ${beforeDay}`).run().changes;
}
