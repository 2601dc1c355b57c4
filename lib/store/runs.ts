import { and, asc, desc, eq, isNotNull, isNull, lt, notInArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { fieldsOf, placeholders, prefixed, prepared } from "./prepared";
import { checkResults, runs, serverObservations, servers, transitions } from "../../db/schema";
import { CHECK_IDS, type CheckState, type RefusalCode } from "../vocabulary/checks";
import type { CertificateFacts, Exchange } from "../probe/types";
import { hintColumns, hintFromColumns, type Hint } from "../checks/hints";

// Runs (one per server probe, with its exchanges), the latest result per check, and state transitions.

export type RunRow = typeof runs.$inferSelect;
export type CheckResultSelect = typeof checkResults.$inferSelect;
export type TransitionSelect = typeof transitions.$inferSelect;

/** A run as the round writes it; the exchanges arrive already serialised. */
export type NewRun = Omit<typeof runs.$inferInsert, "id" | "exchanges"> & { exchangesJson: string };

/** A latest result as stored per server, with its evidence (exchange seqs in its run) as numbers and its
 * hint (architecture.md §2.8) as a value. */
export type CheckResultRow = Omit<CheckResultSelect, "serverId" | "evidence" | "hintCode" | "hintFacts"> & {
  evidence: number[];
  hint: Hint | null;
};

export type TransitionInsert = Omit<typeof transitions.$inferInsert, "id" | "serverId">;
export type TransitionRow = Omit<TransitionSelect, "id" | "serverId">;

/** A run without its evidence, as the server page shows it; its certificate as a value. */
export type RunSummary = Omit<
  RunRow,
  "serverId" | "roundId" | "exchanges" | "keepEvidence" | "certificate" | "verdictRunId" | "quorum" | "discovery"
> & {
  certificate: CertificateFacts | null;
};

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function insertRun(db: Db, run: NewRun): number {
  const { exchangesJson, ...rest } = run;
  const row = { ...rest, exchanges: exchangesJson };
  const fields = fieldsOf(row);
  const stmt = prepared(db, `runs.insert.${fields.join(",")}`, () =>
    db.insert(runs).values(placeholders(fields)).returning({ id: runs.id }).prepare(),
  );
  return stmt.get(row).id;
}

/** Drops the exchanges of a superseded run (and of the other regions' runs of its round) unless it was kept as evidence of a transition. */
export function pruneRunExchanges(db: Db, runId: number): void {
  prepared(db, "runs.pruneExchanges", () =>
    db
      .update(runs)
      .set({ exchanges: null })
      .where(and(or(eq(runs.id, sql.placeholder("runId")), eq(runs.verdictRunId, sql.placeholder("runId"))), eq(runs.keepEvidence, false)))
      .prepare(),
  ).run({ runId });
}

/** The run a server page shows: the server's recorded latest run, else its most recent one. */
export function latestRun(db: Db, serverId: number, lastRunId: number | null): RunRow | undefined {
  return lastRunId
    ? db.select().from(runs).where(eq(runs.id, lastRunId)).get()
    : db.select().from(runs).where(eq(runs.serverId, serverId)).orderBy(desc(runs.startedAt)).limit(1).get();
}

export function runSummary(run: RunRow): RunSummary {
  const {
    serverId: _s,
    roundId: _r,
    exchanges: _e,
    keepEvidence: _k,
    verdictRunId: _v,
    quorum: _q,
    discovery: _d,
    certificate,
    ...summary
  } = run;
  return { ...summary, certificate: parseJson<CertificateFacts | null>(certificate, null) };
}

/** Exchanges of one run, e.g. the run behind a transition (kept for runs at transitions). */
export function getRunExchanges(db: Db, runId: number): Exchange[] | null {
  const r = db.select({ exchanges: runs.exchanges }).from(runs).where(eq(runs.id, runId)).get();
  return r ? parseJson<Exchange[] | null>(r.exchanges, null) : null;
}

/** Deletes run rows older than `before` that no current result, transition or server still points at. */
export function pruneOldRuns(db: Db, before: string): number {
  // The latest complete read's observations (architecture.md §2.9) outlive the 30 days with their run.
  const referenced = db
    .select({ id: checkResults.runId })
    .from(checkResults)
    .union(db.select({ id: transitions.runId }).from(transitions))
    .union(db.select({ id: serverObservations.runId }).from(serverObservations));
  const res = db
    .delete(runs)
    .where(
      and(
        lt(runs.startedAt, before),
        eq(runs.keepEvidence, false),
        notInArray(runs.id, referenced),
        notInArray(runs.id, db.select({ id: sql<number>`coalesce(${servers.lastRunId}, 0)` }).from(servers)),
      ),
    )
    .run();
  return res.changes;
}

export function upsertCheckResults(db: Db, serverId: number, rows: CheckResultRow[]): void {
  if (!rows.length) return;
  // One statement for all five checks: `excluded` is the row that conflicted.
  const excluded = (col: string) => sql.raw(`excluded.${col}`);
  const values = rows.map(({ hint, ...r }) => ({
    ...r,
    serverId,
    evidence: JSON.stringify(r.evidence),
    ...hintColumns(hint ?? undefined),
  }));
  // Every field any row sets; a row without it writes null (the column's "not known").
  const fields = fieldsOf(Object.assign({}, ...values) as (typeof values)[number]);
  const stmt = prepared(db, `checkResults.upsert.${rows.length}.${fields.join(",")}`, () =>
    db
      .insert(checkResults)
      .values(rows.map((_, i) => placeholders(fields, `r${i}.`)))
      .onConflictDoUpdate({
        target: [checkResults.serverId, checkResults.check],
        set: {
          state: excluded("state"),
          reason: excluded("reason"),
          evidence: excluded("evidence"),
          suiteVersion: excluded("suite_version"),
          runId: excluded("run_id"),
          decidedAt: excluded("decided_at"),
          since: excluded("since"),
          code: excluded("code"),
          hintCode: excluded("hint_code"),
          hintFacts: excluded("hint_facts"),
          notCheckedCause: excluded("not_checked_cause"),
          noFallback: excluded("no_fallback"),
          noFallbackCode: excluded("no_fallback_code"),
        },
      })
      .prepare(),
  );
  const params: Record<string, unknown> = {};
  values.forEach((v, i) => {
    for (const f of fields) params[`r${i}.${f}`] = (v as Record<string, unknown>)[f] ?? null;
  });
  stmt.run(params);
}

/** The current state of each check of one server, as a new run is compared with it. */
export function currentStates(db: Db, serverId: number): Pick<CheckResultSelect, "check" | "state" | "since">[] {
  return prepared(db, "checkResults.current", () =>
    db
      .select({ check: checkResults.check, state: checkResults.state, since: checkResults.since })
      .from(checkResults)
      .where(eq(checkResults.serverId, sql.placeholder("serverId")))
      .prepare(),
  ).all({ serverId });
}

/** The latest results of one server, in CHECK_IDS order (a check never evaluated is absent). */
export function latestResults(db: Db, serverId: number): CheckResultRow[] {
  const rows = db.select().from(checkResults).where(eq(checkResults.serverId, serverId)).all();
  const out: CheckResultRow[] = [];
  for (const id of CHECK_IDS) {
    const r = rows.find((c) => c.check === id);
    if (!r) continue;
    const { serverId: _s, hintCode, hintFacts, ...rest } = r;
    out.push({ ...rest, evidence: parseJson<number[]>(r.evidence, []), hint: hintFromColumns(hintCode, hintFacts) });
  }
  return out;
}

/** Current error_taxonomy results of servers still listed, counted per refusal code (null: stored before codes were). */
export function refusalCounts(db: Db): { code: RefusalCode | null; count: number }[] {
  return db
    .select({ code: checkResults.code, count: sql<number>`count(*)` })
    .from(checkResults)
    .innerJoin(servers, eq(servers.id, checkResults.serverId))
    .where(and(eq(checkResults.check, "error_taxonomy"), isNull(servers.leftRegistryAt)))
    .groupBy(checkResults.code)
    .all();
}

export interface ReadCount {
  /** The latest probe read the tool list to its end (architecture.md §2.2). */
  complete: boolean;
  toolsList: CheckState | null;
  count: number;
}

/** Servers still in the registry and probed at least once, by whether their latest probe was a complete read and
 * by their tools_list state (a complete read is Verified, or Observed risk for malformed definitions). */
export function completeReadCensus(db: Db): ReadCount[] {
  return db
    .select({ complete: runs.read, toolsList: servers.stateToolsList, count: sql<number>`count(*)` })
    .from(servers)
    .innerJoin(runs, eq(runs.id, servers.lastRunId))
    .where(and(isNull(servers.leftRegistryAt), isNotNull(servers.lastProbedAt)))
    .groupBy(runs.read, servers.stateToolsList)
    .all()
    .map((r) => ({ ...r, count: Number(r.count) }));
}

export function insertTransitions(db: Db, serverId: number, rows: TransitionInsert[]): void {
  if (!rows.length) return;
  const values = rows.map((r) => ({ fromState: null, ...r, serverId }));
  const fields = fieldsOf(values[0]!);
  prepared(db, `transitions.insert.${rows.length}.${fields.join(",")}`, () =>
    db
      .insert(transitions)
      .values(rows.map((_, i) => placeholders(fields, `t${i}.`)))
      .prepare(),
  ).run(Object.assign({}, ...values.map((v, i) => prefixed(v, `t${i}.`))));
}

/** One server's transitions, most recent first. */
export function recentTransitions(db: Db, serverId: number, limit: number): TransitionRow[] {
  return db
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
    .where(eq(transitions.serverId, serverId))
    .orderBy(desc(transitions.at), asc(transitions.id))
    .limit(limit)
    .all();
}
