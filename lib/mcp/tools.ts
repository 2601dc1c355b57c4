import type { z } from "zod";
import type { Db } from "../../db/client";
import { CHECK_IDS, type CheckId, type CheckState } from "../vocabulary/checks";
import { serverJsonPath, serverPath } from "../site/paths";
import { reachSentence } from "../site/reach";
import { serverIdByName, stateChanges } from "../store/history";
import { getServerDetail } from "../store/servers/detail";
import { listServers } from "../store/servers/list";
import type { CheckResultRow } from "../store/runs";
import { sameServerVersion, toolChangeList } from "../store/tools";
import { overallOf } from "../checks/overall";
import { serverUptime } from "../store/uptime";
import { hintSentence } from "../checks/hints";
import { observationSentence } from "../checks/observation-text";
import { latestObservationsByName } from "../store/observations";
import {
  CHANGES_LIMIT,
  SEARCH_PAGE_SIZE,
  type getServerStatusInput,
  type recentChangesInput,
  type RecentChanges,
  type SearchServers,
  type searchServersInput,
  type ServerStatus,
} from "./schemas";

// What the three tools answer, read through the same store queries as the pages: the server page and
// /api/servers/<name> (getServerDetail), the index and /api/servers (listServers), /changes and its feeds
// (toolChangeList, stateChanges). No tool writes or probes.

export interface ToolContext {
  db: Db;
  /** Absolute origin for links: PUBLIC_BASE_URL when set, else the request's own. */
  origin: string;
  now: Date;
}

export type Answer<T> = { ok: true; data: T } | { ok: false; error: string };

const DAY_MS = 86_400_000;

const unknownServer = (name: string) =>
  `No server named ${JSON.stringify(name)} is known to mcp-status: registry names look like io.github.owner/server; search_servers finds them by part of a name or title.`;

const link = (ctx: ToolContext, name: string) => ctx.origin + serverPath(name);

/** A stored result's hint (architecture.md §2.8) as its sentence; null when the evidence matched no known misconfiguration. */
const hintOf = (c: CheckResultRow): string | null => (c.hint ? hintSentence(c.hint) : null);

export function getServerStatus(ctx: ToolContext, input: z.output<typeof getServerStatusInput>): Answer<ServerStatus> {
  const d = getServerDetail(ctx.db, input.name);
  if (!d) return { ok: false, error: unknownServer(input.name) };
  const byId = new Map(d.checks.map((c) => [c.check, c]));
  const checks = Object.fromEntries(
    CHECK_IDS.map((id) => {
      const c = byId.get(id);
      return [
        id,
        c
          ? { state: c.state, reason: c.reason, hint: hintOf(c), since: c.since, decidedAt: c.decidedAt, suiteVersion: c.suiteVersion }
          : null,
      ];
    }),
  ) as ServerStatus["checks"];
  return {
    ok: true,
    data: {
      name: d.name,
      title: d.title,
      description: d.description,
      page: link(ctx, d.name),
      json: ctx.origin + serverJsonPath(d.name),
      remoteUrl: d.remoteUrl,
      transport: d.transport,
      inRegistry: d.leftRegistryAt === null,
      leftRegistryAt: d.leftRegistryAt,
      overall: overallOf(d.checks),
      checks,
      era: d.era,
      protocolVersion: d.protocolVersion,
      toolCount: d.toolCount,
      lastProbedAt: d.lastProbedAt,
      lastCompleteReadAt: d.lastSuccessAt,
      nextDueAt: d.nextDueAt,
      uptime: serverUptime(ctx.db, d.name, ctx.now),
      clients: d.clients,
      configuration: { ...d.configuration, sentence: reachSentence(d.configuration, "en") },
      observations: latestObservationsByName(ctx.db, d.name).map((o) => ({
        code: o.code,
        ...(o.tool !== undefined ? { tool: o.tool } : {}),
        pointer: o.pointer,
        sentence: observationSentence(o),
        ...(o.offset !== undefined ? { offset: o.offset } : {}),
        ...(o.count !== undefined ? { count: o.count } : {}),
        ...(o.decoded !== undefined ? { decoded: o.decoded } : {}),
      })),
    },
  };
}

/** A value over its cap is lowered to it, and the answer says so. */
function clamp(value: number | undefined, field: string, limit: { default: number; cap: number }, what: string, notes: string[]): number {
  if (value === undefined) return limit.default;
  if (value <= limit.cap) return value;
  notes.push(`${field} ${value} is over the cap of ${limit.cap}, so ${limit.cap} ${what} were returned.`);
  return limit.cap;
}

export function searchServers(ctx: ToolContext, input: z.output<typeof searchServersInput>): Answer<SearchServers> {
  const notes: string[] = [];
  const pageSize = clamp(input.pageSize, "pageSize", SEARCH_PAGE_SIZE, "servers per page", notes);
  const states: Partial<Record<CheckId, CheckState>> = {};
  for (const id of CHECK_IDS) if (input[id]) states[id] = input[id];
  const list = listServers(ctx.db, {
    q: input.query ?? "",
    states,
    page: input.page ?? 1,
    pageSize,
    includeLeft: input.includeLeft ?? false,
  });
  return {
    ok: true,
    data: {
      total: list.total,
      page: list.page,
      pageSize: list.pageSize,
      pages: Math.max(1, Math.ceil(list.total / list.pageSize)),
      servers: list.rows.map((r) => ({
        name: r.name,
        title: r.title,
        page: link(ctx, r.name),
        overall: r.overall,
        states: r.states,
        toolCount: r.toolCount,
        lastProbedAt: r.lastProbedAt,
        lastCompleteReadAt: r.lastSuccessAt,
        leftRegistryAt: r.leftRegistryAt,
      })),
      notes,
    },
  };
}

export function recentChanges(ctx: ToolContext, input: z.output<typeof recentChangesInput>): Answer<RecentChanges> {
  const notes: string[] = [];
  const limit = clamp(input.limit, "limit", CHANGES_LIMIT, "changes of each kind", notes);
  const since = input.since ? new Date(input.since).toISOString() : new Date(ctx.now.getTime() - DAY_MS).toISOString();
  let serverId: number | undefined;
  if (input.name !== undefined) {
    const id = serverIdByName(ctx.db, input.name);
    if (id === null) return { ok: false, error: unknownServer(input.name) };
    serverId = id;
  }
  // One more than asked, to tell whether older changes were left out.
  const states = stateChanges(ctx.db, { serverId, since, limit: limit + 1 });
  const tools = toolChangeList(ctx.db, { serverName: input.name, since, limit: limit + 1 }).rows;
  return {
    ok: true,
    data: {
      since,
      until: ctx.now.toISOString(),
      stateChanges: states.slice(0, limit).map((s) => ({
        at: s.at,
        name: s.serverName,
        page: link(ctx, s.serverName),
        check: s.check,
        from: s.fromState,
        to: s.toState,
        reason: s.reason,
      })),
      toolChanges: tools.slice(0, limit).map((t) => ({
        at: t.at,
        name: t.serverName,
        page: link(ctx, t.serverName),
        tool: t.toolName,
        kind: t.kind,
        path: t.path,
        before: t.before,
        after: t.after,
        sameServerVersion: sameServerVersion(t),
      })),
      more: { stateChanges: states.length > limit, toolChanges: tools.length > limit },
      notes,
    },
  };
}
