import { z } from "zod";
import { CHECK_IDS, CHECK_STATES, OBSERVATION_CODES, REACHES, type CheckId, type CheckState, type Reach } from "../vocabulary/checks";
import type { ObservationFilter } from "../store/observations";
import { MAX_PAGE_SIZE, SORT_DEFAULT_ORDER } from "../store/servers/list";
import { SERVER_SORTS, SORT_ORDERS, type ServerSort, type SortOrder } from "../vocabulary/store";
import { INITIALIZE_FIRST_STATES, type InitializeFirstState } from "../vocabulary/clients";

export type SearchParams = Record<string, string | string[] | undefined>;

export function firstParam(sp: SearchParams, key: string): string | undefined {
  const v = sp[key];
  return Array.isArray(v) ? v[0] : v;
}

const stateParam = z.enum(CHECK_STATES).optional();

/** The server list's query parameters, one schema for the index page and GET /api/servers:
 * ?q=…&page=…&pageSize=…&includeLeft=1&overall=<state>&<check id>=<state>&sort=name|overall|last_probed&order=asc|desc,
 * and observations=any or observation=<code> (architecture.md §2.9: servers whose latest complete read carries one). */
export const ServerListParams = z.object({
  q: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  /** Also list servers that left the registry (their pages are kept). */
  includeLeft: z
    .enum(["1", "0", "true", "false"])
    .optional()
    .transform((v) => v === "1" || v === "true"),
  /** Only servers in this overall state (architecture.md §2). */
  overall: stateParam,
  sort: z.enum(SERVER_SORTS).default("name"),
  /** Default: the sort's natural order (names A to Z, worst overall state first, latest probe first). */
  order: z.enum(SORT_ORDERS).optional(),
  /** Only servers whose latest complete read carries an observation (architecture.md §2.9). */
  observations: z.enum(["any"]).optional(),
  /** Only servers whose latest complete read carries this observation code ("any": any code, as the form sends it). */
  observation: z.enum(["any", ...OBSERVATION_CODES]).optional(),
  /** Only servers whose initialize-first clients can connect (yes), cannot (no), or where that is not known (architecture.md §2.10). */
  initializeFirst: z.enum(INITIALIZE_FIRST_STATES).optional(),
  reach: z
    .enum(REACHES)
    .optional()
    .describe("Only servers with this reach: what probing them without the headers their registry entry lists found (suite 0.15.0)."),
  ...(Object.fromEntries(CHECK_IDS.map((id) => [id, stateParam])) as Record<CheckId, typeof stateParam>),
});
export type ServerListParams = z.output<typeof ServerListParams>;

/** A list query with every default filled in: what the store is asked and what a canonical link spells. */
export interface ListQuery {
  q: string;
  page: number;
  pageSize: number;
  includeLeft: boolean;
  states: Partial<Record<CheckId, CheckState>>;
  overall: CheckState | undefined;
  sort: ServerSort;
  order: SortOrder;
  /** One code, or any code; undefined for no filter. */
  observation: ObservationFilter | undefined;
  /** Only servers whose initialize-first clients are in this state (architecture.md §2.10); undefined for no filter. */
  initializeFirst?: InitializeFirstState;
  /** Only servers with this reach (architecture.md §2.6); undefined for no filter. */
  reach?: Reach;
}

/** Parsed parameters as the store's list query. */
export function listQueryOf(p: ServerListParams): ListQuery {
  const states: Partial<Record<CheckId, CheckState>> = {};
  for (const id of CHECK_IDS) {
    const s = p[id];
    if (s) states[id] = s;
  }
  const order = p.order ?? SORT_DEFAULT_ORDER[p.sort];
  const observation = p.observation ?? p.observations;
  return {
    q: p.q ?? "",
    page: p.page,
    pageSize: p.pageSize,
    includeLeft: p.includeLeft,
    states,
    overall: p.overall,
    sort: p.sort,
    order,
    observation,
    ...(p.initializeFirst ? { initializeFirst: p.initializeFirst } : {}),
    ...(p.reach ? { reach: p.reach } : {}),
  };
}

export type IndexQuery = Omit<ListQuery, "pageSize"> & {
  /** An observation filter the page cannot apply (an unknown code): the form says so and the list is unfiltered. */
  observationUnknown?: boolean;
};

/** The index page reads the same parameters leniently: a value that does not parse is ignored (its default
 * applies), and a long search is cut rather than refused. */
export function parseIndexQuery(sp: SearchParams): IndexQuery {
  const shape = ServerListParams.shape;
  const raw: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const value = key === "q" ? firstParam(sp, key)?.trim().slice(0, 200) : firstParam(sp, key);
    if (field.safeParse(value).success) raw[key] = value;
  }
  // Links shared before the page and the API agreed on one name still say ?left=1.
  const legacyLeft = firstParam(sp, "left");
  if (raw.includeLeft === undefined && ServerListParams.shape.includeLeft.safeParse(legacyLeft).success) raw.includeLeft = legacyLeft;
  const { pageSize: _pageSize, ...query } = listQueryOf(ServerListParams.parse(raw));
  // One canonical spelling for every filter it cannot apply, so a client's free text never makes a page of its own.
  const unknown =
    (firstParam(sp, "observation") !== undefined && raw.observation === undefined) ||
    (firstParam(sp, "observations") !== undefined && raw.observations === undefined);
  return unknown && !query.observation ? { ...query, observationUnknown: true } : query;
}

/** The index URL for a query, leaving out defaults so links stay short. */
export function indexHref(query: Partial<IndexQuery>): string {
  const p = new URLSearchParams();
  if (query.q) p.set("q", query.q);
  if (query.overall) p.set("overall", query.overall);
  for (const id of CHECK_IDS) {
    const s = query.states?.[id];
    if (s) p.set(id, s);
  }
  if (query.observation === "any") p.set("observations", "any");
  else if (query.observation) p.set("observation", query.observation);
  else if (query.observationUnknown) p.set("observation", "unknown");
  if (query.initializeFirst) p.set("initializeFirst", query.initializeFirst);
  if (query.reach) p.set("reach", query.reach);
  if (query.includeLeft) p.set("includeLeft", "1");
  const sort = query.sort ?? "name";
  if (sort !== "name") p.set("sort", sort);
  if (query.order && query.order !== SORT_DEFAULT_ORDER[sort]) p.set("order", query.order);
  if (query.page && query.page > 1) p.set("page", String(query.page));
  const s = p.toString();
  return s ? `/?${s}` : "/";
}

/** What the index form says when it cannot apply an observation filter. */
export const UNKNOWN_OBSERVATION_FILTER = `That is not an observation code, so the list is not filtered by one. Choose one of the codes (${OBSERVATION_CODES.join(", ")}) or "any".`;

/** A URL's query as the record pages receive (a repeated key becomes an array, as Next.js hands it over). */
export function searchParamsOf(query: URLSearchParams): SearchParams {
  const out: SearchParams = {};
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

/** The index's query in one canonical form: order, defaults, unknown keys and values the page ignores
 * leave it unchanged, so equal pages have equal text. */
export const canonicalIndexQuery = (sp: SearchParams) => indexHref(parseIndexQuery(sp)).replace(/^\/\??/, "");
