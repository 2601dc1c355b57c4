import { transaction, type Db } from "../../db/client";
import { agreedRevision, configRefusal, observationsOf, reachOf } from "../checks";
import { overallOf } from "../checks/overall";
import type { CheckResult } from "../checks/types";
import { type OptOutSource } from "../vocabulary/store";
import { SUITE_VERSION } from "../probe/protocol";
import { type CheckId, type CheckState } from "../vocabulary/checks";
import type { ProbeObservation, SlowDown } from "../probe/types";
import { countEvent, countProbeRequests } from "../store/counters";
import { recordCoverage } from "../store/coverage";
import { getServerRunState, updateServer, type ServerRunUpdate } from "../store/servers/round";
import { STATE_FIELDS } from "../store/servers/row";
import { getToolSnapshot, insertToolChanges, upsertToolSnapshot } from "../store/tools";
import { recordObservations } from "../store/observations";
import {
  insertRun,
  insertTransitions,
  pruneRunExchanges,
  upsertCheckResults,
  type CheckResultRow,
  type TransitionInsert,
} from "../store/runs";
import { recordServerDay, worstDiscoveryState } from "../store/history";
import { closeIncident, insertIncident, openIncidentId } from "../store/incidents";
import type { UptimeOutcome } from "../vocabulary/store";
import { utcDay } from "./coverage";
import { hostOf } from "./hosts";
import { nameJitter, nextSchedule, type ScheduleOutcome } from "./schedule";
import { probeTimings } from "./timings";
import { canonicalToolList, diffToolLists, hashToolList } from "./tool-history";
import { incidentStep, uptimeOutcome } from "./uptime";
import type { QuorumFacts } from "../regions/quorum";
import type { RunRole } from "../vocabulary/regions";

/** How a server's run went, as the round counts it. `partly_read`: the handshake worked but the tool list was not
 * read to its end (endless pages, the probe's deadline), without a failure, gate or slow-down to blame. */
export const RUN_KINDS = ["read", "partly_read", "failed", "gated", "slowed_down", "skipped"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** architecture.md §2.2: a tool list read to its end, well-formed or not, is a complete read; endless pages are not. */
export function isCompleteRead(obs: ProbeObservation): boolean {
  return !obs.blocked && obs.toolsList?.kind === "complete";
}

export interface PersistInput {
  serverId: number;
  roundId: number | null;
  obs: ProbeObservation;
  results: CheckResult[];
  /** True when no request was sent on purpose (opt-out, needs configuration): not an attempt for coverage. */
  skipped: boolean;
  optOutSource?: OptOutSource;
  now: Date;
  /** architecture.md §8: the region whose observation this is (`local` when absent, as without regions), the quorum of the
   * regions that voted, and the round's other reads of the server, each written as a run of its own. */
  regional?: {
    region: string;
    /** What the deciding read was in its round: the primary, or a confirmation that read the server. */
    role: RunRole;
    quorum: QuorumFacts | null;
    others: { region: string; role: RunRole; obs: ProbeObservation; results: CheckResult[] }[];
  };
}

/** A run's own discovery states and reason, for the per-region view (architecture.md §8). */
export interface RunDiscovery {
  states: Partial<Record<CheckId, CheckState>>;
  reason: string;
}

function discoveryOf(results: CheckResult[]): RunDiscovery {
  const discovery = results.filter((r) => r.check === "handshake" || r.check === "protocol_version" || r.check === "tools_list");
  const failing = discovery.find((r) => r.state === "failed") ?? discovery.find((r) => r.state !== "verified") ?? discovery[0];
  return { states: Object.fromEntries(discovery.map((r) => [r.check, r.state])), reason: failing?.reason ?? "" };
}

export interface PersistResult {
  runId: number;
  kind: RunKind;
  transitions: number;
  toolChanges: number;
  nextDueAt: string;
}

function stateOf(results: CheckResult[], id: CheckId): CheckState | undefined {
  return results.find((r) => r.check === id)?.state;
}

/** The slow-down the schedule must honour: one asked by the MCP server's own host. A metadata host elsewhere
 * only pauses itself (architecture.md §3); the probe already sent nothing after it. */
function serverSlowDown(obs: ProbeObservation): SlowDown | undefined {
  const sd = obs.slowDown;
  if (!sd || sd.phase !== "auth_metadata") return sd;
  const asked = obs.exchanges.find((e) => e.seq === sd.seq);
  return asked && hostOf(asked.url) === hostOf(obs.url) ? sd : undefined;
}

/** The `serverInfo.version` the handshake reported, capped; null when it gave none. */
function serverVersionOf(obs: ProbeObservation): string | null {
  const hs = obs.handshake;
  const v = hs && "serverInfo" in hs ? hs.serverInfo?.version : undefined;
  return typeof v === "string" && v !== "" ? v.slice(0, 200) : null;
}

/** Classifies a run for the schedule (architecture.md §3): the verdict decides, not how far the probe got. */
export function scheduleOutcome(
  obs: ProbeObservation,
  results: CheckResult[],
  changed: boolean,
  optOutSource?: OptOutSource,
): ScheduleOutcome {
  if (obs.blocked) {
    if (obs.blocked.kind === "opted_out") return { kind: "opted_out", source: optOutSource ?? "operator" };
    if (obs.blocked.kind === "needs_config") return { kind: "needs_config" };
    if (obs.blocked.kind === "probe_network") return { kind: "probe_network" };
    return { kind: "blocked" };
  }
  const slow = serverSlowDown(obs);
  if (obs.handshake?.kind === "credential_gate" || obs.toolsList?.kind === "credential_gate") {
    return slow?.retryAfterSeconds !== undefined
      ? { kind: "credential_gate", retryAfterSeconds: slow.retryAfterSeconds }
      : { kind: "credential_gate" };
  }
  if (slow) return { kind: "slow_down", retryAfterSeconds: slow.retryAfterSeconds };
  // architecture.md §2.6 (0.15.0): refused for want of the listed headers is scheduled like a credential gate.
  if (configRefusal(obs)) return { kind: "config_refused" };
  // No common revision leaves nothing to read until the server changes: a discovery failure like the others.
  const failed =
    stateOf(results, "handshake") !== "verified" ||
    stateOf(results, "protocol_version") === "failed" ||
    stateOf(results, "tools_list") === "failed";
  return failed ? { kind: "failed" } : { kind: "healthy", changed };
}

function isOk(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}

function runKind(outcome: ScheduleOutcome, complete: boolean, skipped: boolean): RunKind {
  if (
    skipped ||
    outcome.kind === "blocked" ||
    outcome.kind === "opted_out" ||
    outcome.kind === "needs_config" ||
    outcome.kind === "probe_network"
  ) {
    return "skipped";
  }
  if (complete) return "read";
  switch (outcome.kind) {
    case "healthy":
      return "partly_read";
    case "credential_gate":
    case "config_refused":
      return "gated";
    case "slow_down":
      return "slowed_down";
    case "failed":
      return "failed";
  }
}

/** The history strip's rollup row: kept apart from the run's other writes so batching can move it as one piece. */
function recordDay(
  db: Db,
  serverId: number,
  runId: number,
  results: CheckResult[],
  timings: ReturnType<typeof probeTimings>,
  uptime: UptimeOutcome,
  now: Date,
): void {
  const state = worstDiscoveryState(Object.fromEntries(results.map((r) => [r.check, r.state])));
  if (state) recordServerDay(db, { serverId, day: utcDay(now), state, runId, ...timings, uptime });
}

/** Opens or closes the server's incident (architecture.md §4) as this run decides. */
function recordIncident(db: Db, serverId: number, runId: number, results: CheckResult[], uptime: UptimeOutcome, nowIso: string): void {
  const open = openIncidentId(db, serverId);
  const step = incidentStep(results, uptime, open !== null);
  if (step?.kind === "open") insertIncident(db, { serverId, startedAt: nowIso, check: step.check, reason: step.reason, runId });
  else if (step?.kind === "close" && open !== null) closeIncident(db, open, nowIso, runId);
}

/** Writes one server's run in a single transaction: run + evidence, latest results, transitions, denormalised
 * states, schedule, tool snapshot and diffs, coverage, the day's rollup (uptime counters included), incidents. */
export function persistRun(db: Db, input: PersistInput): PersistResult {
  return transaction(db, () => writeRun(db, input));
}

/** The writes of persistRun, for a caller that holds the transaction (persist-batch.ts puts several servers in one). */
export function writeRun(db: Db, input: PersistInput): PersistResult {
  const { obs, results, now } = input;
  const nowIso = now.toISOString();
  {
    const prev = getServerRunState(db, input.serverId);
    if (!prev) throw new Error(`server ${input.serverId} vanished before its results were written`);
    const prevByCheck = new Map(prev.checks.map((c) => [c.check, c]));

    const transitions: TransitionInsert[] = [];
    for (const r of results) {
      const before = prevByCheck.get(r.check);
      if (!before || before.state !== r.state) {
        transitions.push({
          check: r.check,
          fromState: before?.state ?? null,
          toState: r.state,
          reason: r.reason,
          suiteVersion: SUITE_VERSION,
          runId: 0,
          at: nowIso,
        });
      }
    }

    const overall = overallOf(results);
    const read = isCompleteRead(obs);
    const fields = runFields(input, obs, results);
    const { requests, requestsOk } = fields;
    const timings = probeTimings(obs);
    const uptime = uptimeOutcome(obs);
    const runId = insertRun(db, {
      ...fields,
      keepEvidence: transitions.length > 0,
      ...(input.regional
        ? {
            region: input.regional.region,
            role: input.regional.role,
            quorum: input.regional.quorum ? JSON.stringify(input.regional.quorum) : null,
            discovery: JSON.stringify(discoveryOf(results)),
          }
        : {}),
    });
    for (const o of input.regional?.others ?? []) writeRegionalRun(db, input, runId, o);
    recordDay(db, input.serverId, runId, results, timings, uptime, now);
    recordIncident(db, input.serverId, runId, results, uptime, nowIso);
    if (prev.lastRunId) pruneRunExchanges(db, prev.lastRunId);

    const rows: CheckResultRow[] = results.map((r) => ({
      check: r.check,
      state: r.state,
      reason: r.reason,
      code: r.code ?? null,
      hint: r.hint ?? null,
      notCheckedCause: r.notCheckedCause ?? null,
      noFallback: r.noFallback?.rule ?? null,
      noFallbackCode: r.noFallback?.code ?? null,
      evidence: r.evidence,
      suiteVersion: SUITE_VERSION,
      runId,
      decidedAt: nowIso,
      since: prevByCheck.get(r.check)?.state === r.state ? prevByCheck.get(r.check)!.since : nowIso,
    }));
    upsertCheckResults(db, input.serverId, rows);
    insertTransitions(
      db,
      input.serverId,
      transitions.map((t) => ({ ...t, runId })),
    );

    // Tool history follows every complete read, malformed definitions included: they are what clients get.
    let toolHash = prev.currentToolHash;
    let toolCount: number | undefined;
    let toolChangeCount = 0;
    if (read && obs.toolsList?.kind === "complete") {
      // architecture.md §2.9: the whole tool object as received is hashed (title, annotations, outputSchema, icons, _meta).
      const canon = canonicalToolList(obs.toolsList.tools);
      const hash = hashToolList(canon);
      const serverVersion = serverVersionOf(obs);
      toolCount = canon.length;
      const old = prev.currentToolHash && prev.currentToolHash !== hash ? getToolSnapshot(db, input.serverId, prev.currentToolHash) : null;
      const snapshotId = upsertToolSnapshot(db, {
        serverId: input.serverId,
        hash,
        toolsJson: JSON.stringify(canon),
        toolCount: canon.length,
        at: nowIso,
        serverVersion,
      });
      if (prev.currentToolHash && prev.currentToolHash !== hash) {
        const before = old ? (JSON.parse(old.tools) as unknown[]) : [];
        const diff = diffToolLists(before, canon);
        const versions = { serverVersionBefore: old?.serverVersion ?? null, serverVersionAfter: serverVersion };
        insertToolChanges(db, input.serverId, nowIso, old?.id ?? null, snapshotId, diff, versions);
        toolChangeCount = diff.length;
      }
      toolHash = hash;
      // Observations are facts beside the checks: they change no state, schedule, uptime or incident.
      recordObservations(db, input.serverId, runId, observationsOf(obs));
    }

    const changed = transitions.length > 0 || toolChangeCount > 0;
    const outcome = scheduleOutcome(obs, results, changed, input.optOutSource);
    const schedule = nextSchedule(now, prev, outcome, nameJitter(prev.name));

    const update: ServerRunUpdate = {
      era: obs.era,
      protocolVersion: agreedRevision(obs),
      lastProbedAt: input.skipped ? undefined : nowIso,
      lastSuccessAt: read ? nowIso : undefined,
      nextDueAt: schedule.nextDueAt,
      consecutiveFailures: schedule.consecutiveFailures,
      unchangedStreak: schedule.unchangedStreak,
      scheduleReason: schedule.reason,
      currentToolHash: toolHash,
      lastRunId: runId,
    };
    if (toolCount !== undefined) update.toolCount = toolCount;
    for (const r of results) update[STATE_FIELDS[r.check]] = r.state;
    update.overall = overall?.state ?? null;
    update.overallCause = overall?.cause ?? null;
    // A probe that cannot tell (a slow-down, an opt-out) leaves the last reach as it was.
    const reach = reachOf(obs);
    if (reach) {
      update.reach = reach.reach;
      update.reachRefusal = reach.refusal ? JSON.stringify(reach.refusal) : null;
    }
    updateServer(db, input.serverId, update);

    if (!input.skipped) {
      recordCoverage(db, { day: utcDay(now), serverId: input.serverId, read, requests, requestsOk });
    }

    const kind = runKind(outcome, read, input.skipped);
    countEvent(db, "servers_probed", kind);
    countProbeRequests(db, obs.exchanges);
    return { runId, kind, transitions: transitions.length, toolChanges: toolChangeCount, nextDueAt: schedule.nextDueAt };
  }
}

/** What every run row says of its observation and verdicts (architecture.md §4's uptime, the timings, the overall state). */
function runFields(input: Pick<PersistInput, "serverId" | "roundId">, obs: ProbeObservation, results: CheckResult[]) {
  const overall = overallOf(results);
  const startedMs = Date.parse(obs.startedAt);
  const finishedMs = Date.parse(obs.finishedAt);
  return {
    serverId: input.serverId,
    roundId: input.roundId,
    startedAt: obs.startedAt,
    finishedAt: obs.finishedAt,
    durationMs: Number.isFinite(finishedMs - startedMs) ? Math.max(0, finishedMs - startedMs) : 0,
    suiteVersion: SUITE_VERSION,
    era: obs.era,
    protocolVersion: agreedRevision(obs),
    requests: obs.exchanges.length,
    requestsOk: obs.exchanges.filter((e) => isOk(e.status)).length,
    read: isCompleteRead(obs),
    exchangesJson: JSON.stringify(obs.exchanges),
    certificate: obs.certificate ? JSON.stringify(obs.certificate) : null,
    ...probeTimings(obs),
    overall: overall?.state ?? null,
    overallCause: overall?.cause ?? null,
    uptime: uptimeOutcome(obs),
  };
}

/** Another region's read of the server in the same round (architecture.md §8): a run of its own, with its region, role
 * and evidence, pointing at the run that set the state. It moves no state, schedule, day, incident or coverage. */
function writeRegionalRun(
  db: Db,
  input: PersistInput,
  verdictRunId: number,
  o: NonNullable<PersistInput["regional"]>["others"][number],
): void {
  insertRun(db, {
    ...runFields(input, o.obs, o.results),
    keepEvidence: false,
    region: o.region,
    role: o.role,
    verdictRunId,
    discovery: JSON.stringify(discoveryOf(o.results)),
  });
  countProbeRequests(db, o.obs.exchanges);
}
