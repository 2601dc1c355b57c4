import { and, asc, desc, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { checkResults, runs, servers, toolChanges, toolSnapshots, transitions, optOuts } from "../../db/schema";
import { type ToolChangeKind } from "./vocabulary";
import { CHECK_IDS, CHECK_STATES, type CheckId, type CheckState } from "../checks/vocabulary";
import { type Era, type Transport } from "../probe/protocol";
import type { Exchange } from "../probe/types";

export type { Db } from "../../db/client";

/** The denormalised state column behind each check, so filters run on indexes. */
export const STATE_COLUMNS = {
  handshake: servers.stateHandshake,
  protocol_version: servers.stateProtocolVersion,
  tools_list: servers.stateToolsList,
  error_taxonomy: servers.stateErrorTaxonomy,
  auth_metadata: servers.stateAuthMetadata,
} as const satisfies Record<CheckId, unknown>;

/** One row of the server index. A state is null until the server's first run. */
export interface ServerSummary {
  name: string;
  title: string | null;
  description: string | null;
  remoteUrl: string | null;
  transport: Transport | null;
  host: string | null;
  era: Era | null;
  protocolVersion: string | null;
  states: Record<CheckId, CheckState | null>;
  needsConfig: string | null;
  toolCount: number | null;
  lastProbedAt: string | null;
  /** The last complete read: the tool list read to its end, malformed definitions or not (DESIGN §2.2). */
  lastSuccessAt: string | null;
  nextDueAt: string | null;
  leftRegistryAt: string | null;
}

export interface ServerListQuery {
  /** Substring of the registry name or title (case-insensitive). */
  q?: string;
  states?: Partial<Record<CheckId, CheckState>>;
  /** 1-based. */
  page?: number;
  pageSize?: number;
  includeLeft?: boolean;
}

export interface ServerList {
  total: number;
  page: number;
  pageSize: number;
  rows: ServerSummary[];
}

export interface CheckDetail {
  check: CheckId;
  state: CheckState;
  reason: string;
  /** Exchange seqs in the run the result came from. */
  evidence: number[];
  suiteVersion: string;
  decidedAt: string;
  /** When the current state began. */
  since: string;
  runId: number;
}

export interface TransitionRow {
  check: CheckId;
  fromState: CheckState | null;
  toState: CheckState;
  reason: string;
  suiteVersion: string;
  runId: number;
  at: string;
}

export interface ToolChangeRow {
  at: string;
  toolName: string;
  kind: ToolChangeKind;
  /** Field path inside the tool; "" for a whole tool. */
  path: string;
  /** JSON text, or null. */
  before: string | null;
  after: string | null;
}

export interface RunSummary {
  id: number;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  suiteVersion: string;
  era: Era;
  protocolVersion: string | null;
  requests: number;
  requestsOk: number;
  read: boolean;
}

export interface ServerDetail extends ServerSummary {
  version: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  registryStatus: string;
  /** Present (in CHECK_IDS order) once the server was evaluated. */
  checks: CheckDetail[];
  latestRun: RunSummary | null;
  /** Exchanges of the latest run; empty when none were kept. */
  exchanges: Exchange[];
  /** Most recent first. */
  transitions: TransitionRow[];
  /** The current complete tool list (canonical JSON objects), or null if never read. */
  tools: unknown[] | null;
  toolHash: string | null;
  /** Most recent first. */
  toolChanges: ToolChangeRow[];
  schedule: { nextDueAt: string | null; consecutiveFailures: number; scheduleReason: string | null };
  /** The operator's opt-out for this host, if any. */
  optOut: { source: string; reason: string; since: string } | null;
}

export const MAX_PAGE_SIZE = 200;

const summaryColumns = {
  name: servers.name,
  title: servers.title,
  description: servers.description,
  remoteUrl: servers.remoteUrl,
  transport: servers.transport,
  host: servers.host,
  era: servers.era,
  protocolVersion: servers.protocolVersion,
  needsConfig: servers.needsConfig,
  toolCount: servers.toolCount,
  lastProbedAt: servers.lastProbedAt,
  lastSuccessAt: servers.lastSuccessAt,
  nextDueAt: servers.nextDueAt,
  leftRegistryAt: servers.leftRegistryAt,
  stateHandshake: servers.stateHandshake,
  stateProtocolVersion: servers.stateProtocolVersion,
  stateToolsList: servers.stateToolsList,
  stateErrorTaxonomy: servers.stateErrorTaxonomy,
  stateAuthMetadata: servers.stateAuthMetadata,
};

type SummaryRow = { [K in keyof typeof summaryColumns]: (typeof summaryColumns)[K]["_"]["data"] | null };

function toSummary(r: SummaryRow): ServerSummary {
  return {
    name: r.name as string,
    title: r.title,
    description: r.description,
    remoteUrl: r.remoteUrl,
    transport: r.transport,
    host: r.host,
    era: r.era,
    protocolVersion: r.protocolVersion,
    states: {
      handshake: r.stateHandshake,
      protocol_version: r.stateProtocolVersion,
      tools_list: r.stateToolsList,
      error_taxonomy: r.stateErrorTaxonomy,
      auth_metadata: r.stateAuthMetadata,
    },
    needsConfig: r.needsConfig,
    toolCount: r.toolCount,
    lastProbedAt: r.lastProbedAt,
    lastSuccessAt: r.lastSuccessAt,
    nextDueAt: r.nextDueAt,
    leftRegistryAt: r.leftRegistryAt,
  };
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Paged server index, ordered by registry name; state filters use the (state, name) indexes. */
export function listServers(db: Db, query: ServerListQuery = {}): ServerList {
  const pageSize = Math.min(Math.max(Math.trunc(query.pageSize ?? 50), 1), MAX_PAGE_SIZE);
  const page = Math.max(Math.trunc(query.page ?? 1), 1);
  const where: SQL[] = [];
  if (!query.includeLeft) where.push(isNull(servers.leftRegistryAt));
  for (const id of CHECK_IDS) {
    const state = query.states?.[id];
    if (state && (CHECK_STATES as readonly string[]).includes(state)) where.push(eq(STATE_COLUMNS[id], state));
  }
  const q = query.q?.trim();
  if (q) {
    const pattern = `%${escapeLike(q.toLowerCase())}%`;
    where.push(
      or(
        sql`lower(${servers.name}) like ${pattern} escape '\\'`,
        sql`lower(coalesce(${servers.title}, '')) like ${pattern} escape '\\'`,
      ) as SQL,
    );
  }
  const cond = where.length ? and(...where) : undefined;
  const total = db.select({ n: sql<number>`count(*)` }).from(servers).where(cond).get()?.n ?? 0;
  const rows = db
    .select(summaryColumns)
    .from(servers)
    .where(cond)
    .orderBy(asc(servers.name))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  return { total, page, pageSize, rows: rows.map(toSummary) };
}

export interface SummaryCounts {
  /** Servers currently listed in the registry. */
  servers: number;
  /** Per check, how many listed servers are in each state (servers never evaluated are not counted). */
  byCheck: Record<CheckId, Record<CheckState, number>>;
}

export function summaryCounts(db: Db): SummaryCounts {
  // One pass over the listed servers: a sum per (check, state) pair.
  const fields: Record<string, SQL<number>> = { total: sql<number>`count(*)` };
  for (const id of CHECK_IDS) {
    for (const state of CHECK_STATES) {
      fields[`${id}:${state}`] = sql<number>`coalesce(sum(${STATE_COLUMNS[id]} = ${state}), 0)`;
    }
  }
  const row = db.select(fields).from(servers).where(isNull(servers.leftRegistryAt)).get() ?? {};
  const byCheck = Object.fromEntries(
    CHECK_IDS.map((id) => [id, Object.fromEntries(CHECK_STATES.map((s) => [s, Number(row[`${id}:${s}`] ?? 0)]))]),
  ) as Record<CheckId, Record<CheckState, number>>;
  return { servers: Number(row.total ?? 0), byCheck };
}

function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export const DETAIL_TRANSITIONS = 50;
export const DETAIL_TOOL_CHANGES = 100;

/** Everything the server page and its JSON show; null for an unknown registry name. */
export function getServerDetail(db: Db, name: string): ServerDetail | null {
  const s = db.select().from(servers).where(eq(servers.name, name)).get();
  if (!s) return null;
  const summary = toSummary(s);

  const checkRows = db.select().from(checkResults).where(eq(checkResults.serverId, s.id)).all();
  const checks: CheckDetail[] = [];
  for (const id of CHECK_IDS) {
    const r = checkRows.find((c) => c.check === id);
    if (r)
      checks.push({
        check: r.check,
        state: r.state,
        reason: r.reason,
        evidence: parseJson<number[]>(r.evidence, []),
        suiteVersion: r.suiteVersion,
        decidedAt: r.decidedAt,
        since: r.since,
        runId: r.runId,
      });
  }

  const run = s.lastRunId
    ? db.select().from(runs).where(eq(runs.id, s.lastRunId)).get()
    : db.select().from(runs).where(eq(runs.serverId, s.id)).orderBy(desc(runs.startedAt)).limit(1).get();

  const transitionRows = db
    .select({
      check: transitions.check,
      fromState: transitions.fromState,
      toState: transitions.toState,
      reason: transitions.reason,
      suiteVersion: transitions.suiteVersion,
      runId: transitions.runId,
      at: transitions.at,
    })
    .from(transitions)
    .where(eq(transitions.serverId, s.id))
    .orderBy(desc(transitions.at), asc(transitions.id))
    .limit(DETAIL_TRANSITIONS)
    .all();

  const snapshot = s.currentToolHash
    ? db
        .select({ tools: toolSnapshots.tools })
        .from(toolSnapshots)
        .where(and(eq(toolSnapshots.serverId, s.id), eq(toolSnapshots.hash, s.currentToolHash)))
        .get()
    : undefined;

  const changeRows = db
    .select({
      at: toolChanges.at,
      toolName: toolChanges.toolName,
      kind: toolChanges.kind,
      path: toolChanges.path,
      before: toolChanges.before,
      after: toolChanges.after,
    })
    .from(toolChanges)
    .where(eq(toolChanges.serverId, s.id))
    .orderBy(desc(toolChanges.at), asc(toolChanges.id))
    .limit(DETAIL_TOOL_CHANGES)
    .all();

  const optOut = s.host
    ? db
        .select({ source: optOuts.source, reason: optOuts.reason, since: optOuts.since })
        .from(optOuts)
        .where(eq(optOuts.host, s.host))
        .get()
    : undefined;

  return {
    ...summary,
    version: s.version,
    firstSeenAt: s.firstSeenAt,
    lastSeenAt: s.lastSeenAt,
    registryStatus: s.registryStatus,
    checks,
    latestRun: run
      ? {
          id: run.id,
          startedAt: run.startedAt,
          finishedAt: run.finishedAt,
          durationMs: run.durationMs,
          suiteVersion: run.suiteVersion,
          era: run.era,
          protocolVersion: run.protocolVersion,
          requests: run.requests,
          requestsOk: run.requestsOk,
          read: run.read,
        }
      : null,
    exchanges: parseJson<Exchange[]>(run?.exchanges, []),
    transitions: transitionRows,
    tools: snapshot ? parseJson<unknown[]>(snapshot.tools, []) : null,
    toolHash: s.currentToolHash,
    toolChanges: changeRows,
    schedule: {
      nextDueAt: s.nextDueAt,
      consecutiveFailures: s.consecutiveFailures,
      scheduleReason: s.scheduleReason,
    },
    optOut: optOut ?? null,
  };
}

/** Exchanges of one run, e.g. the run behind a transition (kept for runs at transitions). */
export function getRunExchanges(db: Db, runId: number): Exchange[] | null {
  const r = db.select({ exchanges: runs.exchanges }).from(runs).where(eq(runs.id, runId)).get();
  return r ? parseJson<Exchange[] | null>(r.exchanges, null) : null;
}

/** Kept for callers that only need to know whether a name exists. */
export function serverExists(db: Db, name: string): boolean {
  return !!db.select({ id: servers.id }).from(servers).where(eq(servers.name, name)).get();
}
