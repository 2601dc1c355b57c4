import { and, eq, inArray, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { checkResults, meta, runs, servers, toolChanges, toolSnapshots, transitions } from "../../db/schema";
import type { ToolChangeKind } from "./vocabulary";
import type { CheckId, CheckState } from "../checks/vocabulary";
import type { Era, Transport } from "../probe/protocol";
import { escapeLike } from "./read";

// Typed writes. Callers compose them inside `transaction()` so one server's results land together.

/** Runs `fn` in one SQLite transaction (BEGIN IMMEDIATE): every query on `db` inside it is part of it. */
export function transaction<T>(db: Db, fn: () => T): T {
  return db.$client.transaction(fn).immediate();
}

export function getMeta(db: Db, key: string): string | null {
  return db.select({ value: meta.value }).from(meta).where(eq(meta.key, key)).get()?.value ?? null;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } }).run();
}

/** A registry listing in the shape the store keeps. */
export interface ListedServer {
  name: string;
  title: string | null;
  description: string | null;
  version: string | null;
  url: string;
  transport: Transport;
  host: string | null;
  needsConfig: string | null;
  registryUpdatedAt: string | null;
}

export interface RegistryApplyResult {
  added: number;
  updated: number;
  /** Servers newly marked as gone from the registry. */
  left: number;
  /** Servers listed again after leaving. */
  returned: number;
}

/** Replaces the registry view in one transaction: upserts every listed server, marks the unlisted ones as
 * having left (their history stays), and clears that mark for servers listed again. */
export function applyRegistrySnapshot(db: Db, listed: ListedServer[], now: string): RegistryApplyResult {
  return transaction(db, () => {
    const existing = new Map(
      db
        .select({
          id: servers.id,
          name: servers.name,
          remoteUrl: servers.remoteUrl,
          transport: servers.transport,
          needsConfig: servers.needsConfig,
          leftRegistryAt: servers.leftRegistryAt,
        })
        .from(servers)
        .all()
        .map((r) => [r.name, r]),
    );
    const result: RegistryApplyResult = { added: 0, updated: 0, left: 0, returned: 0 };
    const seen = new Set<string>();
    for (const s of listed) {
      seen.add(s.name);
      const prev = existing.get(s.name);
      const fields = {
        title: s.title,
        description: s.description,
        version: s.version,
        remoteUrl: s.url,
        transport: s.transport,
        host: s.host,
        needsConfig: s.needsConfig,
        registryUpdatedAt: s.registryUpdatedAt,
        registryStatus: "active",
        lastSeenAt: now,
        leftRegistryAt: null,
      };
      if (!prev) {
        db.insert(servers).values({ name: s.name, firstSeenAt: now, ...fields }).run();
        result.added++;
        continue;
      }
      // A new remote or configuration need makes the old verdicts stale: probe it in the next round.
      const moved = prev.remoteUrl !== s.url || prev.transport !== s.transport || prev.needsConfig !== s.needsConfig;
      if (prev.leftRegistryAt) result.returned++;
      db.update(servers)
        .set(moved || prev.leftRegistryAt ? { ...fields, nextDueAt: null, unchangedStreak: 0 } : fields)
        .where(eq(servers.id, prev.id))
        .run();
      result.updated++;
    }
    const gone = [...existing.values()].filter((r) => !seen.has(r.name) && !r.leftRegistryAt).map((r) => r.id);
    for (let i = 0; i < gone.length; i += 500) {
      db.update(servers)
        .set({ leftRegistryAt: now, registryStatus: "left" })
        .where(inArray(servers.id, gone.slice(i, i + 500)))
        .run();
    }
    result.left = gone.length;
    return result;
  });
}

/** A server as a round needs it. */
export interface DueServer {
  id: number;
  name: string;
  remoteUrl: string | null;
  transport: Transport | null;
  host: string | null;
  needsConfig: string | null;
}

/** The columns of a DueServer. */
export const dueServerColumns = {
  id: servers.id,
  name: servers.name,
  remoteUrl: servers.remoteUrl,
  transport: servers.transport,
  host: servers.host,
  needsConfig: servers.needsConfig,
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
export interface ServerRunState {
  id: number;
  name: string;
  consecutiveFailures: number;
  unchangedStreak: number;
  currentToolHash: string | null;
  lastRunId: number | null;
  lastSuccessAt: string | null;
  checks: { check: CheckId; state: CheckState; since: string }[];
}

export function getServerRunState(db: Db, serverId: number): ServerRunState | null {
  const s = db
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
    .where(eq(servers.id, serverId))
    .get();
  if (!s) return null;
  const checks = db
    .select({ check: checkResults.check, state: checkResults.state, since: checkResults.since })
    .from(checkResults)
    .where(eq(checkResults.serverId, serverId))
    .all();
  return { ...s, checks };
}

export interface NewRun {
  serverId: number;
  roundId: number | null;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  suiteVersion: string;
  era: Era;
  protocolVersion: string | null;
  requests: number;
  requestsOk: number;
  read: boolean;
  exchangesJson: string;
  keepEvidence: boolean;
  handshakeMs?: number | null;
  toolsListMs?: number | null;
}

export function insertRun(db: Db, run: NewRun): number {
  const { exchangesJson, ...rest } = run;
  return db.insert(runs).values({ ...rest, exchanges: exchangesJson }).returning({ id: runs.id }).get().id;
}

/** Drops the exchanges of a superseded run unless it was kept as evidence of a transition. */
export function pruneRunExchanges(db: Db, runId: number): void {
  db.update(runs)
    .set({ exchanges: null })
    .where(and(eq(runs.id, runId), eq(runs.keepEvidence, false)))
    .run();
}

export interface CheckResultRow {
  check: CheckId;
  state: CheckState;
  reason: string;
  evidence: number[];
  suiteVersion: string;
  runId: number;
  decidedAt: string;
  since: string;
}

export function upsertCheckResults(db: Db, serverId: number, rows: CheckResultRow[]): void {
  if (!rows.length) return;
  // One statement for all five checks: `excluded` is the row that conflicted.
  const excluded = (col: string) => sql.raw(`excluded.${col}`);
  db.insert(checkResults)
    .values(rows.map((r) => ({ ...r, serverId, evidence: JSON.stringify(r.evidence) })))
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
      },
    })
    .run();
}

export interface TransitionInsert {
  check: CheckId;
  fromState: CheckState | null;
  toState: CheckState;
  reason: string;
  suiteVersion: string;
  runId: number;
  at: string;
}

export function insertTransitions(db: Db, serverId: number, rows: TransitionInsert[]): void {
  if (rows.length) db.insert(transitions).values(rows.map((r) => ({ ...r, serverId }))).run();
}

export type ServerRunUpdate = Partial<
  Pick<
    typeof servers.$inferInsert,
    | "era"
    | "protocolVersion"
    | "lastProbedAt"
    | "lastSuccessAt"
    | "stateHandshake"
    | "stateProtocolVersion"
    | "stateToolsList"
    | "stateErrorTaxonomy"
    | "stateAuthMetadata"
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
  db.update(servers).set(set).where(eq(servers.id, serverId)).run();
}

export function getToolSnapshot(db: Db, serverId: number, hash: string): { id: number; tools: string } | null {
  return (
    db
      .select({ id: toolSnapshots.id, tools: toolSnapshots.tools })
      .from(toolSnapshots)
      .where(and(eq(toolSnapshots.serverId, serverId), eq(toolSnapshots.hash, hash)))
      .get() ?? null
  );
}

/** Records that a tool list with this hash was seen now; returns its snapshot id. */
export function upsertToolSnapshot(
  db: Db,
  s: { serverId: number; hash: string; toolsJson: string; toolCount: number; at: string },
): number {
  return db
    .insert(toolSnapshots)
    .values({ serverId: s.serverId, hash: s.hash, tools: s.toolsJson, toolCount: s.toolCount, firstSeenAt: s.at, lastSeenAt: s.at })
    .onConflictDoUpdate({ target: [toolSnapshots.serverId, toolSnapshots.hash], set: { lastSeenAt: s.at } })
    .returning({ id: toolSnapshots.id })
    .get().id;
}

export interface ToolChangeInsert {
  toolName: string;
  kind: ToolChangeKind;
  path: string;
  before: string | null;
  after: string | null;
}

export function insertToolChanges(
  db: Db,
  serverId: number,
  at: string,
  fromSnapshotId: number | null,
  toSnapshotId: number,
  rows: ToolChangeInsert[],
): void {
  for (let i = 0; i < rows.length; i += 200) {
    db.insert(toolChanges)
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, serverId, at, fromSnapshotId, toSnapshotId })))
      .run();
  }
}

/** Deletes run rows older than `before` that no current result, transition or server still points at. */
export function pruneOldRuns(db: Db, before: string): number {
  const referenced = db
    .select({ id: checkResults.runId })
    .from(checkResults)
    .union(db.select({ id: transitions.runId }).from(transitions));
  const res = db
    .delete(runs)
    .where(
      and(
        lt(runs.startedAt, before),
        eq(runs.keepEvidence, false),
        notInArray(runs.id, referenced),
        notInArray(
          runs.id,
          db.select({ id: sql<number>`coalesce(${servers.lastRunId}, 0)` }).from(servers),
        ),
      ),
    )
    .run();
  return res.changes;
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
