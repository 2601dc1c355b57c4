// Lists of servers the pages read: the index (one page, filtered and sorted by the query, on indexes alone), the
// servers failing longest, and the sitemap's pages.
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { checkResults, servers } from "../../../db/schema";
import { CHECK_IDS, CHECK_STATES, REACHES, type CheckId, type CheckState, type NotCheckedCause, type Reach } from "../../vocabulary/checks";
import { reachCondition } from "./configuration";
import { HISTORY_SEVERITY } from "../history";
import { isObservationFilter, observationCondition, type ObservationFilter } from "../observations";
import { SERVER_SORTS, type ServerSort, type SortOrder } from "../../vocabulary/store";
import { INITIALIZE_FIRST_STATES, type InitializeFirstState } from "../../vocabulary/clients";
import { CLIENTS_NOT_PROBED, clientsReport, type ClientsReport, type ClientsVerdict } from "../../checks/clients";
import { escapeLike, stateColumn, stateSelect, statesOf, type ServerRow, type StateField } from "./row";

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
  "clients",
] as const satisfies readonly (keyof ServerRow)[];

/** One row of the server index. A state is null until the server's first run. */
export type ServerSummary = Pick<ServerRow, Exclude<(typeof summaryFields)[number], "clients">> & {
  /** Which clients can connect (architecture.md §2.10), each kind's state and sentence. */
  clients: ClientsReport;
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

/** The stored clients verdict (codes and facts); not probed yet when absent or unreadable. */
export function clientsVerdictOf(json: string | null): ClientsVerdict {
  if (!json) return CLIENTS_NOT_PROBED;
  try {
    const v = JSON.parse(json) as ClientsVerdict;
    return v?.initializeFirst && v.discoverFirst ? v : CLIENTS_NOT_PROBED;
  } catch {
    return CLIENTS_NOT_PROBED;
  }
}

export function toSummary(
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
    clients: clientsReport(clientsVerdictOf(r.clients)),
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
  /** Only servers whose latest complete read carries an observation, or one code (architecture.md §2.9). */
  observation?: ObservationFilter;
  /** Only servers whose initialize-first clients are in this state (architecture.md §2.10). */
  initializeFirst?: InitializeFirstState;
  /** Only servers with this reach (architecture.md §2.6, suite 0.15.0). */
  reach?: Reach;
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
  if (query.initializeFirst && (INITIALIZE_FIRST_STATES as readonly string[]).includes(query.initializeFirst)) {
    // Never probed under 0.15.0 counts as unknown: nobody has tried.
    where.push(
      query.initializeFirst === "unknown"
        ? (or(eq(servers.clientsInitializeFirst, "unknown"), isNull(servers.clientsInitializeFirst)) as SQL)
        : eq(servers.clientsInitializeFirst, query.initializeFirst),
    );
  }
  if (query.observation && isObservationFilter(query.observation)) where.push(observationCondition(query.observation));
  if (query.reach && (REACHES as readonly string[]).includes(query.reach)) where.push(reachCondition(query.reach));
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

/** Every server page for the sitemap, left servers included (their pages stay), in id order, paged. */
export function sitemapServers(db: Db, options: { offset: number; limit: number }): Pick<ServerRow, "name" | "lastProbedAt">[] {
  return db
    .select({ name: servers.name, lastProbedAt: servers.lastProbedAt })
    .from(servers)
    .orderBy(asc(servers.id))
    .limit(options.limit)
    .offset(options.offset)
    .all();
}
