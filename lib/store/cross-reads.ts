import { and, asc, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { transaction, type Db } from "../../db/client";
import { crossReads, servers, toolSnapshots } from "../../db/schema";
import { CROSS_READ_OUTCOMES, type CrossReadOutcome } from "./vocabulary";

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
}

/** Stores one server's outcome for a day (a re-run of the same day replaces it). */
export function putCrossRead(db: Db, day: string, r: CrossReadInput): void {
  const values = { day, ...r, paths: JSON.stringify(r.paths) };
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
}

/** One day's outcomes, the possible blind spots of the probe first, then by name. */
export function crossReadsOn(db: Db, day: string): CrossReadRow[] {
  const order = sql`case ${crossReads.outcome} ${sql.join(
    CROSS_READ_ORDER.map((o, i) => sql`when ${o} then ${i}`),
    sql` `,
  )} else 99 end`;
  return db
    .select({
      name: servers.name,
      outcome: crossReads.outcome,
      paths: crossReads.paths,
      detail: crossReads.detail,
      crossToolCount: crossReads.crossToolCount,
      probeToolCount: crossReads.probeToolCount,
      readAt: crossReads.readAt,
    })
    .from(crossReads)
    .innerJoin(servers, eq(servers.id, crossReads.serverId))
    .where(eq(crossReads.day, day))
    .orderBy(order, asc(servers.name))
    .all()
    .map((r) => ({ ...r, paths: JSON.parse(r.paths) as string[] }));
}

/** The order a person scans outcomes in: what the probe may be missing first, plain agreement last. */
export const CROSS_READ_ORDER: readonly CrossReadOutcome[] = ["only_cross_reader", "disagreed", "only_probe", "neither", "agreed"];

export type CrossReadCounts = Record<CrossReadOutcome, number>;

export function crossReadCounts(db: Db, day: string): CrossReadCounts {
  const counts = Object.fromEntries(CROSS_READ_OUTCOMES.map((o) => [o, 0])) as CrossReadCounts;
  const rows = db
    .select({ outcome: crossReads.outcome, n: sql<number>`count(*)` })
    .from(crossReads)
    .where(eq(crossReads.day, day))
    .groupBy(crossReads.outcome)
    .all();
  for (const r of rows) counts[r.outcome] = r.n;
  return counts;
}

/** Replaces a day's outcomes at once, so a page never shows half of a re-run. */
export function replaceCrossReads(db: Db, day: string, rows: CrossReadInput[]): void {
  transaction(db, () => {
    db.delete(crossReads).where(eq(crossReads.day, day)).run();
    for (const r of rows) putCrossRead(db, day, r);
  });
}
