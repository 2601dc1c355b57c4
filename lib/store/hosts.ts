import { and, count, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { hostPauses, robotsCache, servers } from "../../db/schema";
import type { RobotsRow } from "./optouts";

export type HostPauseRow = typeof hostPauses.$inferSelect;

/** Hosts serving at least `min` registry servers (every listed server, not only the due ones). */
export function crowdedHosts(db: Db, min: number): Map<string, number> {
  const rows = db
    .select({ host: servers.host, n: count() })
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), isNotNull(servers.host)))
    .groupBy(servers.host)
    .having(({ n }) => sql`${n} >= ${min}`)
    .all();
  return new Map(rows.map((r) => [r.host!, r.n]));
}

/** Every cached robots.txt row fetched after `since` (ISO). */
export function robotsFetchedSince(db: Db, since: string): RobotsRow[] {
  return db.select().from(robotsCache).where(gt(robotsCache.fetchedAt, since)).all();
}

/** Pauses still in force at `now` (ISO). */
export function activeHostPauses(db: Db, now: string): HostPauseRow[] {
  return db.select().from(hostPauses).where(gt(hostPauses.until, now)).all();
}

/** Records a pause; a later end wins over an earlier one, and pauses over by `now` are dropped. */
export function putHostPause(db: Db, row: HostPauseRow, now: string): void {
  db.insert(hostPauses)
    .values(row)
    .onConflictDoUpdate({
      target: hostPauses.host,
      set: { until: row.until, cause: row.cause },
      setWhere: sql`${hostPauses.until} < ${row.until}`,
    })
    .run();
  db.delete(hostPauses)
    .where(sql`${hostPauses.until} <= ${now}`)
    .run();
}
