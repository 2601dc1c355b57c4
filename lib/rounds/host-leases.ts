// The host gate's second job (architecture.md §2.5): sharing host slots with the other processes on the same database.
// Alone, a process counts its slots in memory; once another arrives, it hands them over and every slot is a lease in
// SQLite, kept a moment for the next request (linger), renewed while held, and polled for while another holds it.
import os from "node:os";
import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
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

/** A slot: its lease in the database, or null while it is kept in memory (or there is no database). */
export interface Slot {
  lease: number | null;
}

/** What the leases keep per host, beside the pacing's own state. */
export interface HostLeaseState {
  /** Whether the host's last end is newer than what the database was last told. */
  unsaved: boolean;
  /** The memory spell whose database figures (last end, stored Crawl-delay) this host has read. */
  loaded: number;
  /** Leased slots held and not in use, kept for the next request. */
  idle: Slot[];
  linger?: NodeJS.Timeout;
  /** Since when this process waits for a slot another process holds (its place in the line). */
  waitingSince?: number;
}

/** A host as the leases see it: the pacing's slots in use and last end (ms since the epoch), and the lease state. */
export interface LeasedHost {
  active: ReadonlySet<Slot>;
  lastEndMs: number;
  lease: HostLeaseState;
}

/** What the leases ask of the pacing (host-gate.ts): serve a host's waiting requests now or later, and the
 * Crawl-delay this process learned from robots.txt (it goes to the database with each lease). */
export interface Pacer {
  pump(host: string): void;
  retryIn(host: string, ms: number): void;
  learnedDelayMs(host: string): number;
}

export const newHostLeaseState = (): HostLeaseState => ({ unsaved: false, loaded: -1, idle: [] });

/**
 * How this process uses the gate on its database: `out` (not on it), `joining` (another process keeps slots in
 * memory; none may be taken before it has handed them over), `memory` (alone: slots are counted here and nothing per
 * request goes to the database), `shared` (every slot is a lease).
 */
type Mode = "out" | "joining" | "memory" | "shared";

export class HostLeases {
  private readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  /** Crawl-delays other processes stored in the database. */
  private readonly stored = new Map<string, number>();
  private mode: Mode = "out";
  /** Counts the spells in memory mode: a host reads the database's figures once per spell. */
  private spell = 0;
  private poll?: NodeJS.Timeout;
  private renewedMs = 0;
  private aloneSinceMs?: number;
  /** Hosts whose requests wait for the hand-over of the process in memory. */
  private readonly joining = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly hosts: ReadonlyMap<string, LeasedHost>,
    private readonly pacer: Pacer,
  ) {}

  /** The database while it is open; a closed one leaves the gate pacing this process only. */
  private get shared(): Db | undefined {
    return this.db.$client.open ? this.db : undefined;
  }

  storedDelayMs(host: string): number {
    return this.stored.get(host) ?? 0;
  }

  /** Whether slots to `host` may be taken now: joins the gate first, and in memory reads the host's stored pace once. */
  ready(host: string, st: LeasedHost): boolean {
    const db = this.shared;
    if (!db) return true;
    if (this.mode === "out" && !this.join(db)) {
      this.pacer.retryIn(host, db.$writes.unwritable ? UNWRITABLE_POLL_MS : SLOT_POLL_MS);
      return false;
    }
    if (this.mode === "joining") {
      st.lease.waitingSince ??= Date.now();
      this.joining.add(host);
      return false;
    }
    if (this.mode === "memory" && st.lease.loaded !== this.spell) {
      try {
        const pace = hostPaceOf(db, host);
        if (pace.lastEndMs !== null) st.lastEndMs = Math.max(st.lastEndMs, pace.lastEndMs);
        if (pace.crawlDelayMs > 0) this.stored.set(host, pace.crawlDelayMs);
        else this.stored.delete(host);
        st.lease.loaded = this.spell;
      } catch {
        this.pacer.retryIn(host, SLOT_POLL_MS);
        return false;
      }
    }
    return true;
  }

  /** A slot: in memory when alone; else a kept slot if no other process waits for this host, or a new lease; undefined
   * when none is free yet. */
  slotFor(host: string, st: LeasedHost, limit: () => number, nowMs: number): Slot | undefined {
    const db = this.shared;
    if (!db || this.mode === "memory") return { lease: null };
    const ls = st.lease;
    if (ls.idle.length > 0) {
      if (!othersWaitFor(db, host, this.holder, nowMs)) return ls.idle.pop()!;
      this.giveBack(host, st);
    }
    let answer: ReturnType<typeof takeHostSlot>;
    try {
      answer = takeHostSlot(db, {
        host,
        holder: this.holder,
        ...(ls.waitingSince !== undefined ? { waitingSince: ls.waitingSince } : {}),
        limit: limit(),
        crawlDelayMs: this.pacer.learnedDelayMs(host),
        nowMs,
        leaseTtlMs: SLOT_TTL_MS,
        waitTtlMs: WAIT_TTL_MS,
        pollMs: SLOT_POLL_MS,
      });
    } catch {
      // The database is busy past its timeout (another process writing a long batch): ask again shortly. While it
      // cannot be written at all (database_unwritable, architecture.md §6), once a second.
      this.pacer.retryIn(host, db.$writes.unwritable ? UNWRITABLE_POLL_MS : SLOT_POLL_MS);
      return undefined;
    }
    if (answer.crawlDelayMs > 0) this.stored.set(host, answer.crawlDelayMs);
    else this.stored.delete(host);
    if (!answer.granted) {
      ls.waitingSince ??= nowMs;
      this.pacer.retryIn(host, answer.retryInMs);
      return undefined;
    }
    ls.waitingSince = undefined;
    return { lease: answer.leaseId };
  }

  /** A request ended: its last end is news for the database, and a leased slot is kept for the next request. */
  released(st: LeasedHost, slot: Slot): void {
    st.lease.unsaved = true;
    if (slot.lease !== null) st.lease.idle.push(slot);
  }

  /** After the pacing served what it could: kept slots go back once they have lingered. */
  pumped(host: string, st: LeasedHost): void {
    if (st.lease.idle.length > 0) this.lingerThenGiveBack(host, st);
  }

  /** Gives every kept slot back to the database; with no request in flight or waiting (`busy` false), leaves the gate. */
  settle(busy: boolean): void {
    for (const [host, st] of this.hosts) this.giveBack(host, st);
    if (!busy) this.leave();
  }

  private lingerThenGiveBack(host: string, st: LeasedHost): void {
    if (st.lease.linger) return;
    st.lease.linger = setTimeout(() => {
      st.lease.linger = undefined;
      this.giveBack(host, st);
    }, SLOT_LINGER_MS);
    st.lease.linger.unref?.();
  }

  private giveBack(host: string, st: LeasedHost): void {
    const ls = st.lease;
    clearTimeout(ls.linger);
    ls.linger = undefined;
    const kept = ls.idle.splice(0);
    const db = this.shared;
    if (kept.length === 0 || !db) return;
    try {
      returnHostSlots(
        db,
        host,
        kept.map((s) => s.lease!),
        st.lastEndMs,
      );
      ls.unsaved = false;
    } catch {
      // Not given back (the database is busy, or cannot be written: architecture.md §6): the leases are still this
      // process's, so they stay kept for its next request to the host, and the renewal tries to give them back again.
      // Dropped, they would be renewed with the others and keep the host from every other round.
      ls.idle.push(...kept);
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
      for (const host of hosts) this.pacer.pump(host);
      return;
    }
    const nowMs = Date.now();
    try {
      if (nowMs - this.renewedMs >= SLOT_TTL_MS / 3) {
        renewHostSlots(db, this.holder, nowMs, nowMs + SLOT_TTL_MS);
        this.renewedMs = nowMs;
        // Kept slots a failed write could not give back (giveBack).
        for (const [host, st] of this.hosts)
          if (st.lease.idle.length > 0 && st.active.size === 0 && !st.lease.linger) this.giveBack(host, st);
      }
      if (this.mode === "joining" && !othersInMemory(db, this.holder, nowMs)) {
        this.mode = "shared";
        const hosts = [...this.joining];
        this.joining.clear();
        for (const host of hosts) this.pacer.pump(host);
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
    for (const st of this.hosts.values()) st.lease.unsaved = false;
    this.mode = "shared";
    this.aloneSinceMs = undefined;
  }

  /** Alone again (its leases were dropped with the database's row saying so): slots are counted in memory. */
  private backToMemory(): void {
    for (const st of this.hosts.values()) {
      const ls = st.lease;
      clearTimeout(ls.linger);
      ls.linger = undefined;
      ls.idle = [];
      ls.waitingSince = undefined;
      for (const slot of st.active) slot.lease = null;
      if (st.lastEndMs > -Infinity) ls.unsaved = true;
    }
    this.enterMemory();
  }

  private enterMemory(): void {
    this.mode = "memory";
    this.spell++;
  }

  private unsavedEnds(): Map<string, number> {
    const ends = new Map<string, number>();
    for (const [host, st] of this.hosts) if (st.lease.unsaved) ends.set(host, st.lastEndMs);
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
      for (const st of this.hosts.values()) st.lease.unsaved = false;
    } catch {
      // The rows lapse on their own after SLOT_TTL_MS.
    }
  }
}

// Leases on the gate: a process that exits hands its slots back instead of leaving them to lapse.
const holding = new Set<HostLeases>();
let exitHooked = false;
