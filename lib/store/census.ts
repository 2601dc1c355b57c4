import { asc, gte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { censusDays } from "../../db/schema";
import { CHECK_STATES, NOT_CHECKED_CAUSES, REACHES, REFUSAL_CODES, type CheckState, type NotCheckedCause } from "../vocabulary/checks";
import { ERAS, TRANSPORTS } from "../probe/protocol";
import { observationCensus } from "./observations";
import { DISCOVER_FIRST_STATES, INITIALIZE_FIRST_STATES } from "../vocabulary/clients";
import { AUTH_OUTCOMES, REPROBE_ROUND_TRIGGER, type AuthOutcome, type CensusSource, type UptimeOutcome } from "../vocabulary/store";

// The census over time (architecture.md §3): one row of aggregates per UTC day, kept forever. A row counts the servers
// listed in the registry at one moment (the end of the day's first round) by their latest stored result. Rows are
// written by the round (`censusSnapshot` over the latest results) or rebuilt afterwards from the runs and transitions
// still stored (`rebuildCensusDay`); both classify a server with the same functions below, so the two agree.

/** Keys of each count. Every map holds every key of its vocabulary (zeros included), except `revisions` and
 * `observations`, which hold the keys seen. */
export const ERA_KEYS = [...ERAS, "none"] as const;
export const TRANSPORT_KEYS = [...TRANSPORTS, "none"] as const;
export const REFUSAL_KEYS = [...REFUSAL_CODES, "uncoded"] as const;
export const OVERALL_KEYS = [...CHECK_STATES, "none", "unknown"] as const;
export const CAUSE_KEYS = [...NOT_CHECKED_CAUSES, "unknown"] as const;
/** Reach of the servers that need configuration (architecture.md §2.6, 0.15.0); `unknown`: no probe could tell yet. */
export const REACH_KEYS = [
  ...REACHES.filter((r): r is Exclude<(typeof REACHES)[number], "not_needed"> => r !== "not_needed"),
  "unknown",
] as const;

export type Counts<K extends string> = Record<K, number>;

export interface CensusCounts {
  /** Servers listed in the registry at `asOf`. */
  registry: number;
  /** Of those, servers with a stored result (probed at least once). */
  probed: number;
  /** Rebuilt rows only: servers counted by a stored run older than the run retention, after which a run may be missing. */
  uncertain: number;
  /** Servers whose latest result is Not checked because every listed remote needs configuration (architecture.md §2.6). */
  needsConfiguration: number;
  /** Agreed protocol revision → servers (servers with no agreed revision are not in it). */
  revisions: Record<string, number>;
  /** Era of the latest handshake: modern (server/discover), legacy (initialize or HTTP+SSE), unknown (no handshake
   * completed), none (never probed). */
  eras: Counts<(typeof ERA_KEYS)[number]>;
  /** Transport of the remote the probe uses (architecture.md §2.6), for servers with one: those needing configuration
   * have none. Null on rebuilt rows: runs do not record it. */
  transports: Counts<(typeof TRANSPORT_KEYS)[number]> | null;
  auth: Counts<AuthOutcome>;
  /** error_taxonomy's refusal code of each server with an error_taxonomy result; `uncoded` for results stored before codes
   * were. Null on rebuilt rows: transitions keep states, not codes. */
  refusals: Counts<(typeof REFUSAL_KEYS)[number]> | null;
  /** Overall state (architecture.md §2); `none` never probed, `unknown` a rebuilt run stored before overall states were. */
  overall: Counts<(typeof OVERALL_KEYS)[number]>;
  /** Servers whose overall state is Not checked, by its cause; `unknown` when the result does not record one. */
  notCheckedCauses: Counts<(typeof CAUSE_KEYS)[number]>;
  /** Observation code → servers whose latest complete read carries it (architecture.md §2.9), every code; null on rebuilt rows
   * (observations go with the runs the retention prunes) and on rows written before observations were recorded. */
  observations: Record<string, number> | null;
  /** Servers that need configuration, by what reaching them without the listed headers found (suite 0.15.0); null on
   * rebuilt rows (runs do not record it) and on rows written before 0.15.0. */
  reach: Counts<(typeof REACH_KEYS)[number]> | null;
  /** Servers per state of each kind of client (architecture.md §2.10, suite 0.15.0); a server not yet probed under 0.15.0
   * counts as unknown, as in the list filter `?initializeFirst=`. Null on rebuilt rows and rows written before it. */
  clients: CensusClients | null;
}

export interface CensusClients {
  initializeFirst: Counts<(typeof INITIALIZE_FIRST_STATES)[number]>;
  discoverFirst: Counts<(typeof DISCOVER_FIRST_STATES)[number]>;
}

export interface CensusDay extends CensusCounts {
  day: string;
  source: CensusSource;
  asOf: string;
  writtenAt: string;
  roundId: number | null;
}

const zeros = <K extends string>(keys: readonly K[]): Counts<K> => Object.fromEntries(keys.map((k) => [k, 0])) as Counts<K>;

function bump(map: Record<string, number>, key: string, n: number): void {
  map[key] = (map[key] ?? 0) + n;
}

/** What a server's auth outcome is decided from: three latest check states and the Not checked causes of two. */
export interface AuthFacts {
  handshake: CheckState | null;
  handshakeCause: NotCheckedCause | null;
  toolsList: CheckState | null;
  toolsListCause: NotCheckedCause | null;
  authMetadata: CheckState | null;
}

/** A credential gate stopped the handshake or the tool list: the gate's metadata is usable when auth_metadata is Verified.
 * Otherwise open when the handshake completed; not reached when it did not (or the server was never probed); unknown
 * when a Not checked result that decides it carries no cause (stored before causes were). */
export function authOutcomeOf(f: AuthFacts): AuthOutcome {
  if (f.handshakeCause === "credential_required" || f.toolsListCause === "credential_required") {
    return f.authMetadata === "verified" ? "gate_usable_metadata" : "gate_no_usable_metadata";
  }
  if (f.handshake === "verified") return f.toolsList === "not_checked" && f.toolsListCause === null ? "unknown" : "open";
  if (f.handshake === "not_checked" && f.handshakeCause === null) return "unknown";
  return "not_reached";
}

/** What one stored run says of the causes the auth outcome needs, for a day rebuilt from runs (architecture.md §3). Runs keep
 * the overall state and its cause, and whether the probe counted as up; a handshake that did not complete but counts as up
 * met the credential gate; a tool list that was not checked after a completed handshake met it when the overall cause says
 * so, or when the overall state is Observed risk (the tool list and the withheld call are Not checked then, so the risk is
 * auth_metadata's, judged on a challenge); a Failed overall state never comes with a gate. */
export function runAuthFacts(
  run: { overall: CheckState | null; overallCause: NotCheckedCause | null; uptime: UptimeOutcome | null },
  states: { handshake: CheckState | null; toolsList: CheckState | null; authMetadata: CheckState | null },
): AuthFacts {
  const other: NotCheckedCause = "not_reached";
  let handshakeCause: NotCheckedCause | null = null;
  if (states.handshake === "not_checked" && run.uptime !== null) handshakeCause = run.uptime === "up" ? "credential_required" : other;
  let toolsListCause: NotCheckedCause | null = null;
  if (states.handshake === "verified" && states.toolsList === "not_checked") {
    if (run.overall === "not_checked") toolsListCause = run.overallCause;
    else if (run.overall === "observed_risk") toolsListCause = "credential_required";
    else if (run.overall === "failed") toolsListCause = other;
  }
  return { handshake: states.handshake, handshakeCause, toolsList: states.toolsList, toolsListCause, authMetadata: states.authMetadata };
}

/** One listed server as a census counts it. */
interface Counted {
  n: number;
  probed: boolean;
  era: string | null;
  revision: string | null;
  overall: CheckState | null;
  overallCause: NotCheckedCause | null;
  auth: AuthFacts;
}

/** Adds up servers (grouped rows of `n` servers each); transports, refusals and observations come from elsewhere. */
function tally(
  rows: Iterable<Counted>,
  rebuilt: boolean,
): Omit<CensusCounts, "transports" | "refusals" | "observations" | "uncertain" | "reach" | "clients"> {
  const out = {
    registry: 0,
    probed: 0,
    needsConfiguration: 0,
    revisions: {} as Record<string, number>,
    eras: zeros(ERA_KEYS),
    auth: zeros(AUTH_OUTCOMES),
    overall: zeros(OVERALL_KEYS),
    notCheckedCauses: zeros(CAUSE_KEYS),
  };
  for (const r of rows) {
    out.registry += r.n;
    if (!r.probed) {
      out.eras.none += r.n;
      out.overall.none += r.n;
      out.auth.not_reached += r.n;
      continue;
    }
    out.probed += r.n;
    out.eras[(ERAS as readonly string[]).includes(r.era ?? "") ? (r.era as (typeof ERAS)[number]) : "unknown"] += r.n;
    if (r.revision) bump(out.revisions, r.revision, r.n);
    out.auth[authOutcomeOf(r.auth)] += r.n;
    out.overall[r.overall ?? (rebuilt ? "unknown" : "none")] += r.n;
    if (r.overall === "not_checked") out.notCheckedCauses[r.overallCause ?? "unknown"] += r.n;
    if (r.overall === "not_checked" && r.overallCause === "needs_configuration") out.needsConfiguration += r.n;
  }
  return out;
}

type Raw = Record<string, unknown>;
const all = (db: Db, query: string, params: Raw = {}) => db.$client.prepare(query).all(params) as Raw[];
const str = (v: unknown) => (typeof v === "string" ? v : null);

/** The census of the latest stored results of every server listed now: what the round stores after the day's first round. */
export function censusSnapshot(db: Db): CensusCounts {
  const grouped = all(
    db,
    `SELECT count(*) AS n, s.overall IS NOT NULL AS probed, s.era, s.protocol_version AS revision, s.overall, s.overall_cause,
       hs.state AS hs, hs.not_checked_cause AS hs_cause, tl.state AS tl, tl.not_checked_cause AS tl_cause, am.state AS am
     FROM servers s
     LEFT JOIN check_results hs ON hs.server_id = s.id AND hs."check" = 'handshake'
     LEFT JOIN check_results tl ON tl.server_id = s.id AND tl."check" = 'tools_list'
     LEFT JOIN check_results am ON am.server_id = s.id AND am."check" = 'auth_metadata'
     WHERE s.left_registry_at IS NULL
     GROUP BY 2, 3, 4, 5, 6, 7, 8, 9, 10, 11`,
  );
  const counts = tally(
    grouped.map((r) => ({
      n: Number(r.n),
      probed: Number(r.probed) === 1,
      era: str(r.era),
      revision: str(r.revision),
      overall: str(r.overall) as CheckState | null,
      overallCause: str(r.overall_cause) as NotCheckedCause | null,
      auth: {
        handshake: str(r.hs) as CheckState | null,
        handshakeCause: str(r.hs_cause) as NotCheckedCause | null,
        toolsList: str(r.tl) as CheckState | null,
        toolsListCause: str(r.tl_cause) as NotCheckedCause | null,
        authMetadata: str(r.am) as CheckState | null,
      },
    })),
    false,
  );
  const transports = zeros(TRANSPORT_KEYS);
  for (const r of all(
    db,
    `SELECT transport, count(*) AS n FROM servers WHERE left_registry_at IS NULL AND needs_config IS NULL GROUP BY transport`,
  ))
    transports[
      (TRANSPORTS as readonly string[]).includes(str(r.transport) ?? "") ? (r.transport as (typeof TRANSPORTS)[number]) : "none"
    ] += Number(r.n);
  const refusals = zeros(REFUSAL_KEYS);
  for (const r of all(
    db,
    `SELECT c.code, count(*) AS n FROM check_results c JOIN servers s ON s.id = c.server_id
     WHERE c."check" = 'error_taxonomy' AND s.left_registry_at IS NULL GROUP BY c.code`,
  ))
    refusals[(REFUSAL_CODES as readonly string[]).includes(str(r.code) ?? "") ? (r.code as (typeof REFUSAL_CODES)[number]) : "uncoded"] +=
      Number(r.n);
  // architecture.md §2.9: every code, servers in the registry whose latest complete read carries it.
  const observations = Object.fromEntries(observationCensus(db).map((o) => [o.code, o.servers]));
  return { ...counts, uncertain: 0, transports, refusals, observations, reach: reachCensus(db), clients: clientsCensus(db) };
}

/** architecture.md §2.10 (0.15.0): servers listed now by each kind of client's state; never probed under 0.15.0 is unknown. */
function clientsCensus(db: Db): CensusClients {
  const out: CensusClients = { initializeFirst: zeros(INITIALIZE_FIRST_STATES), discoverFirst: zeros(DISCOVER_FIRST_STATES) };
  for (const r of all(
    db,
    `SELECT clients_initialize_first AS i, clients_discover_first AS d, count(*) AS n FROM servers
     WHERE left_registry_at IS NULL GROUP BY 1, 2`,
  )) {
    const i = str(r.i);
    const d = str(r.d);
    out.initializeFirst[
      (INITIALIZE_FIRST_STATES as readonly (string | null)[]).includes(i) ? (i as keyof CensusClients["initializeFirst"]) : "unknown"
    ] += Number(r.n);
    out.discoverFirst[
      (DISCOVER_FIRST_STATES as readonly (string | null)[]).includes(d) ? (d as keyof CensusClients["discoverFirst"]) : "unknown"
    ] += Number(r.n);
  }
  return out;
}

/** architecture.md §2.6 (0.15.0): servers listed now that need configuration, by reach, under the rule of the server JSON's
 * `configuration` (lib/store/servers/configuration.ts): no header names means no address; a stored reach that does not
 * belong to a header-only need is unknown. */
function reachCensus(db: Db): NonNullable<CensusCounts["reach"]> {
  const out = zeros(REACH_KEYS);
  for (const r of all(
    db,
    `SELECT config_headers IS NULL AS no_headers, reach, count(*) AS n FROM servers
     WHERE left_registry_at IS NULL AND needs_config IS NOT NULL GROUP BY 1, 2`,
  )) {
    const reach = str(r.reach);
    const key =
      Number(r.no_headers) === 1
        ? "no_address"
        : reach === "answered" || reach === "refused" || reach === "gated" || reach === "unreachable"
          ? reach
          : "unknown";
    out[key] += Number(r.n);
  }
  return out;
}

/** A day the census can be rebuilt for: a UTC day on which a full round (not a one-server re-probe) finished, and the end
 * of the first such round. */
export interface RebuildCandidate {
  day: string;
  asOf: string;
  roundId: number;
}

/** Days from `fromDay` up to (not including) `beforeDay` with a finished full round and no census row. */
export function censusRebuildCandidates(db: Db, fromDay: string, beforeDay: string): RebuildCandidate[] {
  return all(
    db,
    `SELECT substr(r.finished_at, 1, 10) AS day, min(r.finished_at) AS as_of, r.id AS round_id FROM rounds r
     WHERE r.status = 'done' AND r.trigger <> @reprobe AND r.finished_at >= @from AND r.finished_at < @before
       AND NOT EXISTS (SELECT 1 FROM census_days c WHERE c.day = substr(r.finished_at, 1, 10))
     GROUP BY 1 ORDER BY 1`,
    { reprobe: REPROBE_ROUND_TRIGGER, from: fromDay, before: beforeDay },
  ).map((r) => ({ day: String(r.day), asOf: String(r.as_of), roundId: Number(r.round_id) }));
}

/** The census at `asOf` rebuilt from what is stored: the servers listed then (first seen by then, not gone by then), each
 * counted by its latest run started by then and the states of its latest transitions by then. A run older than
 * `retainedFrom` (the run retention) may have been followed by runs since pruned: such servers are counted by it and
 * reported in `uncertain`. Transports, refusal shapes and observation codes are not kept per day, so they are null. */
export function rebuildCensusDay(db: Db, asOf: string, retainedFrom: string): CensusCounts {
  const servers = all(
    db,
    `SELECT s.id, r.era, r.protocol_version AS revision, r.overall, r.overall_cause, r.uptime, r.started_at
     FROM servers s
     LEFT JOIN runs r ON r.id = (SELECT id FROM runs WHERE server_id = s.id AND started_at <= @t ORDER BY started_at DESC, id DESC LIMIT 1)
     WHERE s.first_seen_at <= @t AND (s.left_registry_at IS NULL OR s.left_registry_at > @t)`,
    { t: asOf },
  );
  const states = new Map<number, { handshake: CheckState | null; toolsList: CheckState | null; authMetadata: CheckState | null }>();
  for (const t of all(
    db,
    `SELECT server_id, "check", to_state, max(id) FROM transitions
     WHERE at <= @t AND "check" IN ('handshake', 'tools_list', 'auth_metadata') GROUP BY server_id, "check"`,
    { t: asOf },
  )) {
    const id = Number(t.server_id);
    const s = states.get(id) ?? { handshake: null, toolsList: null, authMetadata: null };
    const state = str(t.to_state) as CheckState;
    if (t.check === "handshake") s.handshake = state;
    else if (t.check === "tools_list") s.toolsList = state;
    else s.authMetadata = state;
    states.set(id, s);
  }
  let uncertain = 0;
  const counts = tally(
    servers.map((r) => {
      const probed = r.started_at !== null;
      if (probed && String(r.started_at) < retainedFrom) uncertain++;
      const run = {
        overall: str(r.overall) as CheckState | null,
        overallCause: str(r.overall_cause) as NotCheckedCause | null,
        uptime: str(r.uptime) as UptimeOutcome | null,
      };
      return {
        n: 1,
        probed,
        era: str(r.era),
        revision: str(r.revision),
        overall: run.overall,
        overallCause: run.overallCause,
        auth: runAuthFacts(run, states.get(Number(r.id)) ?? { handshake: null, toolsList: null, authMetadata: null }),
      };
    }),
    true,
  );
  return { ...counts, uncertain, transports: null, refusals: null, observations: null, reach: null, clients: null };
}

const json = (v: unknown) => (v === null ? null : JSON.stringify(v));

/** Stores a day's row unless the day has one already (a restart, a second round, a rebuild after the round's own row):
 * true when this call wrote it. */
export function insertCensusDay(db: Db, row: CensusDay): boolean {
  const res = db
    .insert(censusDays)
    .values({
      day: row.day,
      source: row.source,
      asOf: row.asOf,
      writtenAt: row.writtenAt,
      roundId: row.roundId,
      registry: row.registry,
      probed: row.probed,
      uncertain: row.uncertain,
      needsConfiguration: row.needsConfiguration,
      revisions: JSON.stringify(row.revisions),
      eras: JSON.stringify(row.eras),
      transports: json(row.transports),
      auth: JSON.stringify(row.auth),
      refusals: json(row.refusals),
      overall: JSON.stringify(row.overall),
      notCheckedCauses: JSON.stringify(row.notCheckedCauses),
      observations: json(row.observations),
      reach: json(row.reach),
      clients: json(row.clients),
    })
    .onConflictDoNothing({ target: censusDays.day })
    .run();
  return res.changes > 0;
}

export function hasCensusDay(db: Db, day: string): boolean {
  return db.$client.prepare("SELECT 1 FROM census_days WHERE day = ?").get(day) !== undefined;
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** Stored rows, oldest first, from `fromDay` on (every row without it). */
export function listCensusDays(db: Db, fromDay?: string): CensusDay[] {
  const q = db.select().from(censusDays);
  const rows = (fromDay ? q.where(gte(censusDays.day, fromDay)) : q).orderBy(asc(censusDays.day)).all();
  return rows.map((r) => ({
    day: r.day,
    source: r.source,
    asOf: r.asOf,
    writtenAt: r.writtenAt,
    roundId: r.roundId,
    registry: r.registry,
    probed: r.probed,
    uncertain: r.uncertain,
    needsConfiguration: r.needsConfiguration,
    revisions: parse<Record<string, number>>(r.revisions)!,
    eras: parse<CensusCounts["eras"]>(r.eras)!,
    transports: parse<NonNullable<CensusCounts["transports"]>>(r.transports),
    auth: parse<CensusCounts["auth"]>(r.auth)!,
    refusals: parse<NonNullable<CensusCounts["refusals"]>>(r.refusals),
    overall: parse<CensusCounts["overall"]>(r.overall)!,
    notCheckedCauses: parse<CensusCounts["notCheckedCauses"]>(r.notCheckedCauses)!,
    observations: parse<Record<string, number>>(r.observations),
    reach: parse<NonNullable<CensusCounts["reach"]>>(r.reach),
    clients: parse<CensusClients>(r.clients),
  }));
}

/** The census data version: changes whenever a row is added (cached answers of /census and /data are keyed on it). */
export function censusVersion(db: Db): string {
  const r = db
    .select({ n: sql<number>`count(*)`, last: sql<string | null>`max(${censusDays.writtenAt})` })
    .from(censusDays)
    .get();
  return `${r?.n ?? 0}.${r?.last ?? ""}`;
}
