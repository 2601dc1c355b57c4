import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { incidents, servers } from "../../db/schema";
import type { CheckId } from "../vocabulary/checks";
import { prepared } from "./prepared";

// Incidents (architecture.md §4): opened and closed by persistRun in the run's own transaction, read by the server page,
// its JSON, /incidents and its Atom feed.

export interface Incident {
  id: number;
  serverName: string;
  startedAt: string;
  /** Null while the incident is open. */
  endedAt: string | null;
  /** endedAt − startedAt in milliseconds; null while open. */
  durationMs: number | null;
  /** The discovery check that opened it, and its reason at the opening run. */
  check: CheckId;
  reason: string;
  openedRunId: number;
  closedRunId: number | null;
}

const columns = {
  id: incidents.id,
  serverName: servers.name,
  startedAt: incidents.startedAt,
  endedAt: incidents.endedAt,
  check: incidents.check,
  reason: incidents.reason,
  openedRunId: incidents.openedRunId,
  closedRunId: incidents.closedRunId,
};

function withDuration(r: Omit<Incident, "durationMs">): Incident {
  return { ...r, durationMs: r.endedAt ? Math.max(0, Date.parse(r.endedAt) - Date.parse(r.startedAt)) : null };
}

/** The id of the server's open incident, if any. */
export function openIncidentId(db: Db, serverId: number): number | null {
  const row = prepared(db, "incidents.open", () =>
    db
      .select({ id: incidents.id })
      .from(incidents)
      .where(and(isNull(incidents.endedAt), eq(incidents.serverId, sql.placeholder("serverId"))))
      .limit(1)
      .prepare(),
  ).get({ serverId });
  return row?.id ?? null;
}

export function insertIncident(db: Db, i: { serverId: number; startedAt: string; check: CheckId; reason: string; runId: number }): number {
  return db
    .insert(incidents)
    .values({ serverId: i.serverId, startedAt: i.startedAt, check: i.check, reason: i.reason, openedRunId: i.runId })
    .returning({ id: incidents.id })
    .get().id;
}

export function closeIncident(db: Db, id: number, endedAt: string, runId: number): void {
  db.update(incidents).set({ endedAt, closedRunId: runId }).where(eq(incidents.id, id)).run();
}

export interface IncidentList {
  total: number;
  /** How many of them are still open. */
  ongoing: number;
  rows: Incident[];
}

/** Incidents across servers, or of the server with registry name `server`, most recent first, paged. */
export function incidentList(db: Db, options: { server?: string; limit: number; offset?: number }): IncidentList {
  const where = options.server === undefined ? undefined : eq(servers.name, options.server);
  const totals = db
    .select({ total: count(), ongoing: sql<number>`count(*) filter (where ${incidents.endedAt} is null)` })
    .from(incidents)
    .innerJoin(servers, eq(servers.id, incidents.serverId))
    .where(where)
    .get();
  const rows = db
    .select(columns)
    .from(incidents)
    .innerJoin(servers, eq(servers.id, incidents.serverId))
    .where(where)
    .orderBy(desc(incidents.startedAt), desc(incidents.id))
    .limit(options.limit)
    .offset(options.offset ?? 0)
    .all();
  return { total: totals?.total ?? 0, ongoing: totals?.ongoing ?? 0, rows: rows.map(withDuration) };
}

/** An opening or a closing, the entries of the incidents feed. */
export interface IncidentEvent {
  kind: "opened" | "closed";
  at: string;
  incident: Incident;
}

/** The latest openings and closings, newest first, across servers or for one. */
export function incidentEvents(db: Db, options: { server?: string; limit: number }): IncidentEvent[] {
  const rows = db
    .select(columns)
    .from(incidents)
    .innerJoin(servers, eq(servers.id, incidents.serverId))
    .where(options.server === undefined ? undefined : eq(servers.name, options.server))
    .orderBy(desc(sql`coalesce(${incidents.endedAt}, ${incidents.startedAt})`), desc(incidents.id))
    .limit(options.limit)
    .all()
    .map(withDuration);
  const events: IncidentEvent[] = [];
  for (const incident of rows) {
    events.push({ kind: "opened", at: incident.startedAt, incident });
    if (incident.endedAt) events.push({ kind: "closed", at: incident.endedAt, incident });
  }
  return events.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.incident.id - a.incident.id)).slice(0, options.limit);
}
