// architecture.md §8 for one due server: its primary region probes it; a failed handshake or tool list is confirmed at
// once from two other regions that are up; the quorum of those reads decides. Regions that are down get a few copies
// that count for nothing but their own recovery. The host gate takes a slot for every probe sent to any region and
// gives it back on the answer or the timeout, so a host sees one bound for all regions.
import type { CheckResult } from "../checks/types";
import { networkFailureOf } from "../checks/network";
import type { HostGate, ProbeObservation, ProbeTarget } from "../probe";
import type { RegionAnswer, Dispatcher } from "./dispatch";
import type { RegionBook } from "./health";
import { decideQuorum, discoveryFailed, type QuorumVerdict, type RegionalRead } from "./quorum";
import type { ProbeRequestInput } from "./wire";
import type { NoAnswerCause, RunRole } from "../vocabulary/regions";

export interface RegionalDeps {
  book: RegionBook;
  /** Null when the site has no broker connection configured. */
  dispatcher: Dispatcher | null;
  /** The region the site probes as in-process (PROBE_LOCAL_REGION), with the round's own probe. */
  local?: { region: string; probe: (target: ProbeTarget) => Promise<ProbeObservation> };
  judge: (obs: ProbeObservation) => CheckResult[];
  /** The round's view of the site's one gate per host (architecture.md §2.5). */
  gate: HostGate;
  /** A request to a region waits at most this long for its answer: the probe's deadline and a margin. */
  timeoutMs: number;
  /** Seeds the rotation of primaries, so a server's primary moves from round to round. */
  round: number;
  log?: (line: string) => void;
}

export interface RegionalServer {
  /** The server's registry name: with the round, it picks the primary. */
  name: string;
  target: ProbeTarget;
  /** What the request carries besides the target (limits, Crawl-delay, opted-out hosts). */
  request: Omit<ProbeRequestInput, "v" | "id" | "url" | "transport">;
  /** The server's latest verdict says its handshake failed: its failures say little about a region's network. */
  knownFailing: boolean;
}

export interface RegionalOutcome {
  /** Every valid read, the deciding one among them, recovery copies included. */
  reads: RegionalRead[];
  /** The verdict over the reads that vote; null when no region answered. */
  verdict: QuorumVerdict | null;
  /** Probes that got no usable answer, with why. */
  unanswered: Extract<RegionAnswer, { ok: false }>[];
}

const handshakeCompleted = (r: CheckResult[]) => r.find((c) => c.check === "handshake")?.state === "verified";

/** One probe of `s` by `region`: sent through the site's host gate (or run in-process for the local region), judged, and
 * entered in the region's book. Null when the region gave no usable answer, which is added to `unanswered`. */
async function askRegion(
  d: Omit<RegionalDeps, "round">,
  s: RegionalServer,
  region: string,
  role: RunRole,
  unanswered: RegionalOutcome["unanswered"],
): Promise<RegionalRead | null> {
  const log = d.log ?? ((l: string) => console.log(l));
  const host = new URL(s.target.url).host;
  let answer: RegionAnswer;
  if (d.local && region === d.local.region) {
    const t0 = performance.now();
    const observation = await d.local.probe(s.target);
    answer = { ok: true, region, observation, agent: "site", ms: Math.round(performance.now() - t0) };
  } else if (!d.dispatcher) {
    answer = { ok: false, region, cause: "nats_down", problem: "the site has no NATS connection", ms: 0 };
  } else {
    const release = await d.gate.acquire(host);
    try {
      answer = await d.dispatcher.probe(region, { ...s.request, url: s.target.url, transport: s.target.transport }, d.timeoutMs);
    } finally {
      release();
    }
    // The site's own broker link being down says nothing about the region: only probes that reached NATS count.
    if (answer.ok || answer.cause !== "nats_down") d.book.asked(region);
    if (answer.ok)
      for (const e of answer.observation.exchanges)
        if (e.status !== undefined) d.gate.answered?.(new URL(e.url).host, e.status, e.responseHeaders["retry-after"]);
  }
  if (!answer.ok) {
    unanswered.push(answer);
    log(`[regions] ${region} did not answer for ${s.name}: ${answer.cause} (${answer.problem})`);
    return null;
  }
  // The registry's word on missing headers is the site's, never the agent's (architecture.md §2.6, 0.15.0).
  if (s.target.configHeaders?.length) answer.observation.configHeaders = s.target.configHeaders;
  else delete answer.observation.configHeaders;
  let results: CheckResult[];
  try {
    results = d.judge(answer.observation);
  } catch (e) {
    // An observation the judges cannot read is not an answer either.
    unanswered.push({
      ok: false,
      region,
      cause: "invalid",
      problem: `the observation could not be judged: ${(e as Error).message}`,
      ms: answer.ms,
    });
    log(`[regions] ${region}: answer for ${s.name} refused: it could not be judged`);
    return null;
  }
  const read: RegionalRead = { region, role, obs: answer.observation, results };
  // A server already known to be failing says little about the region's network: its answer only shows the region lives.
  const counted = !s.knownFailing || role === "recovery";
  d.book.answered(region, counted ? host : null, {
    networkFailed: networkFailureOf(answer.observation) !== null,
    read: handshakeCompleted(results),
  });
  return read;
}

/** One probe that counts for nothing but a down region's health (architecture.md §8), as the recovery clock sends between
 * rounds: whether the region read the server (its handshake completed), or why it gave no usable answer. */
export async function probeForRecovery(
  deps: Omit<RegionalDeps, "round" | "local">,
  region: string,
  s: RegionalServer,
): Promise<{ answered: true; read: boolean } | { answered: false; cause: NoAnswerCause }> {
  const unanswered: RegionalOutcome["unanswered"] = [];
  const read = await askRegion(deps, s, region, "recovery", unanswered);
  return read ? { answered: true, read: handshakeCompleted(read.results) } : { answered: false, cause: unanswered[0]!.cause };
}

export async function probeAcrossRegions(deps: RegionalDeps, s: RegionalServer): Promise<RegionalOutcome> {
  const reads: RegionalRead[] = [];
  const unanswered: RegionalOutcome["unanswered"] = [];
  const tried = new Set<string>();

  const probeIn = async (region: string, role: RunRole): Promise<RegionalRead | null> => {
    tried.add(region);
    const read = await askRegion(deps, s, region, role, unanswered);
    if (read) reads.push(read);
    return read;
  };

  deps.book.tick();
  const up = deps.book.up();
  // With no region up, every region is asked in turn: one vantage point, judged as architecture.md §2.7 says.
  const candidates = up.length > 0 ? up : [...deps.book.regions];
  const first = up.length > 0 ? deps.book.primaryFor(s.name, deps.round)! : candidates[0]!;
  const order = [first, ...rotateFrom(candidates, first).filter((r) => r !== first)];
  let primary: RegionalRead | null = null;
  for (const region of order) {
    const read = await probeIn(region, "primary");
    if (read && (up.length === 0 || deps.book.isUp(region))) {
      primary = read;
      break;
    }
    // Its failures tripped the region's host share just now: they count for nothing, and another region is asked.
    if (read) read.role = "recovery";
  }
  if (!primary) return { reads, verdict: null, unanswered };

  const votes: RegionalRead[] = [primary];
  if (discoveryFailed(primary.results) && deps.book.isUp(primary.region)) {
    // Two other regions that are up (all of them when fewer are), replacing one that does not answer.
    let pending = deps.book.othersThan([...tried], 2);
    while (pending.length > 0 && votes.length < 3) {
      const got = await Promise.all(pending.map((r) => probeIn(r, "confirmation")));
      votes.push(...got.filter((r): r is RegionalRead => r !== null));
      const missing = got.filter((r) => r === null).length;
      pending = missing > 0 ? deps.book.othersThan([...tried], missing) : [];
    }
  }
  const voting = votes.filter((r) => deps.book.isUp(r.region));
  const verdict = decideQuorum(voting.length > 0 ? voting : votes);

  // A down region's recovery is seen by copies of probes that read: they count for nothing but its own health.
  if (!discoveryFailed(verdict.results)) {
    for (const region of deps.book.takeRecoveryCopies()) if (!tried.has(region)) await probeIn(region, "recovery");
  }
  return { reads, verdict, unanswered };
}

function rotateFrom(list: readonly string[], first: string): string[] {
  const i = Math.max(0, list.indexOf(first));
  return [...list.slice(i), ...list.slice(0, i)];
}
