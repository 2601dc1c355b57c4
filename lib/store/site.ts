import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { alerts, checkResults, coverageDaily, servers, toolChanges } from "../../db/schema";
import type { ToolChangeKind } from "./vocabulary";
import type { CheckId, CheckState } from "../checks/vocabulary";
import type { Era } from "../probe/protocol";

// Read-only queries behind the site's own pages (coverage, census, changes, badges). The index and
// server-page queries live in read.ts.

// Any synchronous drizzle SQLite database, whatever schema object it was opened with.
export type SiteDb = BaseSQLiteDatabase<"sync", any, any, any>;

export interface CoverageDay {
  day: string;
  serversRead: number;
  serversAttempted: number;
  requests: number;
  requestsOk: number;
}

/** The last `days` UTC days that have coverage rows, oldest first. */
export function coverageDays(db: SiteDb, days = 30): CoverageDay[] {
  const rows = db.select().from(coverageDaily).orderBy(desc(coverageDaily.day)).limit(days).all();
  return rows.reverse();
}

export interface AlertRow {
  id: number;
  day: string;
  kind: string;
  message: string;
  value: number | null;
  baseline: number | null;
  createdAt: string;
  resolvedAt: string | null;
}

/** Open alerts, and the latest few resolved ones for context. */
export function alertState(db: SiteDb, recent = 5): { open: AlertRow[]; resolved: AlertRow[] } {
  const open = db.select().from(alerts).where(isNull(alerts.resolvedAt)).orderBy(desc(alerts.createdAt)).all();
  const resolved = db
    .select()
    .from(alerts)
    .where(isNotNull(alerts.resolvedAt))
    .orderBy(desc(alerts.resolvedAt))
    .limit(recent)
    .all();
  return { open, resolved };
}

export interface FailingServer {
  name: string;
  host: string | null;
  lastSuccessAt: string | null;
  lastProbedAt: string | null;
  firstSeenAt: string;
  consecutiveFailures: number;
  stateHandshake: CheckState | null;
  stateToolsList: CheckState | null;
}

/** Registry servers whose discovery currently fails or looks risky, longest without a successful read first. */
export function failingLongest(db: SiteDb, limit = 20): FailingServer[] {
  const failing = or(
    eq(servers.stateHandshake, "failed"),
    eq(servers.stateProtocolVersion, "failed"),
    inArray(servers.stateToolsList, ["failed", "observed_risk"]),
  );
  return db
    .select({
      name: servers.name,
      host: servers.host,
      lastSuccessAt: servers.lastSuccessAt,
      lastProbedAt: servers.lastProbedAt,
      firstSeenAt: servers.firstSeenAt,
      consecutiveFailures: servers.consecutiveFailures,
      stateHandshake: servers.stateHandshake,
      stateToolsList: servers.stateToolsList,
    })
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), failing))
    // Never-read servers first, ranked by how long we have known them.
    .orderBy(asc(sql`coalesce(${servers.lastSuccessAt}, '')`), asc(servers.firstSeenAt), asc(servers.name))
    .limit(limit)
    .all();
}

export function countServers(db: SiteDb): { inRegistry: number; left: number } {
  const row = db
    .select({
      inRegistry: sql<number>`sum(case when ${servers.leftRegistryAt} is null then 1 else 0 end)`,
      left: sql<number>`sum(case when ${servers.leftRegistryAt} is null then 0 else 1 end)`,
    })
    .from(servers)
    .get();
  return { inRegistry: Number(row?.inRegistry ?? 0), left: Number(row?.left ?? 0) };
}

export interface RevisionCount {
  protocolVersion: string;
  era: Era | null;
  count: number;
}

/** Agreed protocol revisions across servers still in the registry. */
export function revisionCensus(db: SiteDb): RevisionCount[] {
  return db
    .select({ protocolVersion: sql<string>`${servers.protocolVersion}`, era: servers.era, count: sql<number>`count(*)` })
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), isNotNull(servers.protocolVersion)))
    .groupBy(servers.protocolVersion, servers.era)
    .orderBy(desc(sql`count(*)`), desc(servers.protocolVersion))
    .all();
}

export interface ReasonCount {
  state: CheckState;
  reason: string;
  count: number;
}

/** Current error_taxonomy results grouped by state and reason; lib/site/refusals.ts sorts them into kinds. */
export function errorTaxonomyReasons(db: SiteDb): ReasonCount[] {
  return db
    .select({ state: checkResults.state, reason: checkResults.reason, count: sql<number>`count(*)` })
    .from(checkResults)
    .innerJoin(servers, eq(servers.id, checkResults.serverId))
    .where(and(eq(checkResults.check, "error_taxonomy"), isNull(servers.leftRegistryAt)))
    .groupBy(checkResults.state, checkResults.reason)
    .all();
}

export interface ToolChangeRow {
  id: number;
  serverName: string;
  at: string;
  toolName: string;
  kind: ToolChangeKind;
  path: string;
  before: string | null;
  after: string | null;
}

/** Tool-definition changes, newest first, optionally for one server. */
export function toolChangeList(
  db: SiteDb,
  opts: { serverName?: string; limit?: number; offset?: number } = {},
): { total: number; rows: ToolChangeRow[] } {
  const where = opts.serverName ? eq(servers.name, opts.serverName) : undefined;
  const total = db
    .select({ n: sql<number>`count(*)` })
    .from(toolChanges)
    .innerJoin(servers, eq(servers.id, toolChanges.serverId))
    .where(where)
    .get();
  const rows = db
    .select({
      id: toolChanges.id,
      serverName: servers.name,
      at: toolChanges.at,
      toolName: toolChanges.toolName,
      kind: toolChanges.kind,
      path: toolChanges.path,
      before: toolChanges.before,
      after: toolChanges.after,
    })
    .from(toolChanges)
    .innerJoin(servers, eq(servers.id, toolChanges.serverId))
    .where(where)
    .orderBy(desc(toolChanges.at), desc(toolChanges.id))
    .limit(opts.limit ?? 50)
    .offset(opts.offset ?? 0)
    .all();
  return { total: Number(total?.n ?? 0), rows };
}

export interface BadgeStates {
  name: string;
  leftRegistryAt: string | null;
  states: Record<CheckId, CheckState | null>;
}

/** The five denormalised states of one server, for badges: one indexed row, no joins. */
export function badgeStates(db: SiteDb, name: string): BadgeStates | null {
  const row = db
    .select({
      name: servers.name,
      leftRegistryAt: servers.leftRegistryAt,
      handshake: servers.stateHandshake,
      protocol_version: servers.stateProtocolVersion,
      tools_list: servers.stateToolsList,
      error_taxonomy: servers.stateErrorTaxonomy,
      auth_metadata: servers.stateAuthMetadata,
    })
    .from(servers)
    .where(eq(servers.name, name))
    .get();
  if (!row) return null;
  const { name: n, leftRegistryAt, ...states } = row;
  return { name: n, leftRegistryAt, states };
}
