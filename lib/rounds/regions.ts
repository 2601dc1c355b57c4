// architecture.md §8 wired to a round: the site's one broker connection and region book per process, the probe step
// through lib/regions for each due server, the region_down alert, and what the round writes for a server no region
// could probe. Without NATS_URL none of this runs: the round probes in-process as the one region `local`.
import type { Db } from "../../db/client";
import type { Config } from "../config";
import type { CheckResult } from "../checks/types";
import { DEFAULT_LIMITS, type ProbeObservation, type ProbeOptions, type ProbeTarget } from "../probe";
import { createDispatcher, type Dispatcher } from "../regions/dispatch";
import { createRegionBook, type RegionBook, type RegionHealthOptions, type RegionState } from "../regions/health";
import { connectNats } from "../regions/nats";
import { probeAcrossRegions } from "../regions/regional";
import { openAlert, openAlertOf, resolveAlerts } from "../store/alerts";
import { listOptOuts, robotsDisallowedHosts } from "../store/optouts";
import { saveRegionStates, storedRegionStates } from "../store/regions";
import { ROBOTS_DISALLOW_REASON } from "./robots";
import type { DueServer } from "../store/servers/round";
import { utcDay } from "./coverage";
import type { RoundHostGate } from "./host-gate";
import type { JudgedProbe, ProbeStep } from "./server-run";

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
}

/** The round's regions from the configuration (architecture.md §8); undefined without NATS_URL and PROBE_REGIONS, when
 * the round probes in-process as the one region `local`, exactly as before. */
export function roundRegionsFrom(config: Pick<Config, "regions" | "nats">): RoundRegions | undefined {
  if (!config.regions) return undefined;
  const nats = config.nats && {
    url: config.nats.url,
    ...(config.nats.user !== undefined ? { user: config.nats.user, password: config.nats.password ?? "" } : {}),
    ...(config.nats.credsFile ? { credsFile: config.nats.credsFile } : {}),
  };
  return { regions: config.regions.regions, ...(config.regions.local ? { local: config.regions.local } : {}), ...(nats ? { nats } : {}) };
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

// One broker connection per process and configuration, kept across rounds; one book per database and region list.
const dispatchers = new Map<string, Dispatcher>();
const books = new WeakMap<object, Map<string, RegionBook>>();

function dispatcherFor(nats: NonNullable<RoundRegions["nats"]>, log: (l: string) => void): Dispatcher {
  const key = `${nats.url}|${nats.user ?? ""}|${nats.credsFile ?? ""}`;
  let d = dispatchers.get(key);
  if (!d) {
    const connection = connectNats({ ...nats, name: "mcp-status-site", log });
    connection.catch((e: unknown) => log(`[regions] no NATS connection: ${(e as Error).message}`));
    d = createDispatcher({ connection, log });
    dispatchers.set(key, d);
  }
  return d;
}

/** Closes the process's broker connections (tests, and a process that is stopping). */
export async function closeRegionConnections(): Promise<void> {
  const all = [...dispatchers.values()];
  dispatchers.clear();
  await Promise.all(all.map((d) => d.close()));
}

function downSentence(s: RegionState): string {
  if (s.down?.kind === "host_share") {
    return `Region ${s.id} is down: ${s.down.failed} of the last ${s.down.hosts} hosts it probed failed at the network level while other regions reached theirs, so its failures count for nothing and it gets no primaries.`;
  }
  const since = s.down ? new Date(s.down.sinceMs).toISOString() : "its start";
  return `Region ${s.id} is down: it answered no probe since ${since}, so it gets no primaries until it answers and reads again.`;
}

function bookFor(d: RegionsStepDeps): RegionBook {
  let perDb = books.get(d.db.$client);
  if (!perDb) books.set(d.db.$client, (perDb = new Map()));
  const key = JSON.stringify([d.config.regions, d.config.health ?? {}]);
  let book = perDb.get(key);
  if (!book) {
    const db = d.db;
    book = createRegionBook({
      regions: d.config.regions,
      now: d.now,
      ...(d.config.health ? { options: d.config.health } : {}),
      stored: storedRegionStates(db).filter((s) => d.config.regions.includes(s.id)),
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
        saveRegionStates(db, [toStored(s)], at);
      },
    });
    perDb.set(key, book);
  }
  return book;
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

export function createRegionsStep(deps: RegionsStepDeps): RegionsStep {
  const book = bookFor(deps);
  const remote = deps.config.regions.some((r) => r !== deps.config.local);
  const dispatcher = remote && deps.config.nats ? dispatcherFor(deps.config.nats, deps.log) : null;
  let noRegion = 0;
  let answered = 0;
  // What agents must not fetch from either (auth metadata hosts): the operator's list and robots.txt refusals known now.
  const optedOutHosts = [
    ...listOptOuts(deps.db).map((o) => ({ host: o.host, reason: o.reason })),
    ...robotsDisallowedHosts(deps.db).map((host) => ({ host, reason: ROBOTS_DISALLOW_REASON })),
  ];
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
      saveRegionStates(deps.db, book.states().map(toStored), at.toISOString());
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
