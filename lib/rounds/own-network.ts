// architecture.md §2.7: telling the probe's own outage from a server's. A failure at the network level (no HTTP answer:
// resolver down, refused, connect timeout, TLS, reset) is held back before it is recorded; a server not known to be
// failing is probed a second time first. Meanwhile the round watches the share of distinct hosts whose latest
// probe failed that way; when it says the probe's own network is down, the round stops starting probes, checks
// reachability for a while, and records the servers it failed on as Not checked, due again next round.
import { judge } from "../checks";
import { networkFailureOf } from "../checks/network";
import { isIpLiteral, unbracket } from "../probe/address-policy";
import type { Exchange, ProbeObservation } from "../probe/types";
import type { DueServer } from "../store/servers/round";
import type { PersistInput } from "./persist";

export interface OwnNetworkTiming {
  /** A network-level failure waits this long before it is recorded; a server not known to be failing gets its
   * second probe then. Default 60 s. */
  secondProbeAfterMs: number;
  /** While the network is presumed down, reachability is checked this often… Default 30 s. */
  recheckEveryMs: number;
  /** …for at most this long; then the round ends and what it did not probe stays due. Default 10 min. */
  recheckForMs: number;
}

export const OWN_NETWORK_TIMING: OwnNetworkTiming = { secondProbeAfterMs: 60_000, recheckEveryMs: 30_000, recheckForMs: 10 * 60_000 };

/** The share counts once this many distinct hosts were tried… */
export const MIN_HOSTS = 20;
/** …and presumes the network down above this share… */
export const SHARE_LIMIT = 0.5;
/** …when that is also above this many times its 7-day level. */
export const LEVEL_FACTOR = 3;
/** The share is taken over the latest probes of this many distinct hosts, so an outage late in a long round shows as
 * quickly as one at its start. */
export const RECENT_HOSTS = 50;
/** Hosts asked for robots.txt at each reachability check; more than half must answer. */
const RECHECK_HOSTS = 5;

/** Whether the observation shows the resolver answering for a DNS name (so an NXDOMAIN elsewhere is that name's). */
function resolverAnswered(obs: ProbeObservation): boolean {
  let host: string;
  try {
    host = unbracket(new URL(obs.url).hostname);
  } catch {
    return false;
  }
  if (isIpLiteral(host)) return false;
  return obs.exchanges.some(
    (e) => e.status !== undefined || (e.network !== undefined && e.network !== "nxdomain" && e.network !== "dns_unavailable"),
  );
}

/** The exchanges a handshake outcome rests on. */
function handshakeSeqs(hs: ProbeObservation["handshake"]): number[] {
  if (!hs) return [];
  return hs.seqs ?? ("seq" in hs && typeof hs.seq === "number" ? [hs.seq] : []);
}

/** The second probe's observation with the first one's exchanges in front of its own, so the evidence shows both. */
export function bothProbes(first: ProbeObservation, second: ProbeObservation): ProbeObservation {
  const k = first.exchanges.length;
  const shifted = shiftSeqs(second, k);
  const firstSeqs = handshakeSeqs(first.handshake);
  if (shifted.handshake) shifted.handshake = { ...shifted.handshake, seqs: [...firstSeqs, ...handshakeSeqs(shifted.handshake)] };
  return {
    ...shifted,
    exchanges: [...first.exchanges, ...second.exchanges.map((e): Exchange => ({ ...e, seq: e.seq + k }))],
    secondProbe: {
      firstStartedAt: first.startedAt,
      firstCause: first.handshake?.kind === "failed" ? first.handshake.cause : "failed",
      afterMs: Math.max(0, Date.parse(second.startedAt) - Date.parse(first.finishedAt)),
      firstSeqs,
    },
  };
}

/** Every `seq` and `seqs` the outcomes name, moved by `k`; tool definitions (the server's own data) are left alone. */
function shiftSeqs(obs: ProbeObservation, k: number): ProbeObservation {
  const walk = (v: unknown, key?: string): unknown => {
    if (key === "tools" || key === "exchanges") return v;
    if (key === "seq" && typeof v === "number") return v + k;
    if (key === "seqs" && Array.isArray(v)) return v.map((n) => (typeof n === "number" ? n + k : n));
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([kk, x]) => [kk, walk(x, kk)]));
    return v;
  };
  return walk(obs) as ProbeObservation;
}

export interface OwnNetworkDeps {
  timing: OwnNetworkTiming;
  /** The share's 7-day level (0 without history). */
  level: number;
  now: () => Date;
  log: (line: string) => void;
  /** Back in the queue for a second probe at `atMs`; the answer withdraws it again. */
  requeue(server: DueServer, atMs: number): () => boolean;
  hold(): void;
  resume(): void;
  stop(): void;
  /** Servers the queue has not handed out yet. */
  remaining(): number;
  /** Writes one server's run. */
  record(server: DueServer, input: PersistInput): void;
  /** Asks each origin for robots.txt; how many answered over HTTP at all. */
  reachable(origins: string[]): Promise<number>;
  opened(message: string, share: number): void;
  recovered(message: string): void;
}

export interface OwnNetworkWatch {
  /** What to write for a finished probe now; null when it waits (a second probe, a hold) or the guard wrote it. */
  settle(server: DueServer, input: PersistInput): PersistInput | null;
  /** Resolves once every held failure is written and any pause is over. */
  drained(): Promise<void>;
  /** For the round's row: distinct hosts tried, those whose latest probe failed at the network level, whether the
   * round paused. */
  figures(): { hostsTried: number; hostsNetworkFailed: number; paused: boolean };
}

interface Held {
  server: DueServer;
  input: PersistInput;
  /** Withdraws the second probe from the queue; absent for a failure that only waits for the share's verdict. */
  withdraw?: () => boolean;
}

interface HostMark {
  host: string;
  origin: string;
  failed: boolean;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** architecture.md §2.7: a server whose last verdict says its handshake completed gets a second probe before a network-level
 * failure is recorded. A Not checked handshake counts too: a credential gate, a slow-down or the probe's own outage
 * say nothing against the server. Never probed, or already failing: no second probe. */
function getsSecondProbe(server: DueServer): boolean {
  return server.stateHandshake !== null && server.stateHandshake !== "failed";
}

export function createOwnNetworkWatch(deps: OwnNetworkDeps): OwnNetworkWatch {
  const held = new Map<number, Held>();
  // Latest outcome per host for the whole round (its row), and the latest RECENT_HOSTS hosts for the share.
  const roundHosts = new Map<string, boolean>();
  let recent: HostMark[] = [];
  let resolver = false;
  let down: { detail: string } | null = null;
  let paused = false;
  let window: Promise<void> | null = null;

  const shareOf = (marks: HostMark[]) => marks.filter((m) => m.failed).length / Math.max(1, marks.length);

  const mark = (server: DueServer, failed: boolean) => {
    // Servers already known to be failing say little about the network; they stay out of the share.
    if (server.stateHandshake === "failed") return;
    let url: URL;
    try {
      url = new URL(server.remoteUrl ?? "");
    } catch {
      return;
    }
    const host = url.host.toLowerCase();
    roundHosts.set(host, failed);
    recent = recent.filter((m) => m.host !== host);
    recent.push({ host, origin: url.origin, failed });
    if (recent.length > RECENT_HOSTS) recent.shift();
  };

  const ownNetwork = (input: PersistInput): PersistInput => {
    const obs: ProbeObservation = { ...input.obs, blocked: { kind: "probe_network", detail: down!.detail } };
    return { ...input, obs, results: judge(obs), skipped: true };
  };

  const release = (h: Held, input: PersistInput) => {
    held.delete(h.server.id);
    deps.record(h.server, input);
  };

  /** The share can be judged and says nothing is wrong with our network: failures waiting for it are written. */
  const releaseWaiting = () => {
    for (const h of [...held.values()]) if (!h.withdraw) release(h, h.input);
  };

  const trip = () => {
    const share = shareOf(recent);
    const failed = recent.filter((m) => m.failed).length;
    const detail = `${failed} of the last ${recent.length} hosts probed failed at the network level, against ${pct(deps.level)} over the past 7 days`;
    down = { detail };
    paused = true;
    deps.hold();
    deps.log(
      `[rounds] the probe's own network looks down: ${detail}; no new probes while it is rechecked every ${Math.round(deps.timing.recheckEveryMs / 1000)} s`,
    );
    deps.opened(
      `${detail[0]!.toUpperCase()}${detail.slice(1)} (a share of ${pct(share)}): the probe's own network is presumed down, and those servers are recorded Not checked, not Failed.`,
      share,
    );
    for (const h of [...held.values()]) {
      if (h.withdraw && !h.withdraw()) continue; // its second probe is under way: settle() takes it
      release(h, ownNetwork(h.input));
    }
    window = deps.remaining() > 0 ? recheck() : null;
  };

  const recheck = async () => {
    const started = Date.now();
    while (Date.now() - started < deps.timing.recheckForMs) {
      await new Promise((r) => setTimeout(r, deps.timing.recheckEveryMs));
      const origins = recent
        .filter((m) => m.failed)
        .slice(-RECHECK_HOSTS)
        .map((m) => m.origin);
      const answered = origins.length > 0 ? await deps.reachable(origins) : 0;
      if (answered * 2 > origins.length) {
        deps.log(`[rounds] probes succeed again: ${answered} of ${origins.length} hosts answered; the round goes on`);
        deps.recovered(`Probes succeed again: ${answered} of ${origins.length} hosts that had failed answered a reachability check.`);
        down = null;
        recent = [];
        deps.resume();
        return;
      }
      deps.log(`[rounds] reachability check: ${answered} of ${origins.length} hosts answered; still paused`);
    }
    deps.log(
      `[rounds] the probe's network did not come back within ${Math.round(deps.timing.recheckForMs / 1000)} s: the round ends, ${deps.remaining()} servers left due`,
    );
    deps.stop();
  };

  return {
    settle(server, input) {
      if (input.skipped) return input;
      let kind = networkFailureOf(input.obs);
      if (resolverAnswered(input.obs)) resolver = true;
      // NXDOMAIN while the resolver answers other names is the server's own missing name.
      if (kind === "nxdomain" && resolver) kind = null;
      mark(server, kind !== null);
      if (!down && recent.length >= MIN_HOSTS && shareOf(recent) > SHARE_LIMIT && shareOf(recent) > LEVEL_FACTOR * deps.level) trip();
      if (!down && recent.length >= MIN_HOSTS) releaseWaiting();
      const first = held.get(server.id);
      if (kind === null) {
        if (first) release(first, input);
        return first ? null : input;
      }
      if (down) {
        if (!first) return ownNetwork(input);
        release(first, ownNetwork(input));
        return null;
      }
      if (first) {
        const obs = bothProbes(first.input.obs, input.obs);
        const twice = { ...input, obs, results: judge(obs) };
        // A slow round may get here before the share counts: then the failure waits for its verdict like a first one.
        if (recent.length >= MIN_HOSTS) release(first, twice);
        else held.set(server.id, { server, input: twice });
        return null;
      }
      if (getsSecondProbe(server)) {
        held.set(server.id, { server, input, withdraw: deps.requeue(server, deps.now().getTime() + deps.timing.secondProbeAfterMs) });
        return null;
      }
      // Never answered, or already failing: written as it is once the share can be judged (until then the guard
      // may still find the failure was ours).
      if (recent.length >= MIN_HOSTS) return input;
      held.set(server.id, { server, input });
      return null;
    },
    async drained() {
      for (const h of [...held.values()]) {
        // A second probe the queue will not hand out any more (the round was stopped): the server stays due.
        if (h.withdraw) held.delete(h.server.id);
        else release(h, h.input);
      }
      while (window) {
        const w = window;
        await w;
        if (window === w) window = null;
      }
    },
    figures: () => ({ hostsTried: roundHosts.size, hostsNetworkFailed: [...roundHosts.values()].filter(Boolean).length, paused }),
  };
}
