import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import { transaction, type Db } from "../../db/client";
import { placeholders, prepared } from "./prepared";
import { checkResults, servers, toolSnapshots } from "../../db/schema";
import { CHECK_IDS, CHECK_STATES, type CheckId, type CheckState, type NotCheckedCause } from "../checks/vocabulary";
import { REMOTE_STANDINGS, TRANSPORTS, type RegistryRemote } from "../probe/protocol";
import { SERVER_SORTS, type ServerSort, type SortOrder } from "./vocabulary";
import type { Exchange } from "../probe/types";
import { optOutFor } from "./optouts";
import {
  currentStates,
  latestResults,
  latestRun,
  parseJson,
  recentTransitions,
  runSummary,
  type CheckResultRow,
  type CheckResultSelect,
  type RunSummary,
  type TransitionRow,
} from "./runs";
import { serverToolChanges, type ServerToolChange } from "./tools";
import { latestCrossReadOf, type CrossReadRow } from "./cross-reads";
import { HISTORY_SEVERITY } from "./history";

// One row per registry server: the registry's listing, the latest state of each check (denormalised so
// the index filters and pages on indexes alone), and the schedule.

export type ServerRow = typeof servers.$inferSelect;

/** The denormalised state field behind each check: the one place a check id meets its column. */
export const STATE_FIELDS = {
  handshake: "stateHandshake",
  protocol_version: "stateProtocolVersion",
  tools_list: "stateToolsList",
  error_taxonomy: "stateErrorTaxonomy",
  auth_metadata: "stateAuthMetadata",
} as const satisfies Record<CheckId, keyof ServerRow>;
export type StateField = (typeof STATE_FIELDS)[CheckId];

/** The column holding a check's latest state (`stateColumn(id).name` is its SQL name). */
export function stateColumn(id: CheckId) {
  return servers[STATE_FIELDS[id]];
}

/** The five state columns, keyed by field, for a select. */
const stateSelect = Object.fromEntries(CHECK_IDS.map((id) => [STATE_FIELDS[id], stateColumn(id)])) as {
  [F in StateField]: (typeof servers)[F];
};

/** A server row's states keyed by check id; null until the first run. */
export function statesOf(row: Pick<ServerRow, StateField>): Record<CheckId, CheckState | null> {
  return Object.fromEntries(CHECK_IDS.map((id) => [id, row[STATE_FIELDS[id]]])) as Record<CheckId, CheckState | null>;
}

/** The state fields of a server row for states keyed by check id. */
export function stateFields(states: Record<CheckId, CheckState | null>): Pick<ServerRow, StateField> {
  return Object.fromEntries(CHECK_IDS.map((id) => [STATE_FIELDS[id], states[id]])) as Pick<ServerRow, StateField>;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// ---- The registry's view --------------------------------------------------------------------------

/** A registry listing in the shape the store keeps; `remotes` absent keeps one remote, the probed one. */
export type ListedServer = Pick<ServerRow, "name" | "title" | "description" | "version" | "host" | "needsConfig" | "registryUpdatedAt"> & {
  url: string;
  transport: NonNullable<ServerRow["transport"]>;
  remotes?: RegistryRemote[];
};

/** The remotes column back as values; rows written before suite 0.13.0 (or without it) get their one remote. */
export function remotesOf(row: Pick<ServerRow, "remotes" | "remoteUrl" | "transport" | "needsConfig">): RegistryRemote[] {
  const fromJson = parseJson<unknown>(row.remotes, null);
  if (Array.isArray(fromJson)) {
    const ok = fromJson.filter(
      (r): r is RegistryRemote =>
        typeof r === "object" &&
        r !== null &&
        typeof (r as RegistryRemote).url === "string" &&
        (TRANSPORTS as readonly string[]).includes((r as RegistryRemote).transport) &&
        (REMOTE_STANDINGS as readonly string[]).includes((r as RegistryRemote).standing),
    );
    if (ok.length) return ok.map((r) => ({ ...r, why: typeof r.why === "string" ? r.why : null }));
  }
  if (!row.remoteUrl) return [];
  return [
    {
      url: row.remoteUrl,
      transport: row.transport ?? "streamable-http",
      standing: row.needsConfig ? "needs_configuration" : "probed",
      why: row.needsConfig,
    },
  ];
}

export interface RegistryApplyResult {
  added: number;
  updated: number;
  /** Servers newly marked as gone from the registry. */
  left: number;
  /** Servers listed again after leaving. */
  returned: number;
}

/** The columns a registry listing sets on a row it updates (an insert also writes `name` and `firstSeenAt`). */
const REGISTRY_FIELDS = [
  "title",
  "description",
  "version",
  "remoteUrl",
  "transport",
  "host",
  "needsConfig",
  "remotes",
  "registryUpdatedAt",
  "registryStatus",
  "lastSeenAt",
  "leftRegistryAt",
] as const;

function registryStatements(db: Db) {
  return prepared(db, "servers.registry", () => {
    const set = Object.fromEntries(REGISTRY_FIELDS.map((f) => [f, sql`${sql.placeholder(f)}`]));
    const byId = eq(servers.id, sql.placeholder("id"));
    return {
      insert: db
        .insert(servers)
        .values(placeholders(["name", "firstSeenAt", ...REGISTRY_FIELDS] as const))
        .prepare(),
      update: db.update(servers).set(set).where(byId).prepare(),
      // A new remote or configuration need makes the old verdicts stale: probe it in the next round.
      updateDue: db
        .update(servers)
        .set({ ...set, nextDueAt: null, unchangedStreak: 0 })
        .where(byId)
        .prepare(),
    };
  });
}

interface RegistryApply {
  existing: Map<
    string,
    {
      id: number;
      name: string;
      remoteUrl: string | null;
      transport: string | null;
      needsConfig: string | null;
      leftRegistryAt: string | null;
    }
  >;
  seen: Set<string>;
  result: RegistryApplyResult;
}

function startRegistryApply(db: Db): RegistryApply {
  const rows = db
    .select({
      id: servers.id,
      name: servers.name,
      remoteUrl: servers.remoteUrl,
      transport: servers.transport,
      needsConfig: servers.needsConfig,
      leftRegistryAt: servers.leftRegistryAt,
    })
    .from(servers)
    .all();
  return { existing: new Map(rows.map((r) => [r.name, r])), seen: new Set(), result: { added: 0, updated: 0, left: 0, returned: 0 } };
}

function applyListed(db: Db, a: RegistryApply, listed: ListedServer[], now: string): void {
  const st = registryStatements(db);
  for (const s of listed) {
    a.seen.add(s.name);
    const prev = a.existing.get(s.name);
    const fields = {
      title: s.title,
      description: s.description,
      version: s.version,
      remoteUrl: s.url,
      transport: s.transport,
      host: s.host,
      needsConfig: s.needsConfig,
      remotes: s.remotes ? JSON.stringify(s.remotes) : null,
      registryUpdatedAt: s.registryUpdatedAt,
      registryStatus: "active",
      lastSeenAt: now,
      leftRegistryAt: null,
    };
    if (!prev) {
      st.insert.run({ name: s.name, firstSeenAt: now, ...fields });
      a.result.added++;
      continue;
    }
    const moved = prev.remoteUrl !== s.url || prev.transport !== s.transport || prev.needsConfig !== s.needsConfig;
    if (prev.leftRegistryAt) a.result.returned++;
    (moved || prev.leftRegistryAt ? st.updateDue : st.update).run({ ...fields, id: prev.id });
    a.result.updated++;
  }
}

function markGone(db: Db, a: RegistryApply, now: string): RegistryApplyResult {
  const gone = [...a.existing.values()].filter((r) => !a.seen.has(r.name) && !r.leftRegistryAt).map((r) => r.id);
  for (let i = 0; i < gone.length; i += 500) {
    db.update(servers)
      .set({ leftRegistryAt: now, registryStatus: "left" })
      .where(inArray(servers.id, gone.slice(i, i + 500)))
      .run();
  }
  a.result.left = gone.length;
  return a.result;
}

/** Replaces the registry view in one transaction: upserts every listed server, marks the unlisted ones as
 * having left (their history stays), and clears that mark for servers listed again. */
export function applyRegistrySnapshot(db: Db, listed: ListedServer[], now: string): RegistryApplyResult {
  return transaction(db, () => {
    const a = startRegistryApply(db);
    applyListed(db, a, listed, now);
    return markGone(db, a, now);
  });
}

/** The same in short transactions of `step` servers, yielding to the event loop between them, so a large
 * registry never blocks a process that also serves pages. Upserts are idempotent: an interrupted apply is
 * completed by the next one; servers are marked as gone only once every listed one was written. */
export async function applyRegistrySnapshotInSteps(db: Db, listed: ListedServer[], now: string, step = 250): Promise<RegistryApplyResult> {
  const a = startRegistryApply(db);
  for (let i = 0; i < listed.length; i += step) {
    transaction(db, () => applyListed(db, a, listed.slice(i, i + step), now));
    await new Promise((r) => setImmediate(r));
  }
  return transaction(db, () => markGone(db, a, now));
}

// ---- What a round reads and writes ----------------------------------------------------------------

/** A server as a round needs it. `stateHandshake`: the latest handshake verdict, which decides whether a
 * network-level failure gets a second probe before it is recorded (architecture.md §2.7). */
export type DueServer = Pick<ServerRow, "id" | "name" | "remoteUrl" | "transport" | "host" | "needsConfig" | "stateHandshake">;

/** The columns of a DueServer. */
export const dueServerColumns = {
  id: servers.id,
  name: servers.name,
  remoteUrl: servers.remoteUrl,
  transport: servers.transport,
  host: servers.host,
  needsConfig: servers.needsConfig,
  stateHandshake: servers.stateHandshake,
};

/** Servers still in the registry whose next probe is due (never probed first, then oldest due). */
export function listDueServers(db: Db, now: string, limit?: number): DueServer[] {
  const q = db
    .select(dueServerColumns)
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), or(isNull(servers.nextDueAt), lte(servers.nextDueAt, now))))
    .orderBy(sql`${servers.nextDueAt} is not null`, servers.nextDueAt, servers.id);
  return limit ? q.limit(limit).all() : q.all();
}

/** The stored state a new run is compared with. */
export type ServerRunState = Pick<
  ServerRow,
  "id" | "name" | "consecutiveFailures" | "unchangedStreak" | "currentToolHash" | "lastRunId" | "lastSuccessAt"
> & { checks: Pick<CheckResultSelect, "check" | "state" | "since">[] };

export function getServerRunState(db: Db, serverId: number): ServerRunState | null {
  const s = prepared(db, "servers.runState", () =>
    db
      .select({
        id: servers.id,
        name: servers.name,
        consecutiveFailures: servers.consecutiveFailures,
        unchangedStreak: servers.unchangedStreak,
        currentToolHash: servers.currentToolHash,
        lastRunId: servers.lastRunId,
        lastSuccessAt: servers.lastSuccessAt,
      })
      .from(servers)
      .where(eq(servers.id, sql.placeholder("serverId")))
      .prepare(),
  ).get({ serverId });
  if (!s) return null;
  return { ...s, checks: currentStates(db, serverId) };
}

export type ServerRunUpdate = Partial<
  Pick<
    typeof servers.$inferInsert,
    | "era"
    | "protocolVersion"
    | "lastProbedAt"
    | "lastSuccessAt"
    | StateField
    | "overall"
    | "overallCause"
    | "nextDueAt"
    | "consecutiveFailures"
    | "unchangedStreak"
    | "scheduleReason"
    | "toolCount"
    | "currentToolHash"
    | "lastRunId"
  >
>;

export function updateServer(db: Db, serverId: number, set: ServerRunUpdate): void {
  // One prepared statement per set of fields written; a round uses a handful.
  const fields = (Object.keys(set) as (keyof ServerRunUpdate)[]).filter((k) => set[k] !== undefined).sort();
  if (!fields.length) return;
  prepared(db, `servers.update.${fields.join(",")}`, () =>
    db
      .update(servers)
      .set(Object.fromEntries(fields.map((f) => [f, sql`${sql.placeholder(f)}`])))
      .where(eq(servers.id, sql.placeholder("serverId")))
      .prepare(),
  ).run({ ...set, serverId });
}

/** Makes every server on `host` (a host name, or host:port) due again, e.g. after an opt-out is removed. */
export function makeHostDue(db: Db, host: string, reason: string): number {
  const h = host.toLowerCase();
  return db
    .update(servers)
    .set({ nextDueAt: null, scheduleReason: reason })
    .where(or(eq(servers.host, h), sql`${servers.host} like ${`${escapeLike(h)}:%`} escape '\\'`))
    .run().changes;
}

/** Makes every listed server due now (the demo's first round after a restart re-reads the whole fleet). */
export function makeAllDue(db: Db, now: string, reason: string): number {
  return db.update(servers).set({ nextDueAt: now, scheduleReason: reason }).where(isNull(servers.leftRegistryAt)).run().changes;
}

// ---- What the pages read ---------------------------------------------------------------------------

const summaryFields = [
  "name",
  "title",
  "description",
  "remoteUrl",
  "transport",
  "host",
  "era",
  "protocolVersion",
  "needsConfig",
  "toolCount",
  "lastProbedAt",
  "lastSuccessAt",
  "nextDueAt",
  "leftRegistryAt",
  "overall",
  "overallCause",
] as const satisfies readonly (keyof ServerRow)[];

/** One row of the server index. A state is null until the server's first run. */
export type ServerSummary = Pick<ServerRow, (typeof summaryFields)[number]> & {
  states: Record<CheckId, CheckState | null>;
  /** The kind of each Not checked check (absent for other states and for results stored before kinds were). */
  notCheckedCauses: Partial<Record<CheckId, NotCheckedCause>>;
};

const summaryColumns = {
  ...(Object.fromEntries(summaryFields.map((f) => [f, servers[f]])) as {
    [F in (typeof summaryFields)[number]]: (typeof servers)[F];
  }),
  ...stateSelect,
};

function toSummary(
  r: Pick<ServerRow, (typeof summaryFields)[number] | StateField>,
  notCheckedCauses: ServerSummary["notCheckedCauses"],
): ServerSummary {
  return {
    name: r.name,
    title: r.title,
    description: r.description,
    remoteUrl: r.remoteUrl,
    transport: r.transport,
    host: r.host,
    era: r.era,
    protocolVersion: r.protocolVersion,
    states: statesOf(r),
    overall: r.overall,
    overallCause: r.overallCause,
    notCheckedCauses,
    needsConfig: r.needsConfig,
    toolCount: r.toolCount,
    lastProbedAt: r.lastProbedAt,
    lastSuccessAt: r.lastSuccessAt,
    nextDueAt: r.nextDueAt,
    leftRegistryAt: r.leftRegistryAt,
  };
}

export interface ServerListQuery {
  /** Substring of the registry name or title (case-insensitive). */
  q?: string;
  states?: Partial<Record<CheckId, CheckState>>;
  /** 1-based. */
  page?: number;
  pageSize?: number;
  includeLeft?: boolean;
  /** Only servers in this overall state. */
  overall?: CheckState;
  /** Default name; `order` defaults to the sort's natural one (SORT_DEFAULT_ORDER). */
  sort?: ServerSort;
  order?: SortOrder;
}

/** The order each sort reads in unless asked otherwise: names A to Z, the worst overall state first, the most
 * recent probe first. */
export const SORT_DEFAULT_ORDER: Record<ServerSort, SortOrder> = { name: "asc", overall: "asc", last_probed: "desc" };

function orderBy(sort: ServerSort, order: SortOrder): SQL[] {
  const dir = (e: SQL | typeof servers.name) => (order === "asc" ? asc(e) : desc(e));
  switch (sort) {
    case "name":
      return [dir(servers.name)];
    // Worst first, as a day of the history strip is ranked; servers not probed yet come last either way.
    case "overall": {
      const rank = sql`case ${servers.overall} ${sql.join(
        HISTORY_SEVERITY.map((s, i) => sql`when ${s} then ${i}`),
        sql` `,
      )} else null end`;
      return [sql`${servers.overall} is null`, dir(rank), asc(servers.name)];
    }
    case "last_probed":
      return [sql`${servers.lastProbedAt} is null`, dir(sql`${servers.lastProbedAt}`), asc(servers.name)];
  }
}

export interface ServerList {
  total: number;
  page: number;
  pageSize: number;
  rows: ServerSummary[];
}

export const MAX_PAGE_SIZE = 200;

/** Paged server index, filtered and ordered as the query asks (by registry name unless `sort` says otherwise);
 * state filters use the (state, name) indexes. */
export function listServers(db: Db, query: ServerListQuery = {}): ServerList {
  const pageSize = Math.min(Math.max(Math.trunc(query.pageSize ?? 50), 1), MAX_PAGE_SIZE);
  const page = Math.max(Math.trunc(query.page ?? 1), 1);
  const where: SQL[] = [];
  if (!query.includeLeft) where.push(isNull(servers.leftRegistryAt));
  for (const id of CHECK_IDS) {
    const state = query.states?.[id];
    if (state && (CHECK_STATES as readonly string[]).includes(state)) where.push(eq(stateColumn(id), state));
  }
  if (query.overall && (CHECK_STATES as readonly string[]).includes(query.overall)) where.push(eq(servers.overall, query.overall));
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
  const total =
    db
      .select({ n: sql<number>`count(*)` })
      .from(servers)
      .where(cond)
      .get()?.n ?? 0;
  const sort = query.sort && (SERVER_SORTS as readonly string[]).includes(query.sort) ? query.sort : "name";
  const rows = db
    .select({ id: servers.id, ...summaryColumns })
    .from(servers)
    .where(cond)
    .orderBy(...orderBy(sort, query.order ?? SORT_DEFAULT_ORDER[sort]))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  const causes = notCheckedCausesOf(
    db,
    rows.map((r) => r.id),
  );
  return { total, page, pageSize, rows: rows.map((r) => toSummary(r, causes.get(r.id) ?? {})) };
}

/** The Not checked kinds of some servers' latest results, one indexed lookup per page of the index. */
function notCheckedCausesOf(db: Db, serverIds: number[]): Map<number, ServerSummary["notCheckedCauses"]> {
  const out = new Map<number, ServerSummary["notCheckedCauses"]>();
  if (serverIds.length === 0) return out;
  const rows = db
    .select({ serverId: checkResults.serverId, check: checkResults.check, cause: checkResults.notCheckedCause })
    .from(checkResults)
    .where(and(inArray(checkResults.serverId, serverIds), isNotNull(checkResults.notCheckedCause)))
    .all();
  for (const r of rows) {
    const m = out.get(r.serverId) ?? {};
    m[r.check] = r.cause!;
    out.set(r.serverId, m);
  }
  return out;
}

export interface SummaryCounts {
  /** Servers currently listed in the registry. */
  servers: number;
  /** Per check, how many listed servers are in each state (servers never evaluated are not counted). */
  byCheck: Record<CheckId, Record<CheckState, number>>;
  /** How many listed servers are in each overall state. */
  byOverall: Record<CheckState, number>;
}

/** The counts from one grouped pass over the covering servers_states_idx (a few milliseconds at 30,000 servers
 * instead of a table scan): what the index, /metrics on every scrape and the round's registry check read. */
export function summaryCounts(db: Db): SummaryCounts {
  const groups = prepared(db, "servers.stateCounts", () =>
    db
      .select({ overall: servers.overall, ...stateSelect, n: sql<number>`count(*)` })
      .from(servers)
      .where(isNull(servers.leftRegistryAt))
      .groupBy(servers.overall, ...CHECK_IDS.map(stateColumn))
      .prepare(),
  ).all();
  const zeros = () => Object.fromEntries(CHECK_STATES.map((s) => [s, 0])) as Record<CheckState, number>;
  const byCheck = Object.fromEntries(CHECK_IDS.map((id) => [id, zeros()])) as Record<CheckId, Record<CheckState, number>>;
  const byOverall = zeros();
  let total = 0;
  for (const g of groups) {
    total += g.n;
    if (g.overall) byOverall[g.overall] += g.n;
    for (const id of CHECK_IDS) {
      const state = g[STATE_FIELDS[id]];
      if (state) byCheck[id][state] += g.n;
    }
  }
  return { servers: total, byCheck, byOverall };
}

export interface ServerDetail extends ServerSummary, Pick<ServerRow, "version" | "firstSeenAt" | "lastSeenAt" | "registryStatus"> {
  /** Every listed remote with its standing (architecture.md §2.6). */
  remotes: RegistryRemote[];
  /** Present (in CHECK_IDS order) once the server was evaluated. */
  checks: CheckResultRow[];
  latestRun: RunSummary | null;
  /** Exchanges of the latest run; empty when none were kept. */
  exchanges: Exchange[];
  /** Most recent first. */
  transitions: TransitionRow[];
  /** The current complete tool list (canonical JSON objects), or null if never read. */
  tools: unknown[] | null;
  toolHash: string | null;
  /** Most recent first. */
  toolChanges: ServerToolChange[];
  schedule: Pick<ServerRow, "nextDueAt" | "consecutiveFailures" | "scheduleReason">;
  /** The operator's opt-out for this host, if any. */
  optOut: { source: string; reason: string; since: string } | null;
  /** The server's latest cross-read (architecture.md §6), when it was sampled. */
  crossRead: (CrossReadRow & { day: string }) | null;
}

const DETAIL_TRANSITIONS = 50;
const DETAIL_TOOL_CHANGES = 100;

/** Everything the server page and its JSON show; null for an unknown registry name. */
export function getServerDetail(db: Db, name: string): ServerDetail | null {
  const s = db.select().from(servers).where(eq(servers.name, name)).get();
  if (!s) return null;
  const run = latestRun(db, s.id, s.lastRunId);
  const snapshot = s.currentToolHash
    ? db
        .select({ tools: toolSnapshots.tools })
        .from(toolSnapshots)
        .where(and(eq(toolSnapshots.serverId, s.id), eq(toolSnapshots.hash, s.currentToolHash)))
        .get()
    : undefined;
  const checks = latestResults(db, s.id);
  const causes = Object.fromEntries(checks.filter((c) => c.notCheckedCause).map((c) => [c.check, c.notCheckedCause!]));
  return {
    ...toSummary(s, causes),
    version: s.version,
    firstSeenAt: s.firstSeenAt,
    lastSeenAt: s.lastSeenAt,
    registryStatus: s.registryStatus,
    remotes: remotesOf(s),
    checks,
    latestRun: run ? runSummary(run) : null,
    exchanges: parseJson<Exchange[]>(run?.exchanges, []),
    transitions: recentTransitions(db, s.id, DETAIL_TRANSITIONS),
    tools: snapshot ? parseJson<unknown[]>(snapshot.tools, []) : null,
    toolHash: s.currentToolHash,
    toolChanges: serverToolChanges(db, s.id, DETAIL_TOOL_CHANGES),
    schedule: {
      nextDueAt: s.nextDueAt,
      consecutiveFailures: s.consecutiveFailures,
      scheduleReason: s.scheduleReason,
    },
    optOut: (s.host ? optOutFor(db, s.host) : undefined) ?? null,
    crossRead: latestCrossReadOf(db, s.id),
  };
}

/** Whether a registry name is known. */
export function serverExists(db: Db, name: string): boolean {
  return !!db.select({ id: servers.id }).from(servers).where(eq(servers.name, name)).get();
}

export type FailingServer = Pick<
  ServerRow,
  "name" | "host" | "lastSuccessAt" | "lastProbedAt" | "firstSeenAt" | "consecutiveFailures" | "stateHandshake" | "stateToolsList"
>;

/** Registry servers whose discovery currently fails or looks risky, longest without a successful read first. */
export function failingLongest(db: Db, limit = 20): FailingServer[] {
  const failing = or(
    eq(servers.stateHandshake, "failed"),
    eq(servers.stateProtocolVersion, "failed"),
    inArray(servers.stateToolsList, ["failed", "observed_risk"]),
  );
  return (
    db
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
      .all()
  );
}

export function countServers(db: Db): { inRegistry: number; left: number } {
  const row = db
    .select({
      inRegistry: sql<number>`sum(case when ${servers.leftRegistryAt} is null then 1 else 0 end)`,
      left: sql<number>`sum(case when ${servers.leftRegistryAt} is null then 0 else 1 end)`,
    })
    .from(servers)
    .get();
  return { inRegistry: Number(row?.inRegistry ?? 0), left: Number(row?.left ?? 0) };
}

export type RevisionCount = { protocolVersion: string; era: ServerRow["era"]; count: number };

/** Agreed protocol revisions across servers still in the registry. */
export function revisionCensus(db: Db): RevisionCount[] {
  return db
    .select({ protocolVersion: sql<string>`${servers.protocolVersion}`, era: servers.era, count: sql<number>`count(*)` })
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), isNotNull(servers.protocolVersion)))
    .groupBy(servers.protocolVersion, servers.era)
    .orderBy(desc(sql`count(*)`), desc(servers.protocolVersion))
    .all();
}

export type BadgeStates = Pick<ServerRow, "name" | "leftRegistryAt" | "overall"> & { states: Record<CheckId, CheckState | null> };

/** The five denormalised states and the overall state of one server, for badges: one indexed row, no joins. */
export function badgeStates(db: Db, name: string): BadgeStates | null {
  const row = db
    .select({ name: servers.name, leftRegistryAt: servers.leftRegistryAt, overall: servers.overall, ...stateSelect })
    .from(servers)
    .where(eq(servers.name, name))
    .get();
  return row ? { name: row.name, leftRegistryAt: row.leftRegistryAt, overall: row.overall, states: statesOf(row) } : null;
}

export type CardFacts = BadgeStates & Pick<ServerRow, "title" | "lastProbedAt" | "lastRunId">;

/** What a server's link-preview card shows: its states, title and last probe, from one indexed row. */
export function serverCardFacts(db: Db, name: string): CardFacts | null {
  const row = db
    .select({
      name: servers.name,
      title: servers.title,
      leftRegistryAt: servers.leftRegistryAt,
      overall: servers.overall,
      lastProbedAt: servers.lastProbedAt,
      lastRunId: servers.lastRunId,
      ...stateSelect,
    })
    .from(servers)
    .where(eq(servers.name, name))
    .get();
  return row
    ? {
        name: row.name,
        title: row.title,
        leftRegistryAt: row.leftRegistryAt,
        overall: row.overall,
        lastProbedAt: row.lastProbedAt,
        lastRunId: row.lastRunId,
        states: statesOf(row),
      }
    : null;
}

/** Every server page for the sitemap, left servers included (their pages stay), in id order, paged. */
export function sitemapServers(db: Db, o: { offset: number; limit: number }): Pick<ServerRow, "name" | "lastProbedAt">[] {
  return db
    .select({ name: servers.name, lastProbedAt: servers.lastProbedAt })
    .from(servers)
    .orderBy(asc(servers.id))
    .limit(o.limit)
    .offset(o.offset)
    .all();
}
