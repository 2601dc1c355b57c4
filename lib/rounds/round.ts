import os from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { unwritableCode } from "../../db/write-watch";
import { judge } from "../checks";
import { DEFAULT_USER_AGENT, SharedConnections } from "../probe";
import { createAddressPolicy, type AddressPolicy } from "../probe/address-policy";
import { DEFAULT_LIMITS, type ProbeLimits } from "../probe/types";
import { evaluateCoverage, evaluateProbeNetwork } from "./alerts/evaluate";
import { openAlert, resolveAlerts } from "../store/alerts";
import { pruneCoverageServers } from "../store/coverage";
import { activeHostPauses, crowdedHosts, putHostPause } from "../store/hosts";
import { operatorOptOuts } from "../store/optouts";
import { serversForRound } from "../store/reprobe";
import { listDueServers, updateServer, type DueServer } from "../store/servers/round";
import {
  acquireRoundLock,
  finishRound,
  getRound,
  heartbeatRound,
  networkShareLevel,
  pruneRounds,
  roundLockHolder,
  type RoundNetwork,
  type RoundProgress,
} from "../store/rounds";
import { pruneOldRuns } from "../store/runs";
import { assertWritable } from "../store/writes";
import { addDays, utcDay } from "./coverage";
import { createHostGate, type HostGateOptions, type RoundHostGate } from "./host-gate";
import { createHostQueue, type HostQueue } from "./host-queue";
import { createOwnNetworkWatch, OWN_NETWORK_TIMING, type OwnNetworkTiming, type OwnNetworkWatch } from "./own-network";
import { hostOf } from "./hosts";
import { type PersistInput, type RunKind } from "./persist";
import { createBatchWriter, type BatchOptions } from "./persist-batch";
import { refreshRegistryIfStale, type RegistryRefreshDeps, type RegistryRefreshResult } from "./registry-refresh";
import { createRobotsBook, fetchRobots, type RobotsBook } from "./robots";
import { DAY, HOUR, MINUTE } from "./schedule";
import { createRegionsStep, type RoundRegions } from "./regions";
import { probeInProcess, serverRun, type ProbeStep, type ServerContext } from "./server-run";
import type { OwnerStep } from "./owners/view";
import { createWriteStop, untilWritable, type WriteStop } from "./write-stop";

export interface RoundDeps extends RegistryRefreshDeps {
  db: Db;
  /** Registry to ingest from; undefined skips ingestion (the servers table is filled some other way). */
  registryUrl?: string;
  /** Servers probed at once. Default 16. */
  concurrency?: number;
  /** Probes in flight at once to a crowded host (PROBE_HOST_CONCURRENCY). Default 4. */
  hostConcurrency?: number;
  /** A host pause (429 / 503 with Retry-After) longer than this leaves its servers due for the next round. Default 60 s. */
  maxPauseWaitMs?: number;
  allowPrivateNetworks?: boolean;
  /** Overrides the policy built from allowPrivateNetworks. */
  addressPolicy?: AddressPolicy;
  limits?: Partial<ProbeLimits>;
  userAgent?: string;
  /** Consult robots.txt (cached a day per host). Default true. */
  robots?: boolean;
  now?: () => Date;
  log?: (line: string) => void;
  /** What started the round: "api", "scheduler", "cli", "test". */
  trigger?: string;
  /** A lock whose heartbeat is older than this belongs to a dead round. Default 2 min. */
  lockStaleMs?: number;
  heartbeatMs?: number;
  /** Probe at most this many due servers; the rest stay due for the next round. */
  maxServers?: number;
  /** How runs are grouped into transactions (persist-batch.ts). */
  batch?: BatchOptions;
  /** Probe exactly these servers (a "probe again now" request) instead of the due ones; no registry read,
   * no maintenance. Servers that left the registry are left out. */
  serverIds?: number[];
  /** Called after each server with the running totals. */
  onProgress?: (p: Required<RoundProgress>) => void;
  /** Called once the round is recorded as finished (alerts are judged here); errors are logged, never thrown. */
  onFinished?: (s: RoundSummary) => void;
  /** architecture.md §2.7's waits (second probe 60 s, recheck every 30 s for up to 10 min); tests shorten them. */
  ownNetwork?: Partial<OwnNetworkTiming>;
  /** Where a server the round decided to probe is probed (server-run.ts); in this process by default, through the
   * regions when `regions` is set. */
  probe?: ProbeStep;
  /** architecture.md §8: probe through these regions (roundRegionsFrom(config)); absent: in-process as `local`, as before. */
  regions?: RoundRegions;
  /** architecture.md §11: the owner's view (createOwnerStep with SECRETS_KEY); absent: owner features off. */
  owners?: OwnerStep;
}

export interface RoundSummary extends Required<RoundProgress> {
  roundId: number;
  status: "done" | "failed";
  durationMs: number;
  error?: string;
  registry?: RegistryRefreshResult;
  /** architecture.md §2.7: distinct hosts tried, those failing at the network level, whether the round paused for its own network. */
  network?: RoundNetwork;
}

export type StartResult =
  { started: true; roundId: number; done: Promise<RoundSummary> } | { started: false; roundId: number; reason: string };

export class RoundAlreadyRunning extends Error {
  override name = "RoundAlreadyRunning";
  constructor(readonly roundId: number) {
    super(`round ${roundId} is already running`);
  }
}

/** Every probed server lands in exactly one counter, so the counters add up to `probed`. */
const PROGRESS_FIELD: Record<RunKind, Exclude<keyof RoundProgress, "due" | "probed">> = {
  read: "read",
  partly_read: "partlyRead",
  failed: "failed",
  gated: "gated",
  slowed_down: "slowedDown",
  skipped: "skipped",
};

/** "398 read, 2 partly read, 9 failed, 5 gated, 1 slowed down, 3 skipped"; "read" is a complete read (architecture.md §2.2). */
export function countsLine(p: Required<RoundProgress>): string {
  return `${p.read} read, ${p.partlyRead} partly read, ${p.failed} failed, ${p.gated} gated, ${p.slowedDown} slowed down, ${p.skipped} skipped`;
}

const RUN_RETENTION_MS = 30 * DAY;
/** A host serving this many registry servers is a hosting platform: it may have several probes in flight (architecture.md §2.5). */
export const CROWDED_HOST_MIN_SERVERS = 50;

/** Takes the round lock synchronously and starts the round in the background; the answer says which round
 * runs, so a caller (the route) can answer at once. Throws DatabaseUnwritable while the database cannot be written
 * (architecture.md §6), after trying the write that proves it writable again. */
export function startRound(deps: RoundDeps): StartResult {
  const now = deps.now ?? (() => new Date());
  assertWritable(deps.db, now());
  const holder = roundLockHolder(os.hostname(), process.pid, randomBytes(4).toString("hex"));
  const lock = acquireRoundLock(deps.db, {
    holder,
    trigger: deps.trigger ?? "manual",
    now: now(),
    staleMs: deps.lockStaleMs ?? 2 * MINUTE,
  });
  if (!lock.acquired) {
    return { started: false, roundId: lock.roundId, reason: `round ${lock.roundId} is already running` };
  }
  const done = executeRound(deps, lock.roundId, holder);
  return { started: true, roundId: lock.roundId, done };
}

/** Runs one round to the end; throws RoundAlreadyRunning when another round holds the lock. */
export async function runRound(deps: RoundDeps): Promise<RoundSummary> {
  const r = startRound(deps);
  if (!r.started) throw new RoundAlreadyRunning(r.roundId);
  return r.done;
}

async function executeRound(deps: RoundDeps, roundId: number, holder: string): Promise<RoundSummary> {
  const r = roundRun(deps, roundId, holder);
  try {
    // 1. What is due: the registry read again when stale, then the due servers (or the ones asked for).
    const due = await dueServers(r);
    // 2. Pacing per host (architecture.md §2.5): the site's one gate per host, robots.txt read through it, and the
    // queue that hands due servers to the workers as each host allows.
    const pacing = hostPacing(r, due);
    // 3. What each server's run shares (server-run.ts), and how runs are written (in batched transactions).
    const { ctx, regions } = serverContext(r, pacing);
    const recorder = createRecorder(r, pacing.queue);
    // architecture.md §2.7: network-level failures wait for a second probe and for the host-share guard before they are written.
    const watch = watchOwnNetwork(deps, ctx, pacing.queue, r.log, (server, input) => recorder.record(server, recorder.persist(input)));
    // 4. The workers: each takes the next server its host allows until the queue is empty or stopped.
    await Promise.all(Array.from({ length: pacing.workers }, () => work(r, ctx, pacing.queue, watch, recorder)));
    await watch.drained();
    regions?.finish();
    r.network = watch.figures();
    await recorder.drained();
    if (pacing.queue.leftDue.length > 0) {
      r.log(`[rounds] ${pacing.queue.leftDue.length} servers left due: their host asked to pause beyond this round`);
    }
    if (r.stop.met()) throw new Error("stopped: the database cannot be written");
    // 5. Maintenance, then the round recorded as finished.
    return finishDone(r);
  } catch (e) {
    return await finishFailed(r, e);
  } finally {
    await release(r);
  }
}

/** One round's own state, shared by its steps. */
interface RoundRun {
  deps: RoundDeps;
  db: Db;
  roundId: number;
  holder: string;
  now: () => Date;
  log: (line: string) => void;
  t0: number;
  progress: Required<RoundProgress>;
  heartbeat: RoundHeartbeat;
  /** architecture.md §6: once any write fails for want of space (or an I/O error, a read-only file), the round starts
   * nothing more, and counts the results it could not write. */
  stop: WriteStop;
  /** What a failed write interrupted before any server was probed, for the round's error. */
  interrupted?: string;
  registry?: RoundSummary["registry"];
  network?: RoundNetwork;
  // Built by the steps, since building them reads the database; handed back by release().
  gate?: RoundHostGate;
  connections?: SharedConnections;
  stopAtOpening?: () => void;
}

function roundRun(deps: RoundDeps, roundId: number, holder: string): RoundRun {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((line: string) => console.log(line));
  const progress: Required<RoundProgress> = { due: 0, probed: 0, read: 0, partlyRead: 0, failed: 0, gated: 0, slowedDown: 0, skipped: 0 };
  const heartbeat = new RoundHeartbeat(deps, roundId, holder, now, log, progress);
  return { deps, db: deps.db, roundId, holder, now, log, t0: performance.now(), progress, heartbeat, stop: createWriteStop(deps.db) };
}

async function dueServers(r: RoundRun): Promise<DueServer[]> {
  const { deps, db, now } = r;
  r.interrupted = "the registry's new list was not stored";
  r.registry = deps.serverIds ? undefined : await refreshRegistryIfStale(deps, now, r.log);
  r.interrupted = undefined;
  const due = deps.serverIds ? serversForRound(db, deps.serverIds) : listDueServers(db, now().toISOString(), deps.maxServers);
  r.progress.due = due.length;
  r.heartbeat.beat(true);
  return due;
}

interface Pacing {
  workers: number;
  policy: AddressPolicy;
  gate: RoundHostGate;
  robots: RobotsBook;
  queue: HostQueue<DueServer>;
}

/** The round's view of the site's one gate per host (shared with the cross-reader and with rounds of other processes on
 * this database), robots.txt read through it (the gate learns each host's Crawl-delay from it), and the host queue. */
function hostPacing(r: RoundRun, due: DueServer[]): Pacing {
  const { deps, db, now, log } = r;
  const workers = Math.max(1, Math.min(deps.concurrency ?? 16, due.length || 1));
  const policy = deps.addressPolicy ?? createAddressPolicy({ allowPrivate: deps.allowPrivateNetworks ?? false });
  const gate = (r.gate = createHostGate({ db, now, limitOf: probesAtOnce(deps, workers) }));
  const robots = createRobotsBook({ db, now, policy, userAgent: deps.userAgent ?? DEFAULT_USER_AGENT, gate });
  const queue = createHostQueue(due, {
    hostOf: (s) => hostOf(s.remoteUrl ?? "") ?? `#${s.id}`,
    limitOf: gate.limitOf,
    maxPauseWaitMs: deps.maxPauseWaitMs ?? MINUTE,
    nowMs: () => now().getTime(),
  });
  for (const p of activeHostPauses(db, now().toISOString())) queue.pause(p.host, Date.parse(p.until));
  // Whoever's write failed (the clock, a re-probe, this round): no probe starts after it, even for a worker that
  // waits for a paused host.
  r.stopAtOpening = db.$writes.onOpen(() => queue.stop());
  gate.onPause((host, until, cause) => {
    queue.pause(host, until.getTime());
    putHostPause(db, { host, until: until.toISOString(), cause }, now().toISOString());
    log(`[rounds] ${host} answered ${cause}: no new probe to it before ${until.toISOString()}`);
  });
  return { workers, policy, gate, robots, queue };
}

/** What each server's run shares. architecture.md §8: with regions, the step sends each server to its primary region
 * (the in-process probe is the local region's) and confirms a failure from two others before the quorum's verdict. */
function serverContext(
  r: RoundRun,
  { policy, gate, robots }: Pacing,
): { ctx: ServerContext; regions?: ReturnType<typeof createRegionsStep> } {
  const { deps, db, roundId, now, log } = r;
  const connections = (r.connections = new SharedConnections({ policy, limits: { ...DEFAULT_LIMITS, ...deps.limits } }));
  const regions = deps.regions ? createRegionsStep({ db, config: deps.regions, roundId, now, log, gate, judge }) : undefined;
  const ctx: ServerContext = {
    roundId,
    now,
    policy,
    isOptedOut: operatorOptOuts(db),
    robots: deps.robots === false ? null : robots,
    gate,
    connections,
    probe: deps.probe ?? regions?.probeStep(probeInProcess) ?? probeInProcess,
    ...(deps.limits ? { limits: deps.limits } : {}),
    ...(deps.userAgent ? { userAgent: deps.userAgent } : {}),
    ...(deps.owners ? { owners: deps.owners } : {}),
  };
  return { ctx, regions };
}

interface Recorder {
  persist(input: PersistInput): Promise<RunKind>;
  /** Counts a run once its transaction committed, while the worker has already moved on to the next server. */
  record(server: DueServer, written: Promise<RunKind>): void;
  /** A result the database could not take: nothing about the server was written, so it stays due (architecture.md §6). */
  unrecorded(server: DueServer, code: string | null): null;
  drained(): Promise<void>;
}

function createRecorder(r: RoundRun, queue: HostQueue<DueServer>): Recorder {
  const { deps, db, now, log, stop, progress, heartbeat } = r;
  const writer = createBatchWriter(db, deps.batch);
  const recording = new Set<Promise<void>>();
  const unrecorded = (server: DueServer, code: string | null): null => {
    queue.stop();
    log(`[rounds] ${server.name}: not recorded, the database cannot be written (${code}); it stays due`);
    return null;
  };
  const record = (server: DueServer, written: Promise<RunKind>) => {
    const p = written
      .catch((e: unknown) => {
        if (stop.unrecorded(e)) return unrecorded(server, unwritableCode(e));
        log(`[rounds] ${server.name}: not recorded: ${(e as Error).message}`);
        try {
          // An internal error must not make the server due again at once, or every round retries it first.
          updateServer(db, server.id, {
            nextDueAt: new Date(now().getTime() + HOUR).toISOString(),
            scheduleReason: "internal error while recording the probe; retried in 1 h",
          });
        } catch (again) {
          if (stop.unrecorded(again)) return unrecorded(server, unwritableCode(again));
          throw again;
        }
        return "failed" as const;
      })
      .then((kind) => {
        if (kind === null) return;
        progress.probed++;
        progress[PROGRESS_FIELD[kind]]++;
        heartbeat.beat(false, stop);
        if (heartbeat.lost || stop.met()) queue.stop();
        deps.onProgress?.({ ...progress });
      });
    recording.add(p);
    void p.finally(() => recording.delete(p));
  };
  return {
    persist: (input) => writer.persist(input).then((w) => w.kind),
    record,
    unrecorded,
    drained: async () => {
      await writer.flush();
      await Promise.all(recording);
    },
  };
}

/** One worker: takes the next server its host allows, probes it and hands the run to the recorder. */
async function work(
  r: RoundRun,
  ctx: ServerContext,
  queue: HostQueue<DueServer>,
  watch: OwnNetworkWatch,
  recorder: Recorder,
): Promise<void> {
  const { stop } = r;
  for (let taken = await queue.take(); taken; taken = await queue.take()) {
    if (stop.met()) {
      // Not probed: it stays due.
      taken.done();
      queue.stop();
      break;
    }
    const server = taken.item;
    let written: Promise<RunKind> | null;
    try {
      const run = await serverRun(ctx, server);
      if (stop.met()) {
        // The round stopped while this probe was in flight (it may have waited for its host slot until space came
        // back): it writes nothing more but its end, so this result is not recorded and the server stays due.
        stop.dropped();
        recorder.unrecorded(server, stop.cause!.code);
        continue;
      }
      // null: the watch holds the run back (a second probe is due) or has written it itself.
      // architecture.md §8: a verdict of two or more regions already is a second view; it is written as it is.
      const input = run.regional?.quorum ? run : watch.settle(server, run);
      written = input && recorder.persist(input);
    } catch (e) {
      written = Promise.reject(e);
    } finally {
      taken.done();
    }
    if (written) recorder.record(server, written);
  }
}

function finishDone(r: RoundRun): RoundSummary {
  const { deps, db, roundId, holder, now, log, progress, network, registry } = r;
  if (!deps.serverIds) maintain(db, now(), log);
  if (r.heartbeat.lost) throw new Error("the round lock was taken over (heartbeat went stale); stopped early");
  const durationMs = Math.round(performance.now() - r.t0);
  finishRound(db, roundId, holder, { now: now(), status: "done", progress, network, durationMs });
  evaluateProbeNetwork(db, now(), log);
  log(`[rounds] ${progress.due} due, ${countsLine(progress)} in ${Math.round(durationMs / 1000)} s`);
  return finished(deps, log, { roundId, status: "done", durationMs, registry, network, ...progress });
}

async function finishFailed(r: RoundRun, e: unknown): Promise<RoundSummary> {
  const { deps, db, roundId, holder, now, log, progress, network, registry, t0 } = r;
  if (r.stop.met(e)) {
    const error = r.stop.error(r.interrupted);
    await recordStopped(db, { roundId, holder, now, log, error, progress, network, t0 });
    const durationMs = Math.round(performance.now() - t0);
    return finished(deps, log, { roundId, status: "failed", durationMs, error, registry, ...progress });
  }
  const error = (e as Error).message;
  const durationMs = Math.round(performance.now() - t0);
  finishRound(db, roundId, holder, { now: now(), status: "failed", error, progress, network, durationMs });
  log(`[rounds] round ${roundId} failed after ${Math.round(durationMs / 1000)} s: ${error}`);
  return finished(deps, log, { roundId, status: "failed", durationMs, error, registry, ...progress });
}

async function release(r: RoundRun): Promise<void> {
  r.stopAtOpening?.();
  r.heartbeat.stop();
  r.gate?.settle();
  await r.connections?.close();
}

/** The round lock's heartbeat: on a timer, and after servers at most once a second (each beat is a commit; one
 * after every server would double the round's writes). `lost` turns true once another round took the lock over. */
class RoundHeartbeat {
  lost = false;
  private last = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: RoundDeps,
    private readonly roundId: number,
    private readonly holder: string,
    private readonly now: () => Date,
    log: (line: string) => void,
    private readonly progress: Required<RoundProgress>,
  ) {
    this.timer = setInterval(
      () => {
        try {
          this.beat(true);
        } catch (e) {
          log(`[rounds] heartbeat failed: ${(e as Error).message}`);
        }
      },
      deps.heartbeatMs ?? Math.min(10_000, (deps.lockStaleMs ?? 2 * MINUTE) / 4),
    );
    this.timer.unref?.();
  }

  /** With `stop`, a failed write is handed to it instead of thrown. No beat while database_unwritable is open: it could
   * not be written, and the lock going stale is what lets the next round take over (architecture.md §6). */
  beat(force = false, stop?: WriteStop): void {
    if (this.deps.db.$writes.unwritable) return;
    const t = performance.now();
    if (!force && t - this.last < 1_000) return;
    this.last = t;
    try {
      if (!heartbeatRound(this.deps.db, this.roundId, this.holder, this.now(), this.progress)) this.lost = true;
    } catch (e) {
      if (!stop?.met(e)) throw e;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Probes (and so requests) in flight at once to a host (architecture.md §2.5): one; for a host serving
 * CROWDED_HOST_MIN_SERVERS or more, up to PROBE_HOST_CONCURRENCY but at most half the workers, so it never starves
 * the rest of the round. One until the host's robots.txt (and so its Crawl-delay) is known; one at all with a Crawl-delay.
 */
function probesAtOnce(deps: RoundDeps, workers: number): HostGateOptions["limitOf"] {
  const crowded = crowdedHosts(deps.db, CROWDED_HOST_MIN_SERVERS);
  const crowdedLimit = Math.max(1, Math.min(deps.hostConcurrency ?? 4, Math.floor(workers / 2)));
  return (host, pace) =>
    crowded.has(host) && (deps.robots === false || pace.crawlDelayKnown) && pace.crawlDelayMs === 0 ? crowdedLimit : 1;
}

function finished(deps: RoundDeps, log: (line: string) => void, s: RoundSummary): RoundSummary {
  try {
    deps.onFinished?.(s);
  } catch (e) {
    log(`[rounds] after round ${s.roundId}: ${(e as Error).message}`);
  }
  return s;
}

/** A round the database stopped (architecture.md §6): says how many results it could not write, then waits until it can
 * record its end as failed with that error, or until the next round has taken its lock over. */
async function recordStopped(
  db: Db,
  o: {
    roundId: number;
    holder: string;
    now: () => Date;
    log: (line: string) => void;
    error: string;
    progress: Required<RoundProgress>;
    network: RoundNetwork | undefined;
    t0: number;
  },
): Promise<void> {
  o.log(`[rounds] round ${o.roundId} stopped starting probes: ${o.error}; it ends as failed once the database takes writes again`);
  for (;;) {
    if (!(await untilWritable(db, { roundId: o.roundId, now: o.now }))) {
      o.log(`[rounds] round ${o.roundId} was taken over by the next round before it could record its end: ${o.error}`);
      return;
    }
    const durationMs = Math.round(performance.now() - o.t0);
    try {
      finishRound(db, o.roundId, o.holder, {
        now: o.now(),
        status: "failed",
        error: o.error,
        progress: o.progress,
        network: o.network,
        durationMs,
      });
      // The next round may have taken the lock over at the moment writes came back: finishRound leaves that row alone.
      const taken = getRound(db, o.roundId)?.status === "abandoned";
      o.log(
        taken
          ? `[rounds] round ${o.roundId} was taken over by the next round: ${o.error}`
          : `[rounds] round ${o.roundId} failed after ${Math.round(durationMs / 1000)} s: ${o.error}`,
      );
      return;
    } catch (e) {
      // The space filled up again before the end could be written: wait once more.
      if (!unwritableCode(e)) throw e;
    }
  }
}

/** architecture.md §2.7 wired to this round: its queue, its writer, the probe_network alert, and robots.txt as the
 * reachability check (any HTTP answer counts: the path to the host works). */
function watchOwnNetwork(
  deps: RoundDeps,
  ctx: ServerContext,
  queue: HostQueue<DueServer>,
  log: (line: string) => void,
  record: (server: DueServer, input: PersistInput) => void,
): OwnNetworkWatch {
  const { db } = deps;
  const { now } = ctx;
  const level = networkShareLevel(db, new Date(now().getTime() - 7 * DAY).toISOString());
  return createOwnNetworkWatch({
    timing: { ...OWN_NETWORK_TIMING, ...deps.ownNetwork },
    level,
    now,
    log,
    requeue: (server, atMs) => queue.requeue(server, atMs),
    hold: () => queue.hold(),
    resume: () => queue.resume(),
    stop: () => queue.stop(),
    remaining: () => queue.remaining,
    record,
    reachable: async (origins) => {
      const userAgent = deps.userAgent ?? DEFAULT_USER_AGENT;
      const answers = await Promise.all(origins.map((o) => fetchRobots(new URL(o), { policy: ctx.policy, userAgent, hostGate: ctx.gate })));
      return answers.filter((a) => a.status !== null).length;
    },
    opened: (message, share) => {
      const at = now();
      if (openAlert(db, { kind: "probe_network", day: utcDay(at), message, value: share, baseline: level, at: at.toISOString() })) {
        log(`[alerts] probe_network opened: ${message}`);
      }
    },
    recovered: (message) => {
      if (resolveAlerts(db, "probe_network", { at: now().toISOString(), message }).length > 0)
        log(`[alerts] probe_network resolved: ${message}`);
    },
  });
}

/** Bounded growth and the coverage alert, once per round. */
function maintain(db: Db, now: Date, log: (line: string) => void): void {
  pruneOldRuns(db, new Date(now.getTime() - RUN_RETENTION_MS).toISOString());
  pruneRounds(db, new Date(now.getTime() - 3 * RUN_RETENTION_MS).toISOString());
  pruneCoverageServers(db, addDays(utcDay(now), -40));
  evaluateCoverage(db, now, log);
}
