// The host gate of architecture.md §2.5, its first job: the in-memory queue and pacing of each host's requests (limits,
// Crawl-delay, pauses). Sharing the slots with other processes on the same database is host-leases.ts's job.
import type { Db } from "../../db/client";
import { isSlowDown, parseRetryAfter, type HostGate } from "../probe/host-gate";
import { HostLeases, newHostLeaseState, type LeasedHost, type Slot } from "./host-leases";

/** How long a 429 without Retry-After pauses its host (the server itself is rescheduled by its own rule). */
export const PAUSE_WITHOUT_RETRY_AFTER_MS = 60_000;
/** No request lasts this long (the probe's deadline is a minute): a slot still held then was never given back, and
 * the gate takes it back rather than lose it for the life of the process. */
export const SLOT_MAX_HOLD_MS = 10 * 60_000;

/** What the gate knows of a host's pace when it asks for the host's limit. */
export interface HostPace {
  /** robots.txt's Crawl-delay, as this process and the database know it; 0 for none. */
  crawlDelayMs: number;
  /** Whether this gate's user has told it the host's Crawl-delay yet (its robots.txt was read). */
  crawlDelayKnown: boolean;
}

/** A host asked to slow down (`isSlowDown`): new probes to it wait until `until`. */
export type PauseListener = (host: string, until: Date, cause: string) => void;

export interface HostGateOptions {
  /** Requests to one host in flight at once (its probe limit: 1, or PROBE_HOST_CONCURRENCY when crowded). */
  limitOf: (host: string, pace: HostPace) => number;
  /** The round's clock, for pause ends. */
  now?: () => Date;
  /** The database the site's processes share (architecture.md §2.5): with it, every gate on that database in any process
   * paces a host together; without it, the gate paces only its own requests. */
  db?: Db;
}

export interface RoundHostGate extends HostGate {
  /** The requests to a host it lets be in flight at once now: `limitOf` asked with what it knows of the host. */
  limitOf(host: string): number;
  /** Calls `listener` for every pause a host asks for from now on. */
  onPause(listener: PauseListener): void;
  /** robots.txt's Crawl-delay for the host (seconds; null for none): requests go one at a time, this far apart. */
  setCrawlDelay(host: string, seconds: number | null): void;
  crawlDelayMs(host: string): number;
  /** Most requests this gate's user had in flight at once per host. */
  readonly peaks: ReadonlyMap<string, number>;
  /** Hands slots kept for a next request back at once (the end of a round or a cross-read). */
  settle(): void;
}

/**
 * A view of the process's gate for one user (a round, the cross-reader): its own limits, pauses and peaks, over
 * slots that every user on the same database shares. At most `limitOf(host)` requests to a host in flight, first
 * come first served; with a Crawl-delay, one at a time and each starting at least the delay after the previous one
 * ended, whoever sent it (stricter than start to start, so no two arrive closer than the delay).
 */
export function createHostGate(options: HostGateOptions): RoundHostGate {
  const ledger = options.db ? ledgerFor(options.db) : new HostLedger(undefined);
  const now = options.now ?? (() => new Date());
  const peaks = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const toldCrawlDelay = new Set<string>();
  const listeners: PauseListener[] = [];
  const limitOf = (host: string) => {
    const key = host.toLowerCase();
    return options.limitOf(key, { crawlDelayMs: ledger.crawlDelayMs(key), crawlDelayKnown: toldCrawlDelay.has(key) });
  };
  return {
    peaks,
    limitOf,
    onPause: (listener) => void listeners.push(listener),
    setCrawlDelay(host, seconds) {
      toldCrawlDelay.add(host.toLowerCase());
      ledger.setCrawlDelay(host.toLowerCase(), seconds);
    },
    crawlDelayMs: (host) => ledger.crawlDelayMs(host.toLowerCase()),
    settle: () => ledger.settle(),
    async acquire(host) {
      const key = host.toLowerCase();
      const release = await ledger.acquire(key, () => limitOf(key));
      const n = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, n);
      peaks.set(key, Math.max(peaks.get(key) ?? 0, n));
      let done = false;
      return () => {
        if (done) return;
        done = true;
        inFlight.set(key, inFlight.get(key)! - 1);
        release();
      };
    },
    answered(host, status, retryAfter) {
      if (!isSlowDown(status, retryAfter)) return;
      const secs = parseRetryAfter(retryAfter, now());
      const ms = secs !== undefined ? secs * 1000 : PAUSE_WITHOUT_RETRY_AFTER_MS;
      const cause = `HTTP ${status}${secs !== undefined ? ` with Retry-After ${secs} s` : " without a usable Retry-After"}`;
      const until = new Date(now().getTime() + ms);
      for (const listener of listeners) listener(host.toLowerCase(), until, cause);
    },
  };
}

// One ledger per database connection, so a round and the cross-reader in one process share their slots without
// asking the database each time; other processes on the same file see them as leases.
const ledgers = new WeakMap<object, HostLedger>();

function ledgerFor(db: Db): HostLedger {
  let l = ledgers.get(db.$client);
  if (!l) ledgers.set(db.$client, (l = new HostLedger(db)));
  return l;
}

interface Waiter {
  limit: () => number;
  grant: (slot: Slot) => void;
}

interface HostState extends LeasedHost {
  /** Slots in use by this process's requests. */
  active: Set<Slot>;
  /** When this process's last request to the host ended (ms since the epoch). */
  lastEndMs: number;
  waiters: Waiter[];
  retry?: NodeJS.Timeout;
}

/** The process's requests per host: first come first served, at most the waiter's limit in flight, one at a time and
 * spaced by the Crawl-delay when there is one. With a database, each slot is also one the leases allow. */
class HostLedger {
  private readonly hosts = new Map<string, HostState>();
  /** Crawl-delays learned from robots.txt in this process. */
  private readonly delays = new Map<string, number>();
  private readonly leases: HostLeases | undefined;

  constructor(db: Db | undefined) {
    this.leases =
      db &&
      new HostLeases(db, this.hosts, {
        pump: (host) => this.pump(host, this.stateOf(host)),
        retryIn: (host, ms) => this.retryIn(host, this.stateOf(host), ms),
        learnedDelayMs: (host) => this.delays.get(host) ?? 0,
      });
  }

  setCrawlDelay(host: string, seconds: number | null): void {
    if (seconds && seconds > 0) this.delays.set(host, seconds * 1000);
    else this.delays.delete(host);
  }

  /** The Crawl-delay learned here or stored by another process, whichever is longer. */
  crawlDelayMs(host: string): number {
    return Math.max(this.delays.get(host) ?? 0, this.leases?.storedDelayMs(host) ?? 0);
  }

  acquire(host: string, limit: () => number): Promise<() => void> {
    const st = this.stateOf(host);
    return new Promise((resolve) => {
      st.waiters.push({
        limit,
        grant: (slot) => {
          let done = false;
          const release = () => {
            if (done) return;
            done = true;
            clearTimeout(lost);
            this.release(host, st, slot);
          };
          const lost = setTimeout(release, SLOT_MAX_HOLD_MS);
          lost.unref?.();
          resolve(release);
        },
      });
      this.pump(host, st);
    });
  }

  /** Gives every kept slot back to the database; with no request in flight or waiting, leaves the gate. */
  settle(): void {
    let busy = false;
    for (const st of this.hosts.values()) if (st.active.size > 0 || st.waiters.length > 0) busy = true;
    this.leases?.settle(busy);
  }

  private stateOf(host: string): HostState {
    let st = this.hosts.get(host);
    if (!st) this.hosts.set(host, (st = { active: new Set(), lastEndMs: -Infinity, waiters: [], lease: newHostLeaseState() }));
    return st;
  }

  private pump(host: string, st: HostState): void {
    try {
      if (st.waiters.length === 0 || (this.leases && !this.leases.ready(host, st))) return;
      while (st.waiters.length > 0) {
        const w = st.waiters[0]!;
        const delay = this.crawlDelayMs(host);
        if (st.active.size >= (delay > 0 ? 1 : Math.max(1, w.limit()))) return;
        const nowMs = Date.now();
        if (delay > 0 && nowMs < st.lastEndMs + delay) return this.retryIn(host, st, st.lastEndMs + delay - nowMs);
        const slot = this.leases ? this.leases.slotFor(host, st, w.limit, nowMs) : { lease: null };
        if (slot === undefined) return;
        st.waiters.shift();
        st.active.add(slot);
        w.grant(slot);
      }
    } finally {
      this.leases?.pumped(host, st);
    }
  }

  private release(host: string, st: HostState, slot: Slot): void {
    st.active.delete(slot);
    // Date.now() is the end rounded down: a whole millisecond later is never early, so no two requests come closer than the
    // Crawl-delay even where the clock's millisecond turns between the end and the next start.
    st.lastEndMs = Math.max(st.lastEndMs, Date.now() + 1);
    this.leases?.released(st, slot);
    this.pump(host, st);
  }

  private retryIn(host: string, st: HostState, ms: number): void {
    st.retry ??= setTimeout(
      () => {
        st.retry = undefined;
        this.pump(host, st);
      },
      Math.max(1, Math.ceil(ms)),
    );
  }
}
