import { KNOWN_REVISIONS } from "../probe/protocol";
import { AUTH_OUTCOMES } from "../vocabulary/store";
import { DISCOVER_FIRST_STATES, INITIALIZE_FIRST_STATES } from "../vocabulary/clients";
import { CAUSE_KEYS, ERA_KEYS, OVERALL_KEYS, REACH_KEYS, REFUSAL_KEYS, TRANSPORT_KEYS, type CensusDay } from "../store/census";

// The daily census rows as downloads (architecture.md §3): /data/census.csv, one row per day and one column per count, and
// /data/census.json, the rows as stored. Both carry the licence the README states for the data.

export const DATA_LICENSE = {
  id: "CC-BY-4.0",
  name: "Creative Commons Attribution 4.0 International",
  url: "https://creativecommons.org/licenses/by/4.0/",
};

/** A count's column: its group and key, "auth:open", "revision:2026-07-28". */
type Group = [prefix: string, pick: (r: CensusDay) => Record<string, number> | null, keys: readonly string[] | null];

const GROUPS: Group[] = [
  ["era", (r) => r.eras, ERA_KEYS],
  ["transport", (r) => r.transports, TRANSPORT_KEYS],
  ["auth", (r) => r.auth, AUTH_OUTCOMES],
  ["overall", (r) => r.overall, OVERALL_KEYS],
  ["not_checked", (r) => r.notCheckedCauses, CAUSE_KEYS],
  ["refusal", (r) => r.refusals, REFUSAL_KEYS],
  ["revision", (r) => r.revisions, null],
  ["observation", (r) => r.observations, null],
  ["reach", (r) => r.reach, REACH_KEYS],
  ["initialize_first", (r) => r.clients?.initializeFirst ?? null, INITIALIZE_FIRST_STATES],
  ["discover_first", (r) => r.clients?.discoverFirst ?? null, DISCOVER_FIRST_STATES],
];

const FIXED = ["day", "source", "as_of", "registry", "probed", "uncertain", "needs_configuration"] as const;

const byRevision = (a: string, b: string) => {
  const ia = (KNOWN_REVISIONS as readonly string[]).indexOf(a);
  const ib = (KNOWN_REVISIONS as readonly string[]).indexOf(b);
  return ia >= 0 && ib >= 0 ? ia - ib : ia >= 0 ? -1 : ib >= 0 ? 1 : a < b ? -1 : 1;
};

/** The CSV's header: the fixed columns, then every count of every group (revisions and observation codes: those seen). */
export function censusCsvColumns(rows: readonly CensusDay[]): string[] {
  const cols: string[] = [...FIXED];
  for (const [prefix, pick, keys] of GROUPS) {
    const seen = keys ?? [...new Set(rows.flatMap((r) => Object.keys(pick(r) ?? {})))].sort(prefix === "revision" ? byRevision : undefined);
    cols.push(...seen.map((k) => `${prefix}:${k}`));
  }
  return cols;
}

const cell = (v: string | number) => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV, oldest day first; a group a row does not carry (a rebuilt day's transports) has empty cells. */
export function censusCsv(rows: readonly CensusDay[]): string {
  const cols = censusCsvColumns(rows);
  const lines = [cols.map(cell).join(",")];
  for (const r of rows) {
    const fixed: (string | number)[] = [r.day, r.source, r.asOf, r.registry, r.probed, r.uncertain, r.needsConfiguration];
    const rest = cols.slice(FIXED.length).map((c) => {
      const [prefix, key] = [c.slice(0, c.indexOf(":")), c.slice(c.indexOf(":") + 1)];
      const map = GROUPS.find((g) => g[0] === prefix)![1](r);
      return map === null ? "" : (map[key] ?? 0);
    });
    lines.push([...fixed, ...rest].map(cell).join(","));
  }
  return lines.join("\r\n") + "\r\n";
}

/** /data/census.json: the licence and the rows. */
export function censusJson(rows: CensusDay[]) {
  return { license: DATA_LICENSE, days: rows };
}
