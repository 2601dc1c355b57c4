import { and, asc, desc, eq, gt, gte, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { runs, serverDays, servers, transitions } from "../../db/schema";
import { DISCOVERY_CHECKS, type CheckId, type CheckState, type NotCheckedCause } from "../vocabulary/checks";
import type { UptimeOutcome } from "../vocabulary/store";
import { placeholders, prepared } from "./prepared";

// Per-day history, response times and the state-change feed. Written in the run's own transaction
// (persistRun) and read by the server page, the index, the JSON API, badges and the feeds.

/** Worst first: a day is as bad as its worst discovery result. */
export const HISTORY_SEVERITY = ["failed", "observed_risk", "not_checked", "verified"] as const satisfies readonly CheckState[];

const rankSql = (col: unknown) => sql`case ${col} when 'failed' then 0 when 'observed_risk' then 1 when 'not_checked' then 2 else 3 end`;

/** The worst state among a run's discovery checks; null when none was judged. */
export function worstDiscoveryState(states: Partial<Record<CheckId, CheckState>>): CheckState | null {
  const present = DISCOVERY_CHECKS.map((c) => states[c]).filter((s): s is CheckState => s !== undefined);
  if (present.length === 0) return null;
  return HISTORY_SEVERITY.find((s) => present.includes(s)) ?? null;
}

export interface DayRollupInput {
  serverId: number;
  day: string;
  state: CheckState;
  runId: number;
  handshakeMs: number | null;
  toolsListMs: number | null;
  uptime: UptimeOutcome;
}

/** The column's value in the row an upsert tried to insert. */
const excluded = (col: { name: string }) => sql.raw(`excluded."${col.name}"`);

/** Folds one run into its server's UTC day in a single upsert (one prepared statement: a round writes it per server). */
export function recordServerDay(db: Db, r: DayRollupInput): void {
  const hs = r.handshakeMs;
  const tl = r.toolsListMs;
  const stmt = prepared(db, "serverDays.fold", () => {
    const d = serverDays;
    const fields = ["serverId", "day", "state", "lastRunId", "handshakeMsSum", "handshakeMsCount", "handshakeMsMax"] as const;
    const more = ["toolsListMsSum", "toolsListMsCount", "uptimeReached", "uptimeUp"] as const;
    return db
      .insert(d)
      .values({ ...placeholders([...fields, ...more]), probes: 1 })
      .onConflictDoUpdate({
        target: [d.serverId, d.day],
        set: {
          state: sql`case when ${rankSql(excluded(d.state))} < ${rankSql(d.state)} then ${excluded(d.state)} else ${d.state} end`,
          probes: sql`${d.probes} + 1`,
          lastRunId: sql`${excluded(d.lastRunId)}`,
          handshakeMsSum: sql`${d.handshakeMsSum} + ${excluded(d.handshakeMsSum)}`,
          handshakeMsCount: sql`${d.handshakeMsCount} + ${excluded(d.handshakeMsCount)}`,
          handshakeMsMax: sql`case when ${excluded(d.handshakeMsMax)} is null then ${d.handshakeMsMax} else max(coalesce(${d.handshakeMsMax}, 0), ${excluded(d.handshakeMsMax)}) end`,
          toolsListMsSum: sql`${d.toolsListMsSum} + ${excluded(d.toolsListMsSum)}`,
          toolsListMsCount: sql`${d.toolsListMsCount} + ${excluded(d.toolsListMsCount)}`,
          uptimeReached: sql`${d.uptimeReached} + ${excluded(d.uptimeReached)}`,
          uptimeUp: sql`${d.uptimeUp} + ${excluded(d.uptimeUp)}`,
        },
      })
      .prepare();
  });
  stmt.run({
    serverId: r.serverId,
    day: r.day,
    state: r.state,
    lastRunId: r.runId,
    handshakeMsSum: hs ?? 0,
    handshakeMsCount: hs === null ? 0 : 1,
    handshakeMsMax: hs,
    toolsListMsSum: tl ?? 0,
    toolsListMsCount: tl === null ? 0 : 1,
    uptimeReached: r.uptime === "left_out" ? 0 : 1,
    uptimeUp: r.uptime === "up" ? 1 : 0,
  });
}

export interface HistoryDay {
  day: string;
  state: CheckState;
  probes: number;
  /** The day's last run, when it is still kept (runs older than 30 days are pruned). */
  runId: number | null;
  handshakeMsAvg: number | null;
  toolsListMsAvg: number | null;
}

/** Stored days of several servers since `fromDay` (inclusive), keyed by registry name; days without a probe are absent. */
export function historyDays(db: Db, names: string[], fromDay: string): Map<string, HistoryDay[]> {
  const out = new Map<string, HistoryDay[]>(names.map((n) => [n, []]));
  if (names.length === 0) return out;
  const rows = db
    .select({
      name: servers.name,
      day: serverDays.day,
      state: serverDays.state,
      probes: serverDays.probes,
      lastRunId: serverDays.lastRunId,
      kept: sql<number | null>`(select ${runs.id} from ${runs} where ${runs.id} = ${serverDays.lastRunId})`,
      hsSum: serverDays.handshakeMsSum,
      hsCount: serverDays.handshakeMsCount,
      tlSum: serverDays.toolsListMsSum,
      tlCount: serverDays.toolsListMsCount,
    })
    .from(serverDays)
    .innerJoin(servers, eq(servers.id, serverDays.serverId))
    .where(and(inArray(servers.name, names), gte(serverDays.day, fromDay)))
    .orderBy(asc(serverDays.serverId), asc(serverDays.day))
    .all();
  for (const r of rows) {
    out.get(r.name)?.push({
      day: r.day,
      state: r.state,
      probes: r.probes,
      runId: r.kept ?? null,
      handshakeMsAvg: r.hsCount > 0 ? Math.round(r.hsSum / r.hsCount) : null,
      toolsListMsAvg: r.tlCount > 0 ? Math.round(r.tlSum / r.tlCount) : null,
    });
  }
  return out;
}

export interface LatencySample {
  startedAt: string;
  handshakeMs: number | null;
  toolsListMs: number | null;
}

/** Response times of a server's runs since `fromIso`, oldest first (runs are kept 30 days). */
export function latencySamples(db: Db, serverId: number, fromIso: string): LatencySample[] {
  return db
    .select({ startedAt: runs.startedAt, handshakeMs: runs.handshakeMs, toolsListMs: runs.toolsListMs })
    .from(runs)
    .where(and(eq(runs.serverId, serverId), gte(runs.startedAt, fromIso)))
    .orderBy(asc(runs.startedAt))
    .all();
}

/** A server's day rows since `fromDay` and its timed runs since `fromIso`; null for an unknown name. */
export function serverHistoryRows(
  db: Db,
  name: string,
  fromDay: string,
  fromIso: string,
): { stored: HistoryDay[]; samples: LatencySample[] } | null {
  const id = serverIdByName(db, name);
  if (id === null) return null;
  return { stored: historyDays(db, [name], fromDay).get(name) ?? [], samples: latencySamples(db, id, fromIso) };
}

/** Server id by registry name (left servers included). */
export function serverIdByName(db: Db, name: string): number | null {
  return db.select({ id: servers.id }).from(servers).where(eq(servers.name, name)).get()?.id ?? null;
}

export interface RunView {
  id: number;
  serverName: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  suiteVersion: string;
  era: string;
  protocolVersion: string | null;
  requests: number;
  requestsOk: number;
  read: boolean;
  handshakeMs: number | null;
  toolsListMs: number | null;
  exchanges: string | null;
}

/** Whether run `id` is still kept (runs are pruned after 30 days); one primary-key read. */
export function runExists(db: Db, id: number): boolean {
  return !!db.select({ id: runs.id }).from(runs).where(eq(runs.id, id)).get();
}

/** One stored run with its server's name, for the run page. */
export function getRunView(db: Db, id: number): RunView | null {
  const row = db
    .select({
      id: runs.id,
      serverName: servers.name,
      startedAt: runs.startedAt,
      finishedAt: runs.finishedAt,
      durationMs: runs.durationMs,
      suiteVersion: runs.suiteVersion,
      era: runs.era,
      protocolVersion: runs.protocolVersion,
      requests: runs.requests,
      requestsOk: runs.requestsOk,
      read: runs.read,
      handshakeMs: runs.handshakeMs,
      toolsListMs: runs.toolsListMs,
      exchanges: runs.exchanges,
    })
    .from(runs)
    .innerJoin(servers, eq(servers.id, runs.serverId))
    .where(eq(runs.id, id))
    .get();
  return row ?? null;
}

export interface StateChangeRow {
  id: number;
  serverName: string;
  check: CheckId;
  fromState: CheckState | null;
  toState: CheckState;
  reason: string;
  suiteVersion: string;
  at: string;
  /** The overall state the run behind the change left the server in; null for runs stored before it was. */
  overall: CheckState | null;
  overallCause: NotCheckedCause | null;
}

/** Check transitions newest first, across all servers or for one, optionally only those after `since` (ISO-8601).
 * First results (no previous state) count too. */
export function stateChanges(db: Db, options: { serverId?: number; limit: number; since?: string }): StateChangeRow[] {
  return db
    .select({
      id: transitions.id,
      serverName: servers.name,
      check: transitions.check,
      fromState: transitions.fromState,
      toState: transitions.toState,
      reason: transitions.reason,
      suiteVersion: transitions.suiteVersion,
      at: transitions.at,
      overall: runs.overall,
      overallCause: runs.overallCause,
    })
    .from(transitions)
    .innerJoin(servers, eq(servers.id, transitions.serverId))
    .leftJoin(runs, eq(runs.id, transitions.runId))
    .where(
      and(
        options.serverId !== undefined ? eq(transitions.serverId, options.serverId) : isNotNull(transitions.id),
        options.since !== undefined ? gt(transitions.at, options.since) : undefined,
      ),
    )
    .orderBy(desc(transitions.at), desc(transitions.id))
    .limit(options.limit)
    .all();
}
