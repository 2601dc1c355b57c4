import os from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { isSlowDown, parseRetryAfter, type HostGate } from "../probe/host-gate";
import {
  forgetHostHolder,
  hostPaceOf,
  joinHostGate,
  keepHostSlotsInMemory,
  othersInMemory,
  othersOnHostGate,
  othersWaitFor,
  renewHostSlots,
  returnHostSlots,
  shareHostSlots,
  takeHostSlot,
} from "../store/host-gate";

/** How long a 429 without Retry-After pauses its host (the server itself is rescheduled by its own rule). */
export const PAUSE_WITHOUT_RETRY_AFTER_MS = 60_000;

/** A slot this process no longer uses is kept this long for its next request to the host before it goes back
 * to the database: a probe's requests, and a round's probes of one host, follow each other closely. */
export const SLOT_LINGER_MS = 20;
/** A slot held by a process that died lapses after this long; a live holder renews its slots every third of it. */
export const SLOT_TTL_MS = 60_000;
/** How often a process waiting for a slot another process holds asks again. */
export const SLOT_POLL_MS = 50;
/** How often a waiting process asks again while the database cannot be written. */
const UNWRITABLE_POLL_MS = 1_000;
/** How often a process checks the gate's other holders: alone, whether one arrived; sharing, whether it is alone again. */
export const HOLDERS_POLL_MS = 50;
/** A process sharing the gate goes back to keeping its slots in memory once it has been alone this long. */
export const ALONE_AFTER_MS = 1_000;
/** A waiting process that stops asking loses its place in the line after this long. */
const WAIT_TTL_MS = 5_000;
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
export function createHostGate(o: HostGateOptions): RoundHostGate {
  const ledger = o.db ? ledgerFor(o.db) : new HostLedger(undefined);
  const now = o.now ?? (() => new Date());
  const peaks = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const toldCrawlDelay = new Set<string>();
  const listeners: PauseListener[] = [];
  const limitOf = (host: string) => {
    const key = host.toLowerCase();
    return o.limitOf(key, { crawlDelayMs: ledger.crawlDelayMs(key), crawlDelayKnown: toldCrawlDelay.has(key) });
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

/** A slot: its lease in the database, or null while it is kept in memory (or there is no database). */
interface Slot {
  lease: number | null;
}

interface Waiter {
  limit: () => number;
  grant: (slot: Slot) => void;
}

interface HostState {
  /** Slots in use by this process's requests. */
  active: Set<Slot>;
  /** When this process's last request to the host ended (ms since the epoch). */
  lastEndMs: number;
  /** Whether `lastEndMs` is newer than what the database was last told. */
  unsaved: boolean;
  /** The memory spell whose database figures (last end, stored Crawl-delay) this host has read. */
  loaded: number;
  /** Leased slots held and not in use, kept for the next request. */
  idle: Slot[];
  waiters: Waiter[];
  retry?: NodeJS.Timeout;
  linger?: NodeJS.Timeout;
  /** Since when this process waits for a slot another process holds (its place in the line). */
  waitingSince?: number;
}

/**
 * How this process uses the gate on its database (architecture.md §2.5): `out` (not on it), `joining` (another process
 * keeps slots in memory; none may be taken before it has handed them over), `memory` (alone: slots are counted here and
 * nothing per request goes to the database), `shared` (every slot is a lease).
 */
type Mode = "out" | "joining" | "memory" | "shared";

class HostLedger {
  private readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly hosts = new Map<string, HostState>();
  /** Crawl-delays learned from robots.txt in this process, and from other processes through the database. */
  private readonly delays = new Map<string, number>();
  private readonly stored = new Map<string, number>();
  private mode: Mode = "out";
  /** Counts the spells in memory mode: a host reads the database's figures once per spell. */
  private spell = 0;
  private poll?: NodeJS.Timeout;
  private renewedMs = 0;
  private aloneSinceMs?: number;
  /** Hosts whose requests wait for the hand-over of the process in memory. */
  private readonly joining = new Set<string>();

  constructor(private readonly db: Db | undefined) {}

  /** The database while it is open; a closed one leaves the gate pacing this process only. */
  private get shared(): Db | undefined {
    return this.db?.$client.open ? this.db : undefined;
  }

  setCrawlDelay(host: string, seconds: number | null): void {
    if (seconds && seconds > 0) this.delays.set(host, seconds * 1000);
    else this.delays.delete(host);
  }

  crawlDelayMs(host: string): number {
    return Math.max(this.delays.get(host) ?? 0, this.stored.get(host) ?? 0);
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
    for (const [host, st] of this.hosts) this.giveBack(host, st);
    for (const st of this.hosts.values()) if (st.active.size > 0 || st.waiters.length > 0) return;
    this.leave();
  }

  private stateOf(host: string): HostState {
    let st = this.hosts.get(host);
    if (!st) this.hosts.set(host, (st = { active: new Set(), lastEndMs: -Infinity, unsaved: false, loaded: -1, idle: [], waiters: [] }));
    return st;
  }

  private pump(host: string, st: HostState): void {
    try {
      if (st.waiters.length === 0 || !this.ready(host, st)) return;
      while (st.waiters.length > 0) {
        const w = st.waiters[0]!;
        const delay = this.crawlDelayMs(host);
        if (st.active.size >= (delay > 0 ? 1 : Math.max(1, w.limit()))) return;
        const nowMs = Date.now();
        if (delay > 0 && nowMs < st.lastEndMs + delay) return this.retryIn(host, st, st.lastEndMs + delay - nowMs);
        const slot = this.slotFor(host, st, w, nowMs);
        if (slot === undefined) return;
        st.waiters.shift();
        st.active.add(slot);
        w.grant(slot);
      }
    } finally {
      if (st.idle.length > 0) this.lingerThenGiveBack(host, st);
    }
  }

  /** Whether slots to `host` may be taken now: joins the gate first, and in memory reads the host's stored pace once. */
  private ready(host: string, st: HostState): boolean {
    const db = this.shared;
    if (!db) return true;
    if (this.mode === "out" && !this.join(db)) {
      this.retryIn(host, st, db.$writes.unwritable ? UNWRITABLE_POLL_MS : SLOT_POLL_MS);
      return false;
    }
    if (this.mode === "joining") {
      st.waitingSince ??= Date.now();
      this.joining.add(host);
      return false;
    }
    if (this.mode === "memory" && st.loaded !== this.spell) {
      try {
        const pace = hostPaceOf(db, host);
        if (pace.lastEndMs !== null) st.lastEndMs = Math.max(st.lastEndMs, pace.lastEndMs);
        if (pace.crawlDelayMs > 0) this.stored.set(host, pace.crawlDelayMs);
        else this.stored.delete(host);
        st.loaded = this.spell;
      } catch {
        this.retryIn(host, st, SLOT_POLL_MS);
        return false;
      }
    }
    return true;
  }

  /** A slot: in memory when alone; else a kept slot if no other process waits for this host, or a new lease; undefined
   * when none is free yet. */
  private slotFor(host: string, st: HostState, w: Waiter, nowMs: number): Slot | undefined {
    const db = this.shared;
    if (!db || this.mode === "memory") return { lease: null };
    if (st.idle.length > 0) {
      if (!othersWaitFor(db, host, this.holder, nowMs)) return st.idle.pop()!;
      this.giveBack(host, st);
    }
    let answer: ReturnType<typeof takeHostSlot>;
    try {
      answer = takeHostSlot(db, {
        host,
        holder: this.holder,
        ...(st.waitingSince !== undefined ? { waitingSince: st.waitingSince } : {}),
        limit: w.limit(),
        crawlDelayMs: this.delays.get(host) ?? 0,
        nowMs,
        leaseTtlMs: SLOT_TTL_MS,
        waitTtlMs: WAIT_TTL_MS,
        pollMs: SLOT_POLL_MS,
      });
    } catch {
      // The database is busy past its timeout (another process writing a long batch): ask again shortly. While it
      // cannot be written at all (database_unwritable, architecture.md §6), once a second.
      this.retryIn(host, st, db.$writes.unwritable ? UNWRITABLE_POLL_MS : SLOT_POLL_MS);
      return undefined;
    }
    if (answer.crawlDelayMs > 0) this.stored.set(host, answer.crawlDelayMs);
    else this.stored.delete(host);
    if (!answer.granted) {
      st.waitingSince ??= nowMs;
      this.retryIn(host, st, answer.retryInMs);
      return undefined;
    }
    st.waitingSince = undefined;
    return { lease: answer.leaseId };
  }

  private release(host: string, st: HostState, slot: Slot): void {
    st.active.delete(slot);
    st.lastEndMs = Math.max(st.lastEndMs, Date.now());
    st.unsaved = true;
    if (slot.lease !== null) st.idle.push(slot);
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

  private lingerThenGiveBack(host: string, st: HostState): void {
    if (st.linger) return;
    st.linger = setTimeout(() => {
      st.linger = undefined;
      this.giveBack(host, st);
    }, SLOT_LINGER_MS);
    st.linger.unref?.();
  }

  private giveBack(host: string, st: HostState): void {
    clearTimeout(st.linger);
    st.linger = undefined;
    const kept = st.idle.splice(0);
    const db = this.shared;
    if (kept.length === 0 || !db) return;
    try {
      returnHostSlots(
        db,
        host,
        kept.map((s) => s.lease!),
        st.lastEndMs,
      );
      st.unsaved = false;
    } catch {
      // Not given back (the database is busy, or cannot be written: architecture.md §6): the leases are still this
      // process's, so they stay kept for its next request to the host, and the renewal tries to give them back again.
      // Dropped, they would be renewed with the others and keep the host from every other round.
      st.idle.push(...kept);
    }
  }

  /** Writes this process's row: alone, it keeps its slots in memory; else it takes them as leases, once every process
   * that kept slots in memory has handed them over (`joining` until then). */
  private join(db: Db): boolean {
    const nowMs = Date.now();
    let answer: ReturnType<typeof joinHostGate>;
    try {
      answer = joinHostGate(db, this.holder, nowMs, nowMs + SLOT_TTL_MS);
    } catch {
      return false;
    }
    this.renewedMs = nowMs;
    this.aloneSinceMs = undefined;
    if (answer === "alone") this.enterMemory();
    else this.mode = answer === "wait" ? "joining" : "shared";
    this.poll ??= setInterval(() => this.checkHolders(), HOLDERS_POLL_MS);
    this.poll.unref?.();
    holding.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.once("exit", () => holding.forEach((l) => l.forget()));
    }
    return true;
  }

  /** One read per poll: renews this process's row (and leases) every third of their lifetime, and moves between modes. */
  private checkHolders(): void {
    const db = this.shared;
    if (!db) {
      // Closed: requests waiting for a hand-over go on, paced by this process alone.
      const hosts = [...this.joining];
      this.stopPolling();
      for (const host of hosts) this.pump(host, this.stateOf(host));
      return;
    }
    const nowMs = Date.now();
    try {
      if (nowMs - this.renewedMs >= SLOT_TTL_MS / 3) {
        renewHostSlots(db, this.holder, nowMs, nowMs + SLOT_TTL_MS);
        this.renewedMs = nowMs;
        // Kept slots a failed write could not give back (giveBack).
        for (const [host, st] of this.hosts) if (st.idle.length > 0 && st.active.size === 0 && !st.linger) this.giveBack(host, st);
      }
      if (this.mode === "joining" && !othersInMemory(db, this.holder, nowMs)) {
        this.mode = "shared";
        const hosts = [...this.joining];
        this.joining.clear();
        for (const host of hosts) this.pump(host, this.stateOf(host));
      } else if (this.mode === "memory" && othersOnHostGate(db, this.holder, nowMs)) {
        this.handOver(db, nowMs);
      } else if (this.mode === "shared") {
        if (othersOnHostGate(db, this.holder, nowMs)) this.aloneSinceMs = undefined;
        else if (
          nowMs - (this.aloneSinceMs ??= nowMs) >= ALONE_AFTER_MS &&
          keepHostSlotsInMemory(db, this.holder, nowMs, nowMs + SLOT_TTL_MS)
        )
          this.backToMemory();
      }
    } catch {
      // The database is busy: the next poll asks again, well before anything lapses.
    }
  }

  /** Another process arrived: the slots in flight become leases and the last ends are written, with this process's row
   * marked shared, in one transaction; the arriving process takes no slot before it sees that. */
  private handOver(db: Db, nowMs: number): void {
    const slots: { host: string; slot: Slot }[] = [];
    for (const [host, st] of this.hosts) for (const slot of st.active) if (slot.lease === null) slots.push({ host, slot });
    const ids = shareHostSlots(
      db,
      this.holder,
      slots.map((s) => s.host),
      this.unsavedEnds(),
      nowMs + SLOT_TTL_MS,
    );
    slots.forEach((s, i) => (s.slot.lease = ids[i]!));
    for (const st of this.hosts.values()) st.unsaved = false;
    this.mode = "shared";
    this.aloneSinceMs = undefined;
  }

  /** Alone again (its leases were dropped with the database's row saying so): slots are counted in memory. */
  private backToMemory(): void {
    for (const st of this.hosts.values()) {
      clearTimeout(st.linger);
      st.linger = undefined;
      st.idle = [];
      st.waitingSince = undefined;
      for (const slot of st.active) slot.lease = null;
      if (st.lastEndMs > -Infinity) st.unsaved = true;
    }
    this.enterMemory();
  }

  private enterMemory(): void {
    this.mode = "memory";
    this.spell++;
  }

  private unsavedEnds(): Map<string, number> {
    const ends = new Map<string, number>();
    for (const [host, st] of this.hosts) if (st.unsaved) ends.set(host, st.lastEndMs);
    return ends;
  }

  private stopPolling(): void {
    clearInterval(this.poll);
    this.poll = undefined;
    this.mode = "out";
    this.joining.clear();
    holding.delete(this);
  }

  /** Leaves the gate when nothing is in flight: the last ends are written and this process's rows dropped. */
  private leave(): void {
    if (this.mode === "out") return;
    this.forget();
    this.stopPolling();
  }

  /** Drops this process's leases, waits and row, after writing the last ends it kept (it is leaving or exiting). */
  forget(): void {
    const db = this.shared;
    if (!db || this.mode === "out") return;
    try {
      forgetHostHolder(db, this.holder, this.unsavedEnds());
      for (const st of this.hosts.values()) st.unsaved = false;
    } catch {
      // The rows lapse on their own after SLOT_TTL_MS.
    }
  }
}

// Ledgers on the gate: a process that exits hands its slots back instead of leaving them to lapse.
const holding = new Set<HostLedger>();
let exitHooked = false;
