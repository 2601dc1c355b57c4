import { and, asc, count, desc, eq, gte, inArray, isNull } from "drizzle-orm";
import { transaction, type Db } from "../../db/client";
import { meta, reprobeRequests, runs, servers } from "../../db/schema";
import { unwritableCode } from "../../db/write-watch";
import { dueServerColumns, type DueServer } from "./servers/round";

// "Probe again now": accepted requests are rows; the limits are checked and the row written in one
// immediate transaction, so concurrent posts cannot both slip under a limit.

export const REPROBE_REFUSALS = ["unknown_server", "left_registry", "server_recent", "global_cap"] as const;
export type ReprobeRefusal = (typeof REPROBE_REFUSALS)[number];

export type ReprobeAnswer =
  { queued: true; serverId: number; requestedAt: string } | { queued: false; refusal: ReprobeRefusal; retryAt?: string };

export interface ReprobeLimits {
  /** At most one accepted request per server in this many minutes. */
  minMinutes: number;
  /** At most this many accepted requests across all servers in the last hour. */
  hourlyCap: number;
}

const MINUTE = 60_000;

export function requestReprobe(db: Db, name: string, now: Date, limits: ReprobeLimits): ReprobeAnswer {
  return transaction(db, () => {
    const server = db.select({ id: servers.id, left: servers.leftRegistryAt }).from(servers).where(eq(servers.name, name)).get();
    if (!server) return { queued: false, refusal: "unknown_server" };
    if (server.left) return { queued: false, refusal: "left_registry" };
    const last = lastRequest(db, server.id);
    if (last) {
      const retry = Date.parse(last) + limits.minMinutes * MINUTE;
      if (retry > now.getTime()) return { queued: false, refusal: "server_recent", retryAt: new Date(retry).toISOString() };
    }
    const hourAgo = new Date(now.getTime() - 60 * MINUTE).toISOString();
    const recent = db
      .select({ at: reprobeRequests.requestedAt })
      .from(reprobeRequests)
      .where(gte(reprobeRequests.requestedAt, hourAgo))
      .orderBy(asc(reprobeRequests.requestedAt))
      .all();
    if (recent.length >= limits.hourlyCap) {
      const oldest = recent[recent.length - limits.hourlyCap]?.at ?? recent[0]?.at ?? now.toISOString();
      return { queued: false, refusal: "global_cap", retryAt: new Date(Date.parse(oldest) + 60 * MINUTE).toISOString() };
    }
    const requestedAt = now.toISOString();
    db.insert(reprobeRequests).values({ serverId: server.id, requestedAt }).run();
    // Due now: if the one-server round cannot take the lock, the next regular round probes it.
    db.update(servers)
      .set({ nextDueAt: requestedAt, scheduleReason: "probe requested from the server page" })
      .where(eq(servers.id, server.id))
      .run();
    return { queued: true, serverId: server.id, requestedAt };
  });
}

function lastRequest(db: Db, serverId: number): string | null {
  return (
    db
      .select({ at: reprobeRequests.requestedAt })
      .from(reprobeRequests)
      .where(eq(reprobeRequests.serverId, serverId))
      .orderBy(desc(reprobeRequests.requestedAt))
      .limit(1)
      .get()?.at ?? null
  );
}

export interface ReprobeStatus {
  requestedAt: string;
  /** The first run that started at or after the request; null while it is queued. */
  probe: { runId: number; finishedAt: string; requests: number } | null;
  /** When this server may be asked again. */
  nextAllowedAt: string;
}

/** The server's latest accepted request and whether a run has answered it. */
export function reprobeStatus(db: Db, serverId: number, limits: Pick<ReprobeLimits, "minMinutes">): ReprobeStatus | null {
  const requestedAt = lastRequest(db, serverId);
  if (!requestedAt) return null;
  const run = db
    .select({ runId: runs.id, finishedAt: runs.finishedAt, requests: runs.requests })
    .from(runs)
    .where(and(eq(runs.serverId, serverId), gte(runs.startedAt, requestedAt)))
    .orderBy(asc(runs.startedAt))
    .limit(1)
    .get();
  return {
    requestedAt,
    probe: run ?? null,
    nextAllowedAt: new Date(Date.parse(requestedAt) + limits.minMinutes * MINUTE).toISOString(),
  };
}

/** Accepted requests in the hour before `now` (what the global cap counts). */
export function reprobesInLastHour(db: Db, now: Date): number {
  const hourAgo = new Date(now.getTime() - 60 * MINUTE).toISOString();
  return db.select({ n: count() }).from(reprobeRequests).where(gte(reprobeRequests.requestedAt, hourAgo)).get()?.n ?? 0;
}

/** The given servers as a round takes them, leaving out those that left the registry. */
export function serversForRound(db: Db, ids: number[]): DueServer[] {
  if (ids.length === 0) return [];
  return db
    .select(dueServerColumns)
    .from(servers)
    .where(and(inArray(servers.id, ids), isNull(servers.leftRegistryAt)))
    .all();
}

// Values metaOnce could not store yet, per connection (kept on globalThis: a page and a route are separate bundles).
const HELD_KEY = Symbol.for("mcp-status.store.meta-once");
const heldValues = ((globalThis as { [HELD_KEY]?: WeakMap<object, Map<string, string>> })[HELD_KEY] ??= new WeakMap());

/** A value kept in `meta` that is created once and never changes (the first writer wins). Read first, so a value
 * already stored costs no write. While the database cannot be written (architecture.md §6, database_unwritable) a new
 * value is held in this process's memory and stored by the first call that can, so a page that needs it (the
 * re-probe form's key) still renders, and what it handed out stays valid. */
export function metaOnce(db: Db, key: string, create: () => string): string {
  const read = () => db.select({ value: meta.value }).from(meta).where(eq(meta.key, key)).get()?.value;
  const stored = read();
  if (stored !== undefined) return stored;
  let held = heldValues.get(db.$client);
  if (!held) heldValues.set(db.$client, (held = new Map()));
  const value = held.get(key) ?? create();
  try {
    db.insert(meta).values({ key, value }).onConflictDoNothing().run();
  } catch (e) {
    if (!unwritableCode(e)) throw e;
    held.set(key, value);
    return value;
  }
  held.delete(key);
  return read()!;
}
