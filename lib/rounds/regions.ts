// architecture.md §8 wired to a round: the site's one broker connection and region book per process, the probe step
// through lib/regions for each due server, the region_down alert, and what the round writes for a server no region
// could probe. Without NATS_URL none of this runs: the round probes in-process as the one region `local`.
import type { Db } from "../../db/client";
import type { Config } from "../config";
import { judge } from "../checks";
import type { CheckResult } from "../checks/types";
import { DEFAULT_LIMITS, type ProbeObservation, type ProbeOptions, type ProbeTarget } from "../probe";
import { createDispatcher, type Dispatcher } from "../regions/dispatch";
import { createRegionBook, REGION_HEALTH, type RegionBook, type RegionHealthOptions, type RegionState } from "../regions/health";
import { connectNats } from "../regions/nats";
import { probeAcrossRegions, probeForRecovery, type RegionalServer } from "../regions/regional";
import { openAlert, openAlertOf, resolveAlerts } from "../store/alerts";
import { activeHostPauses, putHostPause } from "../store/hosts";
import { listOptOuts, robotsDisallowedHosts } from "../store/optouts";
import { recoveryCandidates, saveRegionStates, storedRegionStates, type StoredRegionState } from "../store/regions";
import { ROBOTS_DISALLOW_REASON } from "./robots";
import type { DueServer } from "../store/servers/round";
import { utcDay } from "./coverage";
import { createHostGate, type RoundHostGate } from "./host-gate";
import { REQUESTS_PER_PROBE, type JudgedProbe, type ProbeStep } from "./server-run";

export interface RoundRegions {
  /** PROBE_REGIONS, PROBE_LOCAL_REGION among them when set. */
  regions: string[];
  /** PROBE_LOCAL_REGION: the site probes as this region in-process. */
  local?: string;
  /** The broker; without it only the local region can probe. */
  nats?: { url: string; user?: string; password?: string; credsFile?: string };
  /** Tests shorten the silence and lower the host counts. */
  health?: Partial<RegionHealthOptions>;
  /** How much longer than the probe's deadline an answer may take to arrive. Default 15 s. */
  answerMarginMs?: number;
  /** How often the recovery clock asks each down region again, between rounds as during them (REGION_RECOVERY_SECONDS).
   * Default 30 s. */
  recoveryIntervalMs?: number;
}

/** The recovery clock's default period: with two reads in a row needed, a region that reads again is up within it. */
export const REGION_RECOVERY_MS = 30_000;

/** The round's regions from the configuration (architecture.md §8); undefined without NATS_URL and PROBE_REGIONS, when
 * the round probes in-process as the one region `local`, exactly as before. */
export function roundRegionsFrom(config: Pick<Config, "regions" | "nats">): RoundRegions | undefined {
  if (!config.regions) return undefined;
  const nats = config.nats && {
    url: config.nats.url,
    ...(config.nats.user !== undefined ? { user: config.nats.user, password: config.nats.password ?? "" } : {}),
    ...(config.nats.credsFile ? { credsFile: config.nats.credsFile } : {}),
  };
  return {
    regions: config.regions.regions,
    ...(config.regions.local ? { local: config.regions.local } : {}),
    ...(nats ? { nats } : {}),
    ...(config.regions.recoveryIntervalMs !== undefined ? { recoveryIntervalMs: config.regions.recoveryIntervalMs } : {}),
  };
}

export interface RegionsStepDeps {
  db: Db;
  config: RoundRegions;
  roundId: number;
  now: () => Date;
  log: (line: string) => void;
  gate: RoundHostGate;
  judge: (obs: ProbeObservation) => CheckResult[];
}

/** How the local region probes (PROBE_LOCAL_REGION): the round's in-process probe, with the options it built. */
export type LocalProbe = (server: DueServer, target: ProbeTarget, options: ProbeOptions) => Promise<ProbeObservation>;

export interface RegionsStep {
  /** The round's probe step (server-run.ts) through the regions; `local` probes for the local region. A verdict of two
   * or more regions carries its quorum (`regional.quorum`); one region's is single vantage (§2.7 applies). */
  probeStep(local: LocalProbe): (...a: Parameters<ProbeStep>) => Promise<JudgedProbe>;
  /** At the end of the round: stores the regions' states, and judges probe_network for "no region could probe". */
  finish(): void;
}

/** How the probe_network alert this step opens starts; only that one is resolved by regions answering again. */
const NO_REGION = "No region could probe";

/** A region book and, per region, the updatedAt of the state this process last stored or took over: a newer one was
 * written by another process (a round of `npm run round`), and the book adopts it. */
interface KeptBook {
  book: RegionBook;
  seen: Map<string, string>;
}

// One broker connection per process and configuration, and one book per database and region list, kept across rounds.
// On globalThis: Next bundles instrumentation (the scheduler, the recovery clock) and the rounds route separately, and
// two books in one process would each judge the regions alone (one puts a region back up, the other keeps it down).
const PROCESS_KEY = Symbol.for("mcp-status.rounds.regions");
const shared = ((globalThis as { [PROCESS_KEY]?: { dispatchers: Map<string, Dispatcher>; books: WeakMap<object, Map<string, KeptBook>> } })[
  PROCESS_KEY
] ??= { dispatchers: new Map(), books: new WeakMap() });

function dispatcherFor(nats: NonNullable<RoundRegions["nats"]>, log: (l: string) => void): Dispatcher {
  const key = `${nats.url}|${nats.user ?? ""}|${nats.credsFile ?? ""}`;
  let d = shared.dispatchers.get(key);
  if (!d) {
    const connection = connectNats({ ...nats, name: "mcp-status-site", log });
    connection.catch((e: unknown) => log(`[regions] no NATS connection: ${(e as Error).message}`));
    d = createDispatcher({ connection, log });
    shared.dispatchers.set(key, d);
  }
  return d;
}

/** Closes the process's broker connections (tests, and a process that is stopping). */
export async function closeRegionConnections(): Promise<void> {
  const all = [...shared.dispatchers.values()];
  shared.dispatchers.clear();
  await Promise.all(all.map((d) => d.close()));
}

function downSentence(s: RegionState): string {
  if (s.down?.kind === "host_share") {
    return `Region ${s.id} is down: ${s.down.failed} of the last ${s.down.hosts} hosts it probed failed at the network level while other regions reached theirs, so its failures count for nothing and it gets no primaries.`;
  }
  const since = s.down ? new Date(s.down.sinceMs).toISOString() : "its start";
  return `Region ${s.id} is down: it answered no probe since ${since}, so it gets no primaries until it answers and reads again.`;
}

interface BookDeps {
  db: Db;
  config: RoundRegions;
  now: () => Date;
  log: (line: string) => void;
}

function save(seen: KeptBook["seen"], db: Db, states: readonly RegionState[], at: string): void {
  saveRegionStates(db, states.map(toStored), at);
  for (const s of states) seen.set(s.id, at);
}

/** The process's book for this database and region list, brought up to date with what other processes stored. */
function bookFor(d: BookDeps): KeptBook {
  let perDb = shared.books.get(d.db.$client);
  if (!perDb) shared.books.set(d.db.$client, (perDb = new Map()));
  const key = JSON.stringify([d.config.regions, d.config.health ?? {}]);
  const stored = storedRegionStates(d.db).filter((s) => d.config.regions.includes(s.id));
  let kept = perDb.get(key);
  if (!kept) {
    const db = d.db;
    const seen = new Map(stored.map((s) => [s.id, s.updatedAt]));
    const book = createRegionBook({
      regions: d.config.regions,
      now: d.now,
      ...(d.config.health ? { options: d.config.health } : {}),
      stored,
      changed: (s) => {
        const at = d.now().toISOString();
        if (!s.up) {
          const message = downSentence(s);
          if (openAlert(db, { kind: "region_down", subject: s.id, day: utcDay(d.now()), message, value: s.hostShare, at })) {
            d.log(`[alerts] region_down opened: ${message}`);
          }
        } else if (openAlertOf(db, "region_down", s.id)) {
          const message = `Region ${s.id} answers and reads again.`;
          resolveAlerts(db, "region_down", { at, message, subject: s.id });
          d.log(`[alerts] region_down resolved: ${message}`);
        }
        save(seen, db, [s], at);
      },
    });
    perDb.set(key, (kept = { book, seen }));
    return kept;
  }
  adoptNewer(kept, stored);
  return kept;
}

function adoptNewer(kept: KeptBook, stored: readonly StoredRegionState[]): void {
  const newer = stored.filter((s) => s.updatedAt > (kept.seen.get(s.id) ?? ""));
  if (newer.length === 0) return;
  kept.book.adopt(newer);
  for (const s of newer) kept.seen.set(s.id, s.updatedAt);
}

const toStored = (s: RegionState) => ({
  id: s.id,
  up: s.up,
  lastAnswerAt: s.lastAnswerAt,
  hostShare: s.hostShare,
  hostsTried: s.hostsTried,
  down: s.down,
  downSince: s.downSince,
});

/** What a probe request carries besides its target: what agents must not fetch from either (auth metadata hosts), the
 * operator's list and the robots.txt refusals known now. */
function optedOutHostsOf(db: Db): { host: string; reason: string }[] {
  return [
    ...listOptOuts(db).map((o) => ({ host: o.host, reason: o.reason })),
    ...robotsDisallowedHosts(db).map((host) => ({ host, reason: ROBOTS_DISALLOW_REASON })),
  ];
}

export function createRegionsStep(deps: RegionsStepDeps): RegionsStep {
  const kept = bookFor(deps);
  const book = kept.book;
  const remote = deps.config.regions.some((r) => r !== deps.config.local);
  const dispatcher = remote && deps.config.nats ? dispatcherFor(deps.config.nats, deps.log) : null;
  let noRegion = 0;
  let answered = 0;
  const optedOutHosts = optedOutHostsOf(deps.db);
  const probe = async (server: DueServer, target: ProbeTarget, options: ProbeOptions, local: LocalProbe): Promise<JudgedProbe> => {
    // The options' deadline already counts the host's Crawl-delay (server-run.ts); agents space requests by it too.
    const deadlineMs = options.limits?.deadlineMs ?? DEFAULT_LIMITS.deadlineMs;
    const crawlDelayMs = deps.gate.crawlDelayMs(new URL(target.url).host);
    const outcome = await probeAcrossRegions(
      {
        book,
        dispatcher,
        judge: deps.judge,
        gate: deps.gate,
        timeoutMs: deadlineMs + (deps.config.answerMarginMs ?? 15_000),
        round: deps.roundId,
        log: deps.log,
        ...(deps.config.local ? { local: { region: deps.config.local, probe: (t: ProbeTarget) => local(server, t, options) } } : {}),
      },
      {
        name: server.name,
        target,
        request: { limits: { ...options.limits, deadlineMs }, crawlDelayMs, optedOutHosts },
        knownFailing: server.stateHandshake === "failed",
      },
    );
    if (!outcome.verdict) {
      noRegion++;
      const why = outcome.unanswered.map((u) => `${u.region}: ${u.cause.replace("_", " ")}`).join("; ");
      const iso = deps.now().toISOString();
      const obs: ProbeObservation = {
        url: target.url,
        transport: target.transport,
        startedAt: iso,
        finishedAt: iso,
        blocked: { kind: "probe_network", detail: `no region could probe (${why || "no region is configured"})` },
        era: "unknown",
        exchanges: [],
      };
      return { judged: { obs, results: deps.judge(obs), skipped: true } };
    }
    answered++;
    const v = outcome.verdict;
    return {
      judged: {
        obs: v.deciding.obs,
        results: v.results,
        skipped: false,
        regional: {
          region: v.deciding.region,
          role: v.deciding.role,
          quorum: v.singleVantage ? null : v.quorum,
          others: outcome.reads
            .filter((r) => r !== v.deciding)
            .map((r) => ({ region: r.region, role: r.role, obs: r.obs, results: r.results })),
        },
      },
    };
  };
  return {
    probeStep: (local) => (server, target, options) => probe(server, target, options, local),
    finish() {
      const at = deps.now();
      save(kept.seen, deps.db, book.states(), at.toISOString());
      if (noRegion > 0 && answered === 0) {
        const message = `${NO_REGION}: ${noRegion} servers got no answer from any region, and are Not checked without back-off.`;
        if (openAlert(deps.db, { kind: "probe_network", day: utcDay(at), message, value: 1, baseline: 0, at: at.toISOString() })) {
          deps.log(`[alerts] probe_network opened: ${message}`);
        }
      } else if (answered > 0 && openAlertOf(deps.db, "probe_network")?.message.startsWith(NO_REGION)) {
        const message = `Regions answer again: ${answered} servers were read by a region in round ${deps.roundId}.`;
        resolveAlerts(deps.db, "probe_network", { at: at.toISOString(), message });
        deps.log(`[alerts] probe_network resolved: ${message}`);
      }
    },
  };
}

export interface RegionRecoveryDeps {
  db: Db;
  config: RoundRegions;
  log: (line: string) => void;
  now?: () => Date;
}

export interface RegionRecovery {
  /** Asks each down region again now (what the timer runs); resolves when their probes have answered. */
  tick(): Promise<void>;
  stop(): void;
}

/** Servers the recovery clock asks a down region to read: what rounds read lately, on hosts that are not paused, opted
 * out or refused by robots.txt. */
const RECOVERY_CANDIDATES = 50;

/**
 * The recovery clock (architecture.md §8): every `recoveryIntervalMs`, rounds or not, each down region served by agents
 * is sent a probe of a server the site read lately, through the site's host gate; while it reads, another follows, up to
 * the reads in a row that bring it back. These probes count for nothing but the region's health, so a replaced agent
 * is seen within one period, and region_down resolves, even when no round is due.
 */
export function startRegionRecovery(deps: RegionRecoveryDeps): RegionRecovery {
  const now = deps.now ?? (() => new Date());
  const intervalMs = deps.config.recoveryIntervalMs ?? REGION_RECOVERY_MS;
  const readsNeeded = deps.config.health?.recoveryReads ?? REGION_HEALTH.recoveryReads;
  // The same slots as every round and the cross-reader on this database; a host that asks to slow down is paused for all.
  const gate = createHostGate({ db: deps.db, now, limitOf: () => 1 });
  gate.onPause((host, until, cause) => putHostPause(deps.db, { host, until: until.toISOString(), cause }, now().toISOString()));
  const next = new Map<string, number>();
  let running: Promise<void> | null = null;

  const politeCandidates = (): DueServer[] => {
    const iso = now().toISOString();
    const bare = (h: string) => h.toLowerCase().replace(/:\d+$/, "");
    const refused = new Set([
      ...optedOutHostsOf(deps.db).map((o) => bare(o.host)),
      ...activeHostPauses(deps.db, iso).map((p) => bare(p.host)),
    ]);
    return recoveryCandidates(deps.db, RECOVERY_CANDIDATES).filter((s) => s.remoteUrl && s.host && !refused.has(bare(s.host)));
  };

  const askAgain = async (kept: KeptBook, dispatcher: Dispatcher, region: string, candidates: DueServer[]) => {
    const optedOutHosts = optedOutHostsOf(deps.db);
    let asked = 0;
    let read = 0;
    let last = "";
    while (asked < readsNeeded && !kept.book.isUp(region)) {
      // Round-robin over the candidates, so successive probes of one region go to different servers.
      const i = next.get(region) ?? 0;
      next.set(region, i + 1);
      const s = candidates[i % candidates.length]!;
      const url = s.remoteUrl!;
      const crawlDelayMs = gate.crawlDelayMs(new URL(url).host);
      const deadlineMs = DEFAULT_LIMITS.deadlineMs + REQUESTS_PER_PROBE * crawlDelayMs;
      const server: RegionalServer = {
        name: s.name,
        target: { url, transport: s.transport ?? "streamable-http" },
        request: { limits: { deadlineMs }, crawlDelayMs, optedOutHosts },
        knownFailing: false,
      };
      asked++;
      const timeoutMs = deadlineMs + (deps.config.answerMarginMs ?? 15_000);
      const r = await probeForRecovery({ book: kept.book, dispatcher, judge, gate, timeoutMs, log: deps.log }, region, server);
      last = r.answered ? (r.read ? `read ${s.name}` : `did not read ${s.name}`) : `no answer (${r.cause.replace("_", " ")})`;
      if (!r.answered || !r.read) break;
      read++;
    }
    deps.log(
      `[regions] recovery: ${region} asked ${asked}, ${read} read, last ${last}; ${kept.book.isUp(region) ? "up again" : "still down"}`,
    );
  };

  const once = async () => {
    const kept = bookFor({ db: deps.db, config: deps.config, now, log: deps.log });
    const down = kept.book.down().filter((r) => r !== deps.config.local);
    if (down.length === 0 || !deps.config.nats) return;
    const candidates = politeCandidates();
    if (candidates.length === 0) {
      deps.log(`[regions] recovery: ${down.join(", ")} down, and no server read lately to ask them with`);
      return;
    }
    const dispatcher = dispatcherFor(deps.config.nats, deps.log);
    await Promise.all(down.map((region) => askAgain(kept, dispatcher, region, candidates)));
    // What the probes showed (the last answer, the host share) is on /api/status at once, not at the next round's end.
    const stillDown = kept.book.states().filter((s) => down.includes(s.id) && !s.up);
    if (stillDown.length > 0) save(kept.seen, deps.db, stillDown, now().toISOString());
    gate.settle();
  };

  const tick = () =>
    (running ??= once()
      .catch((e: unknown) => deps.log(`[regions] recovery failed: ${(e as Error).message}`))
      .finally(() => (running = null)));

  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref?.();
  return { tick, stop: () => clearInterval(timer) };
}
