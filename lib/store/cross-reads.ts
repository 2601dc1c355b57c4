import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { transaction, type Db } from "../../db/client";
import { checkResults, crossReads, servers, toolSnapshots } from "../../db/schema";
import { DISCOVERY_CHECKS } from "../vocabulary/checks";
import { CROSS_READ_OUTCOMES, type CrossReadExplanation, type CrossReadOutcome } from "../vocabulary/store";
import { clientsVerdictOf } from "./servers/list";

export type CrossReadRecord = typeof crossReads.$inferSelect;

/** A registry server the cross-reader may sample: still listed, with a usable remote. */
export interface CrossReadCandidate {
  id: number;
  name: string;
  remoteUrl: string;
  transport: "streamable-http" | "sse";
}

export function crossReadCandidates(db: Db): CrossReadCandidate[] {
  return db
    .select({ id: servers.id, name: servers.name, remoteUrl: servers.remoteUrl, transport: servers.transport })
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), isNull(servers.needsConfig), isNotNull(servers.remoteUrl)))
    .all()
    .map((s) => ({ id: s.id, name: s.name, remoteUrl: s.remoteUrl!, transport: s.transport ?? "streamable-http" }));
}

/** The probe's latest complete read of a server, when its latest probe was one (a read from before a run of
 * failures is history, not what the probe sees now); null otherwise. */
export function currentProbeRead(db: Db, serverId: number): { tools: unknown[]; at: string } | null {
  const row = db
    .select({ tools: toolSnapshots.tools, lastSuccessAt: servers.lastSuccessAt, lastProbedAt: servers.lastProbedAt })
    .from(servers)
    .innerJoin(toolSnapshots, and(eq(toolSnapshots.serverId, servers.id), eq(toolSnapshots.hash, servers.currentToolHash)))
    .where(eq(servers.id, serverId))
    .get();
  if (!row || !row.lastSuccessAt || (row.lastProbedAt && row.lastProbedAt > row.lastSuccessAt)) return null;
  return { tools: JSON.parse(row.tools) as unknown[], at: row.lastSuccessAt };
}

export interface CrossReadInput {
  serverId: number;
  outcome: CrossReadOutcome;
  paths: string[];
  detail: string | null;
  crossToolCount: number | null;
  probeToolCount: number | null;
  readAt: string;
  /** Set when the difference follows from one of the probe's rules (architecture.md §6). */
  explanation?: { rule: CrossReadExplanation; code: number | null } | null;
}

/** What the probe's current discovery verdicts say about why it did not read what a legacy reader read. */
export type ProbeDiscoveryVerdict = Pick<
  typeof checkResults.$inferSelect,
  "check" | "state" | "notCheckedCause" | "noFallback" | "noFallbackCode"
>;

export function probeDiscoveryVerdicts(db: Db, serverId: number): ProbeDiscoveryVerdict[] {
  return db
    .select({
      check: checkResults.check,
      state: checkResults.state,
      notCheckedCause: checkResults.notCheckedCause,
      noFallback: checkResults.noFallback,
      noFallbackCode: checkResults.noFallbackCode,
    })
    .from(checkResults)
    .where(and(eq(checkResults.serverId, serverId), inArray(checkResults.check, [...DISCOVERY_CHECKS])))
    .all();
}

/** architecture.md §2.10: when the server's initialize-first clients cannot connect (its latest probe says `no`), the
 * answer that refused them (JSON-RPC code, else HTTP status); null otherwise. */
export function initializeFirstRefusal(db: Db, serverId: number): { code: number | null } | null {
  const row = db.select({ clients: servers.clients }).from(servers).where(eq(servers.id, serverId)).get();
  const v = clientsVerdictOf(row?.clients ?? null).initializeFirst;
  return v.state === "no" ? { code: v.facts.rpcCode ?? v.facts.status ?? null } : null;
}

/** Stores one server's outcome for a day (a re-run of the same day replaces it). */
export function putCrossRead(db: Db, day: string, r: CrossReadInput): void {
  const { explanation, ...rest } = r;
  const values = {
    day,
    ...rest,
    paths: JSON.stringify(r.paths),
    explained: !!explanation,
    explanation: explanation?.rule ?? null,
    explanationCode: explanation?.code ?? null,
  };
  db.insert(crossReads)
    .values(values)
    .onConflictDoUpdate({ target: [crossReads.day, crossReads.serverId], set: values })
    .run();
}

export function latestCrossReadDay(db: Db): string | null {
  return db.select({ day: crossReads.day }).from(crossReads).orderBy(desc(crossReads.day)).limit(1).get()?.day ?? null;
}

export interface CrossReadRow {
  name: string;
  outcome: CrossReadOutcome;
  paths: string[];
  detail: string | null;
  crossToolCount: number | null;
  probeToolCount: number | null;
  readAt: string;
  explained: boolean;
  explanation: CrossReadExplanation | null;
  explanationCode: number | null;
}

const rowColumns = {
  name: servers.name,
  outcome: crossReads.outcome,
  paths: crossReads.paths,
  detail: crossReads.detail,
  crossToolCount: crossReads.crossToolCount,
  probeToolCount: crossReads.probeToolCount,
  readAt: crossReads.readAt,
  explained: crossReads.explained,
  explanation: crossReads.explanation,
  explanationCode: crossReads.explanationCode,
};

/** One server's latest cross-read with its day, for its page (cross_reads_server_idx); null when it has none. */
export function latestCrossReadOf(db: Db, serverId: number): (CrossReadRow & { day: string }) | null {
  const r = db
    .select({ day: crossReads.day, ...rowColumns })
    .from(crossReads)
    .innerJoin(servers, eq(servers.id, crossReads.serverId))
    .where(eq(crossReads.serverId, serverId))
    .orderBy(desc(crossReads.day))
    .limit(1)
    .get();
  return r ? { ...r, paths: JSON.parse(r.paths) as string[] } : null;
}

/** One day's outcomes, the possible blind spots of the probe first (unexplained before explained), then by name. */
export function crossReadsOn(db: Db, day: string): CrossReadRow[] {
  const order = sql`case ${crossReads.outcome} ${sql.join(
    CROSS_READ_ORDER.map((o, i) => sql`when ${o} then ${i}`),
    sql` `,
  )} else 99 end`;
  return db
    .select(rowColumns)
    .from(crossReads)
    .innerJoin(servers, eq(servers.id, crossReads.serverId))
    .where(eq(crossReads.day, day))
    .orderBy(order, asc(crossReads.explained), asc(servers.name))
    .all()
    .map((r) => ({ ...r, paths: JSON.parse(r.paths) as string[] }));
}

/** The order a person scans outcomes in: what the probe may be missing first, plain agreement last. */
export const CROSS_READ_ORDER: readonly CrossReadOutcome[] = ["only_cross_reader", "disagreed", "only_probe", "neither", "agreed"];

/** A day's outcomes counted, and how many of its differences (disagreed, only_cross_reader) the probe's own rules
 * explain (architecture.md §6). */
export type CrossReadCounts = Record<CrossReadOutcome, number> & { explained: number };

export function emptyCrossReadCounts(): CrossReadCounts {
  return { ...(Object.fromEntries(CROSS_READ_OUTCOMES.map((o) => [o, 0])) as Record<CrossReadOutcome, number>), explained: 0 };
}

/** Whether an outcome is a difference between the readers (what the cross_read alert is about). */
export const isDifference = (outcome: CrossReadOutcome) => outcome === "disagreed" || outcome === "only_cross_reader";

export function crossReadCounts(db: Db, day: string): CrossReadCounts {
  const counts = emptyCrossReadCounts();
  const rows = db
    .select({ outcome: crossReads.outcome, explained: crossReads.explained, n: sql<number>`count(*)` })
    .from(crossReads)
    .where(eq(crossReads.day, day))
    .groupBy(crossReads.outcome, crossReads.explained)
    .all();
  for (const r of rows) {
    counts[r.outcome] += r.n;
    if (r.explained && isDifference(r.outcome)) counts.explained += r.n;
  }
  return counts;
}

/** Replaces a day's outcomes at once, so a page never shows half of a re-run. */
export function replaceCrossReads(db: Db, day: string, rows: CrossReadInput[]): void {
  transaction(db, () => {
    db.delete(crossReads).where(eq(crossReads.day, day)).run();
    for (const r of rows) putCrossRead(db, day, r);
  });
}
