import type { Statement } from "better-sqlite3";
import type { Db } from "../../db/client";

// The cross-process half of the host gate (architecture.md §2.5): request slots per host as leases in SQLite, so a round in
// the CLI and the site's cross-reader never send to one host at once, and a Crawl-delay counts from the last request
// any of them sent. Every call is one short statement or transaction; the hot path (a slot reused by the process
// that holds it) only reads, and a free slot is taken in one statement. A process alone on the file keeps its slots in
// memory and only says so in host_gate_holders; the hand-over below writes them here when another process arrives.

export type SlotAnswer =
  | { granted: true; leaseId: number; crawlDelayMs: number }
  /** `retryInMs`: when asking again may succeed (the Crawl-delay's end), else a polling interval. */
  | { granted: false; retryInMs: number; crawlDelayMs: number };

export interface SlotRequest {
  host: string;
  holder: string;
  /** When this process started waiting for the host, if it is waiting (its place in the line). */
  waitingSince?: number;
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
  // The common case in one statement (one commit): a slot is free, nobody waits longer, the Crawl-delay has passed.
  tryLease: `INSERT INTO host_leases (host, holder, expires_ms) SELECT @host, @holder, @expires
    WHERE (SELECT count(*) FROM host_leases WHERE host = @host AND expires_ms > @now) < @limit
    AND NOT EXISTS (SELECT 1 FROM host_waits WHERE host = @host AND holder <> @holder AND expires_ms > @now
      AND (since_ms < @since OR (since_ms = @since AND holder < @holder)))
    AND (@delay = 0 OR coalesce((SELECT last_end_ms FROM host_gate WHERE host = @host), 0) + @delay <= @now)`,
  dropExpired: "DELETE FROM host_leases WHERE host = ? AND expires_ms <= ?",
  dropAllExpired: "DELETE FROM host_leases WHERE expires_ms <= ?",
  held: "SELECT count(*) AS n FROM host_leases WHERE host = ?",
  lastEnd: "SELECT last_end_ms AS t FROM host_gate WHERE host = ?",
  robotsDelay: "SELECT crawl_delay_seconds AS s FROM robots_cache WHERE host = ?",
  // Ties go to the lower holder id, so two waiters never hold each other back.
  olderWait:
    "SELECT 1 FROM host_waits WHERE host = ? AND holder <> ? AND expires_ms > ? AND (since_ms < ? OR (since_ms = ? AND holder < ?)) LIMIT 1",
  otherWait: "SELECT 1 FROM host_waits WHERE host = ? AND holder <> ? AND expires_ms > ? LIMIT 1",
  putWait:
    "INSERT INTO host_waits (host, holder, since_ms, expires_ms) VALUES (?, ?, ?, ?) ON CONFLICT (host, holder) DO UPDATE SET since_ms = excluded.since_ms, expires_ms = excluded.expires_ms",
  dropWait: "DELETE FROM host_waits WHERE host = ? AND holder = ?",
  unlease: "DELETE FROM host_leases WHERE id = ?",
  ended:
    "INSERT INTO host_gate (host, last_end_ms) VALUES (?, ?) ON CONFLICT (host) DO UPDATE SET last_end_ms = max(last_end_ms, excluded.last_end_ms)",
  renew: "UPDATE host_leases SET expires_ms = ? WHERE holder = ?",
  forgetLeases: "DELETE FROM host_leases WHERE holder = ?",
  forgetWaits: "DELETE FROM host_waits WHERE holder = ?",
  // Holders: every process using the gate on this file, and whether its slots are in the tables above.
  dropLapsedHolders: "DELETE FROM host_gate_holders WHERE expires_ms <= ?",
  putHolder:
    "INSERT INTO host_gate_holders (holder, shared, expires_ms) VALUES (?, ?, ?) ON CONFLICT (holder) DO UPDATE SET shared = excluded.shared, expires_ms = excluded.expires_ms",
  renewHolder: "UPDATE host_gate_holders SET expires_ms = ? WHERE holder = ?",
  forgetHolder: "DELETE FROM host_gate_holders WHERE holder = ?",
  // Another live process on the gate: a holder, or a lease or a wait of a process that never wrote a holder row.
  anyOther: `SELECT EXISTS (SELECT 1 FROM host_gate_holders WHERE holder <> @holder AND expires_ms > @now)
    OR EXISTS (SELECT 1 FROM host_leases WHERE holder <> @holder AND expires_ms > @now)
    OR EXISTS (SELECT 1 FROM host_waits WHERE holder <> @holder AND expires_ms > @now) AS other`,
  unacked: "SELECT 1 FROM host_gate_holders WHERE holder <> ? AND expires_ms > ? AND shared = 0 LIMIT 1",
  lease: "INSERT INTO host_leases (host, holder, expires_ms) VALUES (?, ?, ?)",
  pace: `SELECT (SELECT last_end_ms FROM host_gate WHERE host = @host) AS lastEnd,
    (SELECT crawl_delay_seconds FROM robots_cache WHERE host = @host) AS delay`,
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
  const stored = (s.robotsDelay.get(r.host) as { s: number | null } | undefined)?.s ?? 0;
  const crawlDelayMs = Math.max(r.crawlDelayMs, Math.round(stored * 1000));
  const limit = crawlDelayMs > 0 ? 1 : Math.max(1, r.limit);
  const since = r.waitingSince ?? r.nowMs;
  const taken = s.tryLease.run({
    host: r.host,
    holder: r.holder,
    expires: r.nowMs + r.leaseTtlMs,
    now: r.nowMs,
    limit,
    since,
    delay: crawlDelayMs,
  });
  if (taken.changes === 1) {
    if (r.waitingSince !== undefined) s.dropWait.run(r.host, r.holder);
    return { granted: true, leaseId: Number(taken.lastInsertRowid), crawlDelayMs };
  }
  // Refused: find out what to wait for, and take (or keep) this process's place in the line.
  return db.$client
    .transaction((): SlotAnswer => {
      s.dropExpired.run(r.host, r.nowMs);
      const full = (s.held.get(r.host) as { n: number }).n >= limit;
      const queued = s.olderWait.get(r.host, r.holder, r.nowMs, since, since, r.holder) !== undefined;
      const last = (s.lastEnd.get(r.host) as { t: number } | undefined)?.t;
      const gap = crawlDelayMs > 0 && last !== undefined ? last + crawlDelayMs - r.nowMs : 0;
      s.putWait.run(r.host, r.holder, since, r.nowMs + r.waitTtlMs);
      return { granted: false, retryInMs: !full && !queued ? Math.max(1, gap) : r.pollMs, crawlDelayMs };
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

/** Pushes back the expiry of every slot `holder` holds (a long request must not lose its slot), and drops slots
 * that lapsed (their holder died). */
export function renewHostSlots(db: Db, holder: string, nowMs: number, expiresMs: number): void {
  const s = statements(db);
  db.$client.transaction(() => {
    s.renew.run(expiresMs, holder);
    s.renewHolder.run(expiresMs, holder);
    s.dropAllExpired.run(nowMs);
  })();
}

/** Drops every slot, wait and the holder row of `holder` (a gate that is closed or idle), after writing the last ends
 * it kept in memory. */
export function forgetHostHolder(db: Db, holder: string, lastEnds: ReadonlyMap<string, number> = new Map()): void {
  const s = statements(db);
  db.$client
    .transaction(() => {
      for (const [host, ms] of lastEnds) s.ended.run(host, Math.round(ms));
      s.forgetLeases.run(holder);
      s.forgetWaits.run(holder);
      s.forgetHolder.run(holder);
    })
    .immediate();
}

/** How a process joins the gate: `alone` (no other live process: it keeps its slots in memory), `wait` (another
 * process keeps slots in memory: take none before it has handed them over), `shared` (take slots here). */
export type JoinAnswer = "alone" | "wait" | "shared";

/** Writes `holder`'s row; alone on the file it says so in the same transaction, so a process that arrives after it sees
 * that it must wait for the hand-over. */
export function joinHostGate(db: Db, holder: string, nowMs: number, expiresMs: number): JoinAnswer {
  const s = statements(db);
  return db.$client
    .transaction((): JoinAnswer => {
      s.dropLapsedHolders.run(nowMs);
      const alone = !otherLive(s, holder, nowMs);
      s.putHolder.run(holder, alone ? 0 : 1, expiresMs);
      if (alone) return "alone";
      return s.unacked.get(holder, nowMs) === undefined ? "shared" : "wait";
    })
    .immediate();
}

/** Whether another live process uses the gate (a process in memory polls this, once per interval). */
export function othersOnHostGate(db: Db, holder: string, nowMs: number): boolean {
  return otherLive(statements(db), holder, nowMs);
}

/** Whether another live process still keeps its slots in memory (an arriving process waits until none does). */
export function othersInMemory(db: Db, holder: string, nowMs: number): boolean {
  return statements(db).unacked.get(holder, nowMs) !== undefined;
}

/** The hand-over: leases for the slots `holder` has in flight (one per entry of `hosts`; their ids in that order), the
 * last ends it kept, and its row marked shared, in one transaction. */
export function shareHostSlots(
  db: Db,
  holder: string,
  hosts: readonly string[],
  lastEnds: ReadonlyMap<string, number>,
  expiresMs: number,
): number[] {
  const s = statements(db);
  return db.$client
    .transaction(() => {
      const ids = hosts.map((host) => Number(s.lease.run(host, holder, expiresMs).lastInsertRowid));
      for (const [host, ms] of lastEnds) s.ended.run(host, Math.round(ms));
      s.putHolder.run(holder, 1, expiresMs);
      return ids;
    })
    .immediate();
}

/** Back to memory when no other live process uses the gate: `holder`'s leases and waits go, its row says so; false
 * (nothing changed) when another process is there after all. */
export function keepHostSlotsInMemory(db: Db, holder: string, nowMs: number, expiresMs: number): boolean {
  const s = statements(db);
  return db.$client
    .transaction(() => {
      if (otherLive(s, holder, nowMs)) return false;
      s.forgetLeases.run(holder);
      s.forgetWaits.run(holder);
      s.putHolder.run(holder, 0, expiresMs);
      return true;
    })
    .immediate();
}

/** What the database knows of a host's pace: when the last request any process sent ended, and the stored Crawl-delay. */
export function hostPaceOf(db: Db, host: string): { lastEndMs: number | null; crawlDelayMs: number } {
  const row = statements(db).pace.get({ host }) as { lastEnd: number | null; delay: number | null };
  return { lastEndMs: row.lastEnd, crawlDelayMs: Math.round((row.delay ?? 0) * 1000) };
}

function otherLive(s: Statements, holder: string, nowMs: number): boolean {
  return (s.anyOther.get({ holder, now: nowMs }) as { other: number }).other === 1;
}
