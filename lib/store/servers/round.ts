// Servers as a round reads and writes them: the due list, the state a new run is compared with, the run's
// results and next due time, and servers made due again.
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { servers } from "../../../db/schema";
import { prepared } from "../prepared";
import { currentStates, type CheckResultSelect } from "../runs";
import { escapeLike, type ServerRow, type StateField } from "./row";

/** A server as a round needs it. `stateHandshake`: the latest handshake verdict, which decides whether a
 * network-level failure gets a second probe before it is recorded (architecture.md §2.7). */
export type DueServer = Pick<ServerRow, "id" | "name" | "remoteUrl" | "transport" | "host" | "needsConfig" | "stateHandshake"> & {
  /** Suite 0.15.0: the stored header names (JSON) the probed remote lists as needed; absent or null when none. */
  configHeaders?: string | null;
  /** architecture.md §11: the stored URL variables (JSON UrlVariables) an owner may fill in; absent or null when none. */
  urlVariables?: string | null;
};

/** The columns of a DueServer. */
export const dueServerColumns = {
  id: servers.id,
  name: servers.name,
  remoteUrl: servers.remoteUrl,
  transport: servers.transport,
  host: servers.host,
  needsConfig: servers.needsConfig,
  configHeaders: servers.configHeaders,
  urlVariables: servers.urlVariables,
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
    | "clientsInitializeFirst"
    | "clientsDiscoverFirst"
    | "clients"
    | "reach"
    | "reachRefusal"
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
