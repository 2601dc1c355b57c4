import { CHECK_IDS, type CheckId, type CheckState } from "../checks/vocabulary";
import { isCheckState } from "./states";

export type SearchParams = Record<string, string | string[] | undefined>;

export function firstParam(sp: SearchParams, key: string): string | undefined {
  const v = sp[key];
  return Array.isArray(v) ? v[0] : v;
}

export interface IndexQuery {
  q: string;
  page: number;
  states: Partial<Record<CheckId, CheckState>>;
  /** Also list servers that left the registry (their pages are kept). */
  includeLeft: boolean;
}

/** Reads the index page's GET form: ?q=…&page=…&<check id>=<state>. Unknown values are ignored. */
export function parseIndexQuery(sp: SearchParams): IndexQuery {
  const q = (firstParam(sp, "q") ?? "").trim().slice(0, 200);
  const pageRaw = Number.parseInt(firstParam(sp, "page") ?? "1", 10);
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? Math.min(pageRaw, 100_000) : 1;
  const states: Partial<Record<CheckId, CheckState>> = {};
  for (const id of CHECK_IDS) {
    const v = firstParam(sp, id);
    if (isCheckState(v)) states[id] = v;
  }
  return { q, page, states, includeLeft: firstParam(sp, "left") === "1" };
}

/** The index URL for a query, leaving out defaults so links stay short. */
export function indexHref(query: Partial<IndexQuery>): string {
  const p = new URLSearchParams();
  if (query.q) p.set("q", query.q);
  for (const id of CHECK_IDS) {
    const s = query.states?.[id];
    if (s) p.set(id, s);
  }
  if (query.includeLeft) p.set("left", "1");
  if (query.page && query.page > 1) p.set("page", String(query.page));
  const s = p.toString();
  return s ? `/?${s}` : "/";
}
