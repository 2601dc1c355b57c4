import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { optOuts, robotsCache } from "../../db/schema";
import type { OptOutSource } from "../vocabulary/store";

// Hosts that asked not to be probed (operator list and robots.txt), and the robots.txt cache behind the latter.

export type OptOutRow = typeof optOuts.$inferSelect;
export type RobotsRow = typeof robotsCache.$inferSelect;

/** Normalises what an operator types: a host name or host:port, lower-cased, no scheme or path. */
export function normaliseHost(input: string): string | null {
  const raw = input.trim().toLowerCase();
  if (!raw) return null;
  try {
    const u = new URL(raw.includes("://") ? raw : `http://${raw}`);
    if (u.pathname !== "/" || u.search || u.username) return raw.includes("://") ? u.host : null;
    return u.host;
  } catch {
    return null;
  }
}

export function addOptOut(db: Db, options: { host: string; reason: string; source: OptOutSource; since: string }): void {
  db.insert(optOuts)
    .values(options)
    .onConflictDoUpdate({ target: optOuts.host, set: { reason: options.reason, source: options.source, since: options.since } })
    .run();
}

export function removeOptOut(db: Db, host: string): boolean {
  return db.delete(optOuts).where(eq(optOuts.host, host)).run().changes > 0;
}

export function listOptOuts(db: Db): OptOutRow[] {
  return db.select().from(optOuts).orderBy(asc(optOuts.host)).all();
}

/** The operator's opt-out list as a lookup: the reason a host (with or without its port) asked not to be probed. */
export function operatorOptOuts(db: Db): (host: string) => string | null {
  const optOuts = new Map(listOptOuts(db).map((o) => [o.host, o.reason]));
  return (host: string): string | null => {
    const h = host.toLowerCase();
    return optOuts.get(h) ?? optOuts.get(h.replace(/:\d+$/, "")) ?? null;
  };
}

/** The opt-out for one host, if any. */
export function optOutFor(db: Db, host: string): Pick<OptOutRow, "source" | "reason" | "since"> | undefined {
  return db
    .select({ source: optOuts.source, reason: optOuts.reason, since: optOuts.since })
    .from(optOuts)
    .where(eq(optOuts.host, host))
    .get();
}

export function getRobots(db: Db, host: string): RobotsRow | null {
  return db.select().from(robotsCache).where(eq(robotsCache.host, host)).get() ?? null;
}

export function putRobots(db: Db, row: RobotsRow): void {
  const { host: _host, ...rest } = row;
  db.insert(robotsCache).values(row).onConflictDoUpdate({ target: robotsCache.host, set: rest }).run();
}

/** Hosts whose robots.txt, as last read, forbids our user agent: sent to agents with each probe so they fetch nothing
 * there either (architecture.md §8). */
export function robotsDisallowedHosts(db: Db): string[] {
  return db
    .select({ host: robotsCache.host })
    .from(robotsCache)
    .where(eq(robotsCache.disallowed, true))
    .all()
    .map((r) => r.host);
}
