import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { transaction, type Db } from "../../db/client";
import { alertEvents, alerts, rounds } from "../../db/schema";
import { REPROBE_ROUND_TRIGGER, type AlertKind, type AlertState } from "../vocabulary/store";

export type AlertRecord = typeof alerts.$inferSelect;
export type AlertEventRecord = typeof alertEvents.$inferSelect;

/** An event with the alert it belongs to: what the feed shows and the webhook sends. */
export interface AlertEvent {
  event: AlertEventRecord;
  alert: AlertRecord;
}

export function openAlerts(db: Db): AlertRecord[] {
  return db.select().from(alerts).where(isNull(alerts.resolvedAt)).orderBy(asc(alerts.createdAt), asc(alerts.id)).all();
}

/** The open alert of `kind` (of `subject`, for kinds that open one per thing: a region_down's region). */
export function openAlertOf(db: Db, kind: AlertKind, subject?: string): AlertRecord | null {
  return (
    db
      .select()
      .from(alerts)
      .where(and(eq(alerts.kind, kind), isNull(alerts.resolvedAt), subject !== undefined ? eq(alerts.subject, subject) : undefined))
      .orderBy(asc(alerts.createdAt))
      .limit(1)
      .get() ?? null
  );
}

export function resolvedAlerts(db: Db, limit = 20): AlertRecord[] {
  return db.select().from(alerts).where(isNotNull(alerts.resolvedAt)).orderBy(desc(alerts.resolvedAt), desc(alerts.id)).limit(limit).all();
}

/** Opens an alert of `kind` unless one is already open; records the opening event. Returns the new alert or null. */
export function openAlert(
  db: Db,
  a: { kind: AlertKind; day: string; message: string; value?: number | null; baseline?: number | null; at: string; subject?: string },
): AlertRecord | null {
  return transaction(db, () => {
    if (openAlertOf(db, a.kind, a.subject)) return null;
    const row = db
      .insert(alerts)
      .values({
        kind: a.kind,
        day: a.day,
        message: a.message,
        value: a.value ?? null,
        baseline: a.baseline ?? null,
        createdAt: a.at,
        subject: a.subject ?? null,
      })
      .returning()
      .get();
    db.insert(alertEvents).values({ alertId: row.id, state: "open", at: a.at }).run();
    return row;
  });
}

/** Resolves every open alert of `kind` (older databases may hold several) and records each resolution. */
export function resolveAlerts(db: Db, kind: AlertKind, options: { at: string; message: string; subject?: string }): AlertRecord[] {
  return transaction(db, () => {
    const open = db
      .select()
      .from(alerts)
      .where(
        and(
          eq(alerts.kind, kind),
          isNull(alerts.resolvedAt),
          options.subject !== undefined ? eq(alerts.subject, options.subject) : undefined,
        ),
      )
      .all();
    if (open.length === 0) return [];
    db.update(alerts)
      .set({ resolvedAt: options.at, resolvedMessage: options.message })
      .where(
        inArray(
          alerts.id,
          open.map((a) => a.id),
        ),
      )
      .run();
    db.insert(alertEvents)
      .values(open.map((a) => ({ alertId: a.id, state: "resolved" as AlertState, at: options.at })))
      .onConflictDoNothing()
      .run();
    return open.map((a) => ({ ...a, resolvedAt: options.at, resolvedMessage: options.message }));
  });
}

/** Writes down an alert that was held in memory while the database could not be written (database_unwritable), once
 * it has resolved: the alert, its opening with how its webhook delivery went, and its resolution (still to deliver). */
export function storeHeldAlert(
  db: Db,
  a: {
    kind: AlertKind;
    day: string;
    message: string;
    value: number;
    createdAt: string;
    resolvedAt: string;
    resolvedMessage: string;
    opening: { attempts: number; lastAttemptAt: string | null; deliveredAt: string | null; lastError: string | null };
  },
): AlertRecord {
  return transaction(db, () => {
    const { opening, ...alert } = a;
    const row = db.insert(alerts).values(alert).returning().get();
    db.insert(alertEvents)
      .values([
        { alertId: row.id, state: "open", at: a.createdAt, ...opening },
        { alertId: row.id, state: "resolved", at: a.resolvedAt },
      ])
      .run();
    return row;
  });
}

/** Openings and resolutions, newest first. */
export function recentAlertEvents(db: Db, limit = 50): AlertEvent[] {
  return db
    .select({ event: alertEvents, alert: alerts })
    .from(alertEvents)
    .innerJoin(alerts, eq(alerts.id, alertEvents.alertId))
    .orderBy(desc(alertEvents.at), desc(alertEvents.id))
    .limit(limit)
    .all();
}

/** Events not yet delivered, not given up on, and not older than `since`; oldest first. */
export function undeliveredAlertEvents(db: Db, options: { since: string; maxAttempts: number }): AlertEvent[] {
  return db
    .select({ event: alertEvents, alert: alerts })
    .from(alertEvents)
    .innerJoin(alerts, eq(alerts.id, alertEvents.alertId))
    .where(and(isNull(alertEvents.deliveredAt), gte(alertEvents.at, options.since), lt(alertEvents.attempts, options.maxAttempts)))
    .orderBy(asc(alertEvents.at), asc(alertEvents.id))
    .all();
}

export function recordDeliveryAttempt(db: Db, eventId: number, options: { at: string; delivered: boolean; error?: string }): void {
  db.update(alertEvents)
    .set({
      attempts: sql`${alertEvents.attempts} + 1`,
      lastAttemptAt: options.at,
      ...(options.delivered ? { deliveredAt: options.at, lastError: null } : { lastError: options.error ?? "failed" }),
    })
    .where(eq(alertEvents.id, eventId))
    .run();
}

/** When the latest round that ran to its end finished (embedded scheduler, outside cron or CLI alike). A one-server
 * re-probe asked for on a server page is not a round of the fleet, so it never hides a stopped schedule. */
export function lastRoundFinishedAt(db: Db): string | null {
  return (
    db
      .select({ at: sql<string | null>`max(${rounds.finishedAt})` })
      .from(rounds)
      .where(and(eq(rounds.status, "done"), ne(rounds.trigger, REPROBE_ROUND_TRIGGER)))
      .get()?.at ?? null
  );
}
