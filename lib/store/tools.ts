import { and, asc, desc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { placeholders, prepared } from "./prepared";
import { servers, toolChanges, toolSnapshots } from "../../db/schema";

// Tool snapshots (one per distinct complete list of a server) and the field-path changes between them.

export type ToolChangeSelect = typeof toolChanges.$inferSelect;

/** One change as written: the server, time and snapshots come from the caller. */
export type ToolChangeInsert = Pick<ToolChangeSelect, "toolName" | "kind" | "path" | "before" | "after">;

/** `serverInfo.version` of the read before a change and of the read that saw it (architecture.md §2.9). */
export type ServerVersions = Pick<ToolChangeSelect, "serverVersionBefore" | "serverVersionAfter">;

/** One change on a server page ("" path for a whole tool; before/after are JSON text or null). */
export type ServerToolChange = Pick<
  ToolChangeSelect,
  "at" | "toolName" | "kind" | "path" | "before" | "after" | "serverVersionBefore" | "serverVersionAfter"
>;

/** architecture.md §2.9: a definition that changed while `serverInfo.version` stayed the same, as a fact; null otherwise. */
export function sameServerVersion(c: ServerVersions): string | null {
  return c.serverVersionBefore !== null && c.serverVersionBefore === c.serverVersionAfter ? c.serverVersionAfter : null;
}

/** One change in the site-wide feed, with the server it belongs to. */
export type ToolChangeRow = ServerToolChange & { id: number; serverName: string };

export function getToolSnapshot(
  db: Db,
  serverId: number,
  hash: string,
): { id: number; tools: string; serverVersion: string | null } | null {
  return (
    db
      .select({ id: toolSnapshots.id, tools: toolSnapshots.tools, serverVersion: toolSnapshots.serverVersion })
      .from(toolSnapshots)
      .where(and(eq(toolSnapshots.serverId, serverId), eq(toolSnapshots.hash, hash)))
      .get() ?? null
  );
}

/** Records that a tool list with this hash was seen now, under this `serverInfo.version`; returns its snapshot id. */
export function upsertToolSnapshot(
  db: Db,
  s: { serverId: number; hash: string; toolsJson: string; toolCount: number; at: string; serverVersion: string | null },
): number {
  const at = sql.placeholder("at");
  return prepared(db, "toolSnapshots.upsert", () =>
    db
      .insert(toolSnapshots)
      .values({ ...placeholders(["serverId", "hash", "tools", "toolCount", "serverVersion"] as const), firstSeenAt: at, lastSeenAt: at })
      .onConflictDoUpdate({
        target: [toolSnapshots.serverId, toolSnapshots.hash],
        set: { lastSeenAt: sql`excluded.last_seen_at`, serverVersion: sql`excluded.server_version` },
      })
      .returning({ id: toolSnapshots.id })
      .prepare(),
  ).get({ serverId: s.serverId, hash: s.hash, tools: s.toolsJson, toolCount: s.toolCount, at: s.at, serverVersion: s.serverVersion }).id;
}

export function insertToolChanges(
  db: Db,
  serverId: number,
  at: string,
  fromSnapshotId: number | null,
  toSnapshotId: number,
  rows: ToolChangeInsert[],
  versions: ServerVersions = { serverVersionBefore: null, serverVersionAfter: null },
): void {
  for (let i = 0; i < rows.length; i += 200) {
    db.insert(toolChanges)
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, serverId, at, fromSnapshotId, toSnapshotId, ...versions })))
      .run();
  }
}

const changeColumns = {
  at: toolChanges.at,
  toolName: toolChanges.toolName,
  kind: toolChanges.kind,
  path: toolChanges.path,
  before: toolChanges.before,
  after: toolChanges.after,
  serverVersionBefore: toolChanges.serverVersionBefore,
  serverVersionAfter: toolChanges.serverVersionAfter,
};

/** One server's tool changes, most recent first. */
export function serverToolChanges(db: Db, serverId: number, limit: number): ServerToolChange[] {
  return db
    .select(changeColumns)
    .from(toolChanges)
    .where(eq(toolChanges.serverId, serverId))
    .orderBy(desc(toolChanges.at), asc(toolChanges.id))
    .limit(limit)
    .all();
}

/** Tool-definition changes, newest first, optionally for one server and only those after `since` (ISO-8601). */
export function toolChangeList(
  db: Db,
  opts: { serverName?: string; limit?: number; offset?: number; since?: string } = {},
): { total: number; rows: ToolChangeRow[] } {
  const where = and(
    opts.serverName ? eq(servers.name, opts.serverName) : undefined,
    opts.since !== undefined ? gt(toolChanges.at, opts.since) : undefined,
  );
  const total = db
    .select({ n: sql<number>`count(*)` })
    .from(toolChanges)
    .innerJoin(servers, eq(servers.id, toolChanges.serverId))
    .where(where)
    .get();
  const rows = db
    .select({ id: toolChanges.id, serverName: servers.name, ...changeColumns })
    .from(toolChanges)
    .innerJoin(servers, eq(servers.id, toolChanges.serverId))
    .where(where)
    .orderBy(desc(toolChanges.at), desc(toolChanges.id))
    .limit(opts.limit ?? 50)
    .offset(opts.offset ?? 0)
    .all();
  return { total: Number(total?.n ?? 0), rows };
}
