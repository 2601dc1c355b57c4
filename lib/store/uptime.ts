import { and, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { runs, serverDays } from "../../db/schema";
import { serverIdByName } from "./history";

// Uptime per server (architecture.md §4): the share of probes whose handshake completed or met a credential gate, among
// the probes that reached the server. The day windows read the per-day counters (server_days, written in the
// run's own transaction), so they outlive the 30-day run retention; 24 h reads the runs of the last 24 hours.

export const UPTIME_WINDOWS = ["last24h", "last7d", "last30d", "last90d"] as const;
export type UptimeWindow = (typeof UPTIME_WINDOWS)[number];

/** Whole UTC days per day window, today included (the 90-day window is the history strip's 90 days). */
export const UPTIME_WINDOW_DAYS: Record<Exclude<UptimeWindow, "last24h">, number> = { last7d: 7, last30d: 30, last90d: 90 };

export interface UptimeFigure {
  /** up / reached, from 0 to 1; null when no probe reached the server in the window. */
  ratio: number | null;
  /** Probes whose handshake completed or met a credential gate. */
  up: number;
  /** Probes that reached the server (slow-downs, opt-outs, the probe's own outages left out). */
  reached: number;
  /** Where the window starts (ISO-8601): 24 hours before now, or 00:00 UTC of its first day. */
  from: string;
}

export type ServerUptime = Record<UptimeWindow, UptimeFigure>;

const DAY_MS = 86_400_000;

function figure(up: number, reached: number, from: string): UptimeFigure {
  return { ratio: reached > 0 ? up / reached : null, up, reached, from };
}

/** The first UTC day of a window of `days` days ending today. */
const windowStart = (now: Date, days: number) => new Date(Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`) - (days - 1) * DAY_MS);

/** A server's uptime over 24 h, 7, 30 and 90 days; null for an unknown registry name. */
export function serverUptime(db: Db, name: string, now: Date): ServerUptime | null {
  const id = serverIdByName(db, name);
  return id === null ? null : serverUptimeById(db, id, now);
}

export function serverUptimeById(db: Db, serverId: number, now: Date): ServerUptime {
  const from24h = new Date(now.getTime() - DAY_MS).toISOString();
  const day = db
    .select({
      up: sql<number>`count(*) filter (where ${runs.uptime} = 'up')`,
      reached: sql<number>`count(*)`,
    })
    .from(runs)
    .where(and(eq(runs.serverId, serverId), gte(runs.startedAt, from24h), inArray(runs.uptime, ["up", "down"])))
    .get();
  const starts = Object.fromEntries(Object.entries(UPTIME_WINDOW_DAYS).map(([w, n]) => [w, windowStart(now, n)])) as Record<
    keyof typeof UPTIME_WINDOW_DAYS,
    Date
  >;
  const sums = (w: keyof typeof UPTIME_WINDOW_DAYS) => {
    const d = starts[w].toISOString().slice(0, 10);
    return [
      sql<number>`coalesce(sum(case when ${serverDays.day} >= ${d} then ${serverDays.uptimeUp} end), 0)`,
      sql<number>`coalesce(sum(case when ${serverDays.day} >= ${d} then ${serverDays.uptimeReached} end), 0)`,
    ] as const;
  };
  const [up7, reached7] = sums("last7d");
  const [up30, reached30] = sums("last30d");
  const [up90, reached90] = sums("last90d");
  const days = db
    .select({ up7, reached7, up30, reached30, up90, reached90 })
    .from(serverDays)
    .where(and(eq(serverDays.serverId, serverId), gte(serverDays.day, starts.last90d.toISOString().slice(0, 10))))
    .get();
  return {
    last24h: figure(day?.up ?? 0, day?.reached ?? 0, from24h),
    last7d: figure(days?.up7 ?? 0, days?.reached7 ?? 0, starts.last7d.toISOString()),
    last30d: figure(days?.up30 ?? 0, days?.reached30 ?? 0, starts.last30d.toISOString()),
    last90d: figure(days?.up90 ?? 0, days?.reached90 ?? 0, starts.last90d.toISOString()),
  };
}

/** The 30-day uptime of every server with a probe in that window, by server id (the open-data file's `uptime30d`): the same
 * day counters and window as `serverUptimeById`, in one query. */
export function uptime30dByServer(db: Db, now: Date): Map<number, Omit<UptimeFigure, "from">> {
  const from = windowStart(now, UPTIME_WINDOW_DAYS.last30d).toISOString().slice(0, 10);
  const rows = db
    .select({
      serverId: serverDays.serverId,
      up: sql<number>`sum(${serverDays.uptimeUp})`,
      reached: sql<number>`sum(${serverDays.uptimeReached})`,
    })
    .from(serverDays)
    .where(gte(serverDays.day, from))
    .groupBy(serverDays.serverId)
    .all();
  return new Map(rows.map((r) => [r.serverId, { ratio: r.reached > 0 ? r.up / r.reached : null, up: r.up, reached: r.reached }]));
}
