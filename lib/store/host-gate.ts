import type { Statement } from "better-sqlite3";
import type { Db } from "../../db/client";

// The cross-process half of the host gate (DESIGN §2.5): request slots per host as leases in SQLite, so a round in
// the CLI and the site's cross-reader never send to one host at once, and a Crawl-delay counts from the last request
// any of them sent. Every call is one short statement or transaction; the hot path (a slot reused by the process
// that holds it) only reads.

export type SlotAnswer =
  | { granted: true; leaseId: number; crawlDelayMs: number }
  /** `retryInMs`: when asking again may succeed (the Crawl-delay's end), else a polling interval. */
  | { granted: false; retryInMs: number; crawlDelayMs: number };

export interface SlotRequest {
  host: string;
  holder: string;
  /** Slots the host may have in flight across every process (1 under a Crawl-delay, whatever is asked). */
  limit: number;
  /** The Crawl-delay this process knows; the one another process stored in robots_cache counts too. */
  crawlDelayMs: number;
  nowMs: number;
  leaseTtlMs: number;
  waitTtlMs: number;
  pollMs: number;
}

const SQL = {
  dropExpired: "DELETE FROM host_leases WHERE host = ? AND expires_ms <= ?",
  held: "SELECT count(*) AS n FROM host_leases WHERE host = ?",
  lastEnd: "SELECT last_end_ms AS t FROM host_gate WHERE host = ?",
  robotsDelay: "SELECT crawl_delay_seconds AS s FROM robots_cache WHERE host = ?",
  ownWait: "SELECT since_ms AS since, expires_ms AS expires FROM host_waits WHERE host = ? AND holder = ?",
  // Ties go to the lower holder id, so two waiters never hold each other back.
  olderWait:
    "SELECT 1 FROM host_waits WHERE host = ? AND holder <> ? AND expires_ms > ? AND (since_ms < ? OR (since_ms = ? AND holder < ?)) LIMIT 1",
  otherWait: "SELECT 1 FROM host_waits WHERE host = ? AND holder <> ? AND expires_ms > ? LIMIT 1",
  putWait:
    "INSERT INTO host_waits (host, holder, since_ms, expires_ms) VALUES (?, ?, ?, ?) ON CONFLICT (host, holder) DO UPDATE SET expires_ms = excluded.expires_ms",
  dropWait: "DELETE FROM host_waits WHERE host = ? AND holder = ?",
  lease: "INSERT INTO host_leases (host, holder, expires_ms) VALUES (?, ?, ?)",
  unlease: "DELETE FROM host_leases WHERE id = ?",
  ended: "INSERT INTO host_gate (host, last_end_ms) VALUES (?, ?) ON CONFLICT (host) DO UPDATE SET last_end_ms = max(last_end_ms, excluded.last_end_ms)",
  renew: "UPDATE host_leases SET expires_ms = ? WHERE holder = ?",
  forgetLeases: "DELETE FROM host_leases WHERE holder = ?",
  forgetWaits: "DELETE FROM host_waits WHERE holder = ?",
} as const;

type Statements = Record<keyof typeof SQL, Statement>;
const cache = new WeakMap<object, Statements>();

function statements(db: Db): Statements {
  let s = cache.get(db.$client);
  if (!s) {
    s = Object.fromEntries(Object.entries(SQL).map(([k, q]) => [k, db.$client.prepare(q)])) as Statements;
    cache.set(db.$client, s);
  }
  return s;
}

/** Takes a slot to `host` when every process together holds fewer than the limit, no other process has waited
 * longer, and the Crawl-delay has passed since the last request ended; otherwise records this process as waiting. */
export function takeHostSlot(db: Db, r: SlotRequest): SlotAnswer {
  const s = statements(db);
  return db.$client
    .transaction((): SlotAnswer => {
      s.dropExpired.run(r.host, r.nowMs);
      const stored = (s.robotsDelay.get(r.host) as { s: number | null } | undefined)?.s ?? 0;
      const crawlDelayMs = Math.max(r.crawlDelayMs, Math.round(stored * 1000));
      const limit = crawlDelayMs > 0 ? 1 : Math.max(1, r.limit);
      const own = s.ownWait.get(r.host, r.holder) as { since: number; expires: number } | undefined;
      const since = own && own.expires > r.nowMs ? own.since : r.nowMs;
      const full = (s.held.get(r.host) as { n: number }).n >= limit;
      const queued = s.olderWait.get(r.host, r.holder, r.nowMs, since, since, r.holder) !== undefined;
      const last = (s.lastEnd.get(r.host) as { t: number } | undefined)?.t;
      const gap = crawlDelayMs > 0 && last !== undefined ? last + crawlDelayMs - r.nowMs : 0;
      if (!full && !queued && gap <= 0) {
        const leaseId = Number(s.lease.run(r.host, r.holder, r.nowMs + r.leaseTtlMs).lastInsertRowid);
        if (own) s.dropWait.run(r.host, r.holder);
        return { granted: true, leaseId, crawlDelayMs };
      }
      // Refreshed only when half its life is gone, so a poll is mostly a read.
      if (!own || own.expires <= r.nowMs) s.dropWait.run(r.host, r.holder);
      if (!own || own.expires <= r.nowMs || own.expires - r.nowMs < r.waitTtlMs / 2) {
        s.putWait.run(r.host, r.holder, since, r.nowMs + r.waitTtlMs);
      }
      return { granted: false, retryInMs: !full && !queued ? gap : r.pollMs, crawlDelayMs };
    })
    .immediate();
}

/** Gives slots back; the host's last request ended at `lastEndMs` (the later end wins across processes). */
export function returnHostSlots(db: Db, host: string, leaseIds: readonly number[], lastEndMs: number): void {
  const s = statements(db);
  db.$client
    .transaction(() => {
      for (const id of leaseIds) s.unlease.run(id);
      s.ended.run(host, Math.round(lastEndMs));
    })
    .immediate();
}

/** Whether another process is waiting for a slot to `host` (then a slot this process holds goes back, not on). */
export function othersWaitFor(db: Db, host: string, holder: string, nowMs: number): boolean {
  return statements(db).otherWait.get(host, holder, nowMs) !== undefined;
}

/** Pushes back the expiry of every slot `holder` holds (a long request must not lose its slot). */
export function renewHostSlots(db: Db, holder: string, expiresMs: number): void {
  statements(db).renew.run(expiresMs, holder);
}

/** Drops every slot and wait of `holder` (a gate that is closed). */
export function forgetHostHolder(db: Db, holder: string): void {
  const s = statements(db);
  db.$client.transaction(() => {
    s.forgetLeases.run(holder);
    s.forgetWaits.run(holder);
  })();
}
