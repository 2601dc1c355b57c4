import { transaction, type Db } from "../../db/client";
import { agreedRevision, configRefusal, observationsOf, reachOf, type ObservationFacts } from "../checks";
import { clientsFields } from "./clients";
import { overallOf } from "../checks/overall";
import type { CheckResult } from "../checks/types";
import { type OptOutSource } from "../vocabulary/store";
import { SUITE_VERSION } from "../probe/protocol";
import { type CheckId, type CheckState } from "../vocabulary/checks";
import type { ProbeObservation, SlowDown } from "../probe/types";
import { countEvent, countProbeRequests } from "../store/counters";
import { recordCoverage } from "../store/coverage";
import { getServerRunState, updateServer, type ServerRunState, type ServerRunUpdate } from "../store/servers/round";
import { STATE_FIELDS } from "../store/servers/row";
import { getToolSnapshot, insertToolChanges, upsertToolSnapshot, type ServerVersions } from "../store/tools";
import { recordObservations, serverObservationCodes } from "../store/observations";
import {
  insertRun,
  insertTransitions,
  pruneRunExchanges,
  upsertCheckResults,
  type CheckResultRow,
  type NewRun,
  type TransitionInsert,
} from "../store/runs";
import { recordServerDay, worstDiscoveryState, type DayRollupInput } from "../store/history";
import { closeIncident, insertIncident, openIncidentId } from "../store/incidents";
import { utcDay } from "./coverage";
import { hostOf } from "./hosts";
import { nameJitter, nextSchedule, type ScheduleDecision, type ScheduleOutcome } from "./schedule";
import { probeTimings } from "./timings";
import { canonicalToolList, diffToolLists, hashToolList, type ToolChange } from "./tool-history";
import { incidentStep, uptimeOutcome } from "./uptime";
import type { QuorumFacts } from "../regions/quorum";
import type { RunRole } from "../vocabulary/regions";
import { enqueueRunChanges, type RunChanges } from "./notify/changes";
import { applyOwnerWrite, type OwnerWrite } from "./owners/view";

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
  /** architecture.md §11: the owner's-view probe of the same round, written in this run's transaction. */
  owner?: OwnerWrite;
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

/** Writes one server's run in a single transaction: run + evidence, latest results, transitions, denormalised
 * states, schedule, tool snapshot and diffs, coverage, the day's rollup (uptime counters included), incidents. */
export function persistRun(db: Db, input: PersistInput): PersistResult {
  return transaction(db, () => writeRun(db, input));
}

/** The writes of persistRun, for a caller that holds the transaction (persist-batch.ts puts several servers in one):
 * reads what the run's decisions rest on, decides (planRun), then writes. */
export function writeRun(db: Db, input: PersistInput): PersistResult {
  const plan = planRun(input, readBefore(db, input));
  return applyRun(db, input, plan);
}

/** What a run's decisions rest on: the server's state before it, its open incident, and for a complete read the tool
 * list as hashed with the snapshot it replaces. */
export interface RunBefore {
  prev: ServerRunState;
  openIncident: number | null;
  tools: { canon: unknown[]; hash: string; old: { id: number; tools: string; serverVersion: string | null } | null } | null;
  /** A complete read's observation codes of the read before it (sorted), to tell subscribers when they change. */
  observationCodes: string[] | null;
}

function readBefore(db: Db, input: PersistInput): RunBefore {
  const prev = getServerRunState(db, input.serverId);
  if (!prev) throw new Error(`server ${input.serverId} vanished before its results were written`);
  const list = input.obs.toolsList;
  let tools: RunBefore["tools"] = null;
  // Tool history follows every complete read, malformed definitions included: they are what clients get.
  if (isCompleteRead(input.obs) && list?.kind === "complete") {
    // architecture.md §2.9: the whole tool object as received is hashed (title, annotations, outputSchema, icons, _meta).
    const canon = canonicalToolList(list.tools);
    const hash = hashToolList(canon);
    const old = prev.currentToolHash && prev.currentToolHash !== hash ? getToolSnapshot(db, input.serverId, prev.currentToolHash) : null;
    tools = { canon, hash, old };
  }
  const observationCodes = tools ? serverObservationCodes(db, input.serverId) : null;
  return { prev, openIncident: openIncidentId(db, input.serverId), tools, observationCodes };
}

/** What a run means, decided before anything is written; every row lacks only the id of the run it belongs to. */
export interface RunPlan {
  kind: RunKind;
  outcome: ScheduleOutcome;
  schedule: ScheduleDecision;
  run: Omit<NewRun, "verdictRunId">;
  transitions: Omit<TransitionInsert, "runId">[];
  checkRows: Omit<CheckResultRow, "runId">[];
  /** The day's rollup; null when no discovery check was judged. */
  day: Omit<DayRollupInput, "serverId" | "runId"> | null;
  /** The server's incident opened, or the open one closed (architecture.md §4). */
  incident: { kind: "open"; check: CheckId; reason: string } | { kind: "close"; id: number } | null;
  /** The run before this one: its exchanges are dropped unless a transition keeps them. */
  previousRunId: number | null;
  /** A complete read's tool snapshot, its changes against the snapshot it replaces, and its observations. */
  tools: {
    snapshot: { hash: string; toolsJson: string; toolCount: number; serverVersion: string | null };
    changes: { fromSnapshotId: number | null; diff: ToolChange[]; versions: ServerVersions } | null;
    observations: ObservationFacts[];
  } | null;
  update: Omit<ServerRunUpdate, "lastRunId">;
  /** null for a skipped run: not an attempt for coverage. */
  coverage: { day: string; read: boolean; requests: number; requestsOk: number } | null;
  /** What subscribers are told of (architecture.md §10), put in the outbox with the run's writes. */
  notify: RunChanges;
}

/** Pure: decides everything a run writes from the run and what the database held before it. */
export function planRun(input: PersistInput, before: RunBefore): RunPlan {
  const { obs, results, now } = input;
  const { prev } = before;
  const nowIso = now.toISOString();
  const prevByCheck = new Map(prev.checks.map((c) => [c.check, c]));
  const transitions: RunPlan["transitions"] = [];
  for (const r of results) {
    const was = prevByCheck.get(r.check);
    if (!was || was.state !== r.state) {
      transitions.push({
        check: r.check,
        fromState: was?.state ?? null,
        toState: r.state,
        reason: r.reason,
        suiteVersion: SUITE_VERSION,
        at: nowIso,
      });
    }
  }
  const checkRows: RunPlan["checkRows"] = results.map((r) => ({
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
    decidedAt: nowIso,
    since: prevByCheck.get(r.check)?.state === r.state ? prevByCheck.get(r.check)!.since : nowIso,
  }));

  const fields = runFields(input, obs, results);
  const run: RunPlan["run"] = {
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
  };
  const dayState = worstDiscoveryState(Object.fromEntries(results.map((r) => [r.check, r.state])));
  const day = dayState
    ? { day: utcDay(now), state: dayState, handshakeMs: fields.handshakeMs, toolsListMs: fields.toolsListMs, uptime: fields.uptime }
    : null;
  const step = incidentStep(results, fields.uptime, before.openIncident !== null);
  const incident =
    step?.kind === "close" ? (before.openIncident === null ? null : { kind: "close" as const, id: before.openIncident }) : step;

  let tools: RunPlan["tools"] = null;
  if (before.tools) {
    const { canon, hash, old } = before.tools;
    const serverVersion = serverVersionOf(obs);
    let changes: NonNullable<RunPlan["tools"]>["changes"] = null;
    if (prev.currentToolHash && prev.currentToolHash !== hash) {
      const was = old ? (JSON.parse(old.tools) as unknown[]) : [];
      const versions = { serverVersionBefore: old?.serverVersion ?? null, serverVersionAfter: serverVersion };
      changes = { fromSnapshotId: old?.id ?? null, diff: diffToolLists(was, canon), versions };
    }
    // Observations are facts beside the checks: they change no state, schedule, uptime or incident.
    const snapshot = { hash, toolsJson: JSON.stringify(canon), toolCount: canon.length, serverVersion };
    tools = { snapshot, changes, observations: observationsOf(obs) };
  }

  const changed = transitions.length > 0 || (tools?.changes?.diff.length ?? 0) > 0;
  const outcome = scheduleOutcome(obs, results, changed, input.optOutSource);
  const schedule = nextSchedule(now, prev, outcome, nameJitter(prev.name));
  const overall = overallOf(results);
  const update: RunPlan["update"] = {
    era: obs.era,
    protocolVersion: agreedRevision(obs),
    lastProbedAt: input.skipped ? undefined : nowIso,
    lastSuccessAt: fields.read ? nowIso : undefined,
    nextDueAt: schedule.nextDueAt,
    consecutiveFailures: schedule.consecutiveFailures,
    unchangedStreak: schedule.unchangedStreak,
    scheduleReason: schedule.reason,
    currentToolHash: tools?.snapshot.hash ?? prev.currentToolHash,
  };
  if (tools) update.toolCount = tools.snapshot.toolCount;
  // architecture.md §2.10: which clients can connect, a fact beside the checks that moves none of them.
  Object.assign(update, clientsFields(obs));
  for (const r of results) update[STATE_FIELDS[r.check]] = r.state;
  update.overall = overall?.state ?? null;
  update.overallCause = overall?.cause ?? null;
  // A probe that cannot tell (a slow-down, an opt-out) leaves the last reach as it was.
  const reach = reachOf(obs);
  if (reach) {
    update.reach = reach.reach;
    update.reachRefusal = reach.refusal ? JSON.stringify(reach.refusal) : null;
  }

  const coverage = input.skipped ? null : { day: utcDay(now), read: fields.read, requests: fields.requests, requestsOk: fields.requestsOk };
  const kind = runKind(outcome, fields.read, input.skipped);
  const notify = notifyPlan(before, overall, incident, tools);
  return {
    kind,
    outcome,
    schedule,
    run,
    transitions,
    checkRows,
    day,
    incident,
    previousRunId: prev.lastRunId,
    tools,
    update,
    coverage,
    notify,
  };
}

/** The changes of a run that subscribers hear of: the overall state moving (not on a first run), the incident opening or
 * closing, tool changes, and the observation codes of a complete read changing (the first complete read sets them). */
function notifyPlan(
  before: RunBefore,
  overall: ReturnType<typeof overallOf>,
  incident: RunPlan["incident"],
  tools: RunPlan["tools"],
): RunChanges {
  const notify: RunChanges = {};
  const was = overallOf(before.prev.checks);
  if (was && overall && was.state !== overall.state) notify.overall = { from: was.state, to: overall.state, reason: overall.reason };
  if (incident) notify.incident = incident.kind === "open" ? { kind: "open", reason: incident.reason } : { kind: "close" };
  if (tools?.changes?.diff.length) notify.tools = tools.changes.diff;
  if (tools && before.observationCodes && before.prev.lastSuccessAt) {
    const codes = [...new Set(tools.observations.map((o) => o.code))].sort();
    if (codes.join(" ") !== before.observationCodes.join(" ")) notify.observations = codes;
  }
  return notify;
}

/** Writes what planRun decided, in the order the run's rows refer to each other. */
function applyRun(db: Db, input: PersistInput, plan: RunPlan): PersistResult {
  const { serverId, obs } = input;
  const nowIso = input.now.toISOString();
  const runId = insertRun(db, plan.run);
  for (const o of input.regional?.others ?? []) writeRegionalRun(db, input, runId, o);
  if (plan.day) recordServerDay(db, { serverId, runId, ...plan.day });
  if (plan.incident?.kind === "open") {
    insertIncident(db, { serverId, startedAt: nowIso, check: plan.incident.check, reason: plan.incident.reason, runId });
  } else if (plan.incident?.kind === "close") {
    closeIncident(db, plan.incident.id, nowIso, runId);
  }
  if (plan.previousRunId) pruneRunExchanges(db, plan.previousRunId);
  upsertCheckResults(
    db,
    serverId,
    plan.checkRows.map((r) => ({ ...r, runId })),
  );
  insertTransitions(
    db,
    serverId,
    plan.transitions.map((t) => ({ ...t, runId })),
  );
  if (plan.tools) {
    const { snapshot, changes, observations } = plan.tools;
    const snapshotId = upsertToolSnapshot(db, { serverId, ...snapshot, at: nowIso });
    if (changes) insertToolChanges(db, serverId, nowIso, changes.fromSnapshotId, snapshotId, changes.diff, changes.versions);
    recordObservations(db, serverId, runId, observations);
  }
  updateServer(db, serverId, { ...plan.update, lastRunId: runId });
  if (plan.coverage) recordCoverage(db, { serverId, ...plan.coverage });
  enqueueRunChanges(db, serverId, plan.notify, input.now);
  if (input.owner) applyOwnerWrite(db, input.owner);
  countEvent(db, "servers_probed", plan.kind);
  countProbeRequests(db, obs.exchanges);
  return {
    runId,
    kind: plan.kind,
    transitions: plan.transitions.length,
    toolChanges: plan.tools?.changes?.diff.length ?? 0,
    nextDueAt: plan.schedule.nextDueAt,
  };
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
