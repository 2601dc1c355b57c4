// One server as its page, its JSON, its badge and its link-preview card read it.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { servers, toolSnapshots } from "../../../db/schema";
import type { CheckId, CheckState } from "../../vocabulary/checks";
import type { RegistryRemote } from "../../probe/protocol";
import type { Exchange } from "../../probe/types";
import { latestCrossReadOf, type CrossReadRow } from "../cross-reads";
import { optOutFor } from "../optouts";
import {
  latestResults,
  latestRun,
  parseJson,
  recentTransitions,
  runSummary,
  type CheckResultRow,
  type RunSummary,
  type TransitionRow,
} from "../runs";
import { serverToolChanges, type ServerToolChange } from "../tools";
import type { ClientsVerdict } from "../../checks/clients";
import { clientsVerdictOf, toSummary, type ServerSummary } from "./list";
import { remotesOf } from "./registry";
import { configurationOf, type ServerConfiguration } from "./configuration";
import { stateSelect, statesOf, type ServerRow } from "./row";

export interface ServerDetail
  extends ServerSummary, Pick<ServerRow, "version" | "firstSeenAt" | "lastSeenAt" | "registryStatus" | "registryStatusMessage"> {
  /** Every listed remote with its standing (architecture.md §2.6). */
  remotes: RegistryRemote[];
  /** Present (in CHECK_IDS order) once the server was evaluated. */
  checks: CheckResultRow[];
  latestRun: RunSummary | null;
  /** Exchanges of the latest run; empty when none were kept. */
  exchanges: Exchange[];
  /** Most recent first. */
  transitions: TransitionRow[];
  /** The current complete tool list (canonical JSON objects), or null if never read. */
  tools: unknown[] | null;
  toolHash: string | null;
  /** Most recent first. */
  toolChanges: ServerToolChange[];
  schedule: Pick<ServerRow, "nextDueAt" | "consecutiveFailures" | "scheduleReason">;
  /** The operator's opt-out for this host, if any. */
  optOut: { source: string; reason: string; since: string } | null;
  /** The server's latest cross-read (architecture.md §6), when it was sampled. */
  crossRead: (CrossReadRow & { day: string }) | null;
  /** architecture.md §2.10: the clients verdict as codes and facts, for the page's sentences in both languages. */
  clientsVerdict: ClientsVerdict;
  /** Its configuration need and what reaching it without the listed headers found (architecture.md §2.6, 0.15.0). */
  configuration: ServerConfiguration;
}

const DETAIL_TRANSITIONS = 50;
const DETAIL_TOOL_CHANGES = 100;

/** Everything the server page and its JSON show; null for an unknown registry name. */
export function getServerDetail(db: Db, name: string): ServerDetail | null {
  const s = db.select().from(servers).where(eq(servers.name, name)).get();
  if (!s) return null;
  const run = latestRun(db, s.id, s.lastRunId);
  const snapshot = s.currentToolHash
    ? db
        .select({ tools: toolSnapshots.tools })
        .from(toolSnapshots)
        .where(and(eq(toolSnapshots.serverId, s.id), eq(toolSnapshots.hash, s.currentToolHash)))
        .get()
    : undefined;
  const checks = latestResults(db, s.id);
  const causes = Object.fromEntries(checks.filter((c) => c.notCheckedCause).map((c) => [c.check, c.notCheckedCause!]));
  return {
    ...toSummary(s, causes),
    version: s.version,
    firstSeenAt: s.firstSeenAt,
    lastSeenAt: s.lastSeenAt,
    registryStatus: s.registryStatus,
    registryStatusMessage: s.registryStatusMessage,
    remotes: remotesOf(s),
    checks,
    latestRun: run ? runSummary(run) : null,
    exchanges: parseJson<Exchange[]>(run?.exchanges, []),
    transitions: recentTransitions(db, s.id, DETAIL_TRANSITIONS),
    tools: snapshot ? parseJson<unknown[]>(snapshot.tools, []) : null,
    toolHash: s.currentToolHash,
    toolChanges: serverToolChanges(db, s.id, DETAIL_TOOL_CHANGES),
    schedule: {
      nextDueAt: s.nextDueAt,
      consecutiveFailures: s.consecutiveFailures,
      scheduleReason: s.scheduleReason,
    },
    optOut: (s.host ? optOutFor(db, s.host) : undefined) ?? null,
    crossRead: latestCrossReadOf(db, s.id),
    clientsVerdict: clientsVerdictOf(s.clients),
    configuration: configurationOf(s),
  };
}

/** Whether a registry name is known. */
export function serverExists(db: Db, name: string): boolean {
  return !!db.select({ id: servers.id }).from(servers).where(eq(servers.name, name)).get();
}

export type BadgeStates = Pick<ServerRow, "name" | "leftRegistryAt" | "overall"> & { states: Record<CheckId, CheckState | null> };

/** The five denormalised states and the overall state of one server, for badges: one indexed row, no joins. */
export function badgeStates(db: Db, name: string): BadgeStates | null {
  const row = db
    .select({ name: servers.name, leftRegistryAt: servers.leftRegistryAt, overall: servers.overall, ...stateSelect })
    .from(servers)
    .where(eq(servers.name, name))
    .get();
  return row ? { name: row.name, leftRegistryAt: row.leftRegistryAt, overall: row.overall, states: statesOf(row) } : null;
}

export type CardFacts = BadgeStates & Pick<ServerRow, "title" | "lastProbedAt" | "lastRunId">;

/** What a server's link-preview card shows: its states, title and last probe, from one indexed row. */
export function serverCardFacts(db: Db, name: string): CardFacts | null {
  const row = db
    .select({
      name: servers.name,
      title: servers.title,
      leftRegistryAt: servers.leftRegistryAt,
      overall: servers.overall,
      lastProbedAt: servers.lastProbedAt,
      lastRunId: servers.lastRunId,
      ...stateSelect,
    })
    .from(servers)
    .where(eq(servers.name, name))
    .get();
  return row
    ? {
        name: row.name,
        title: row.title,
        leftRegistryAt: row.leftRegistryAt,
        overall: row.overall,
        lastProbedAt: row.lastProbedAt,
        lastRunId: row.lastRunId,
        states: statesOf(row),
      }
    : null;
}
