import type Database from "better-sqlite3";

// architecture.md §6, database_unwritable: every write on a connection reports how it ended, so one place knows when
// the database stops taking writes (SQLite's FULL, IOERR and READONLY result codes, extended ones included), whoever
// wrote: a round, the alert clock, a re-probe, the registry refresh. The alert is held here, in memory, because it
// cannot be written down; it resolves only when lib/store/writes.ts has proved that writes work again, since after a
// failed write a small one may still fit in the space the failed one left in the write-ahead log.

const UNWRITABLE_CODE = /^SQLITE_(FULL|IOERR|READONLY)(_[A-Z_]+)?$/;

/** The SQLite code when `e` says the database cannot be written, else null. */
export function unwritableCode(e: unknown): string | null {
  const code = e !== null && typeof e === "object" ? (e as { code?: unknown }).code : undefined;
  return typeof code === "string" && UNWRITABLE_CODE.test(code) ? code : null;
}

/** How the webhook delivery of an alert's opening went while the alert could not be stored. */
export interface HeldDelivery {
  attempts: number;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  lastError: string | null;
}

/** One stretch of failing writes, from the first failure to the write that proved the database writable again. */
export interface UnwritableAlert {
  since: string;
  /** The latest failure's SQLite code (SQLITE_FULL, SQLITE_IOERR_WRITE, …) and SQLite's own words for it; ENOSPC and
   * what was measured when the volume has too little room left (WriteWatch.noRoom). */
  code: string;
  error: string;
  failures: number;
  lastFailureAt: string;
  resolvedAt: string | null;
  /** The latest attempt to prove writes work again (lib/store/writes.ts), and why it did not. */
  lastCheck: { at: string; why: string } | null;
  opening: HeldDelivery;
}

/** Thrown instead of starting work that would write, while the alert is open. */
export class DatabaseUnwritable extends Error {
  override name = "DatabaseUnwritable";
  readonly code: string;
  constructor(readonly alert: UnwritableAlert) {
    super(`the database cannot be written since ${alert.since}: ${alert.code} (${alert.error})`);
    this.code = alert.code;
  }
}

export interface WriteWatch {
  /** The open alert, or null while writes work. */
  readonly unwritable: UnwritableAlert | null;
  /** Resolved alerts not stored yet, oldest first. */
  readonly unstored: readonly UnwritableAlert[];
  /** Records a failed write; true when `e` is one of the codes above. The watched connection calls it itself. */
  failed(e: unknown): boolean;
  /** The volume has too little room left for a round's writes (lib/store/writes.ts measured it): opens as a failed write
   * would, with the code ENOSPC and `why`. */
  noRoom(why: string): void;
  /** The database took writes again: the open alert resolves and waits to be stored. */
  recovered(at: Date): UnwritableAlert | null;
  /** The resolved alert is in the database now. */
  stored(a: UnwritableAlert): void;
  /** Called (after the failing statement has returned) each time an alert opens. */
  onOpen(listener: (a: UnwritableAlert) => void): () => void;
}

type Statement = Database.Statement<unknown[], unknown>;
const RUNS = new Set<PropertyKey>(["run", "get", "all", "iterate"]);
const CHAINS = new Set<PropertyKey>(["pluck", "expand", "raw", "bind", "safeIntegers"]);
const TRANSACTION_END = /^\s*(COMMIT|END|RELEASE)\b/i;

/** Makes every write on `sqlite` report its failures to the returned watch (statements, transactions, exec, pragma). */
export function watchWrites(sqlite: Database.Database): WriteWatch {
  let open: UnwritableAlert | null = null;
  const unstored: UnwritableAlert[] = [];
  const listeners = new Set<(a: UnwritableAlert) => void>();
  // A statement's failure inside a transaction reaches the transaction too: counted once.
  const seen = new WeakSet<object>();

  /** A failure opens the alert, or is counted in the one open. */
  const opening = (code: string, error: string) => {
    const at = new Date().toISOString();
    if (open) {
      Object.assign(open, { code, error, lastFailureAt: at, failures: open.failures + 1 });
      return;
    }
    const opened: UnwritableAlert = {
      since: at,
      code,
      error,
      failures: 1,
      lastFailureAt: at,
      resolvedAt: null,
      lastCheck: null,
      opening: { attempts: 0, lastAttemptAt: null, deliveredAt: null, lastError: null },
    };
    open = opened;
    for (const l of listeners) setImmediate(() => l(opened));
  };

  const watch: WriteWatch = {
    get unwritable() {
      return open;
    },
    get unstored() {
      return unstored;
    },
    failed(e) {
      const code = unwritableCode(e);
      if (!code) return false;
      if (seen.has(e as object)) return true;
      seen.add(e as object);
      opening(code, (e as Error).message);
      return true;
    },
    noRoom(why) {
      opening("ENOSPC", why);
    },
    recovered(at) {
      if (!open) return null;
      const done = open;
      done.resolvedAt = at.toISOString();
      open = null;
      unstored.push(done);
      return done;
    },
    stored(a) {
      const i = unstored.indexOf(a);
      if (i >= 0) unstored.splice(i, 1);
    },
    onOpen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  const guarded =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } catch (e) {
        watch.failed(e);
        throw e;
      }
    };

  const watchStatement = (stmt: Statement): Statement => {
    const wrapped = new Map<PropertyKey, unknown>();
    const proxy: Statement = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== "function") return value;
        let w = wrapped.get(prop);
        if (!w) {
          const method = value as (...args: unknown[]) => unknown;
          if (RUNS.has(prop)) w = guarded((...args: unknown[]) => method.apply(target, args));
          else if (CHAINS.has(prop))
            w = (...args: unknown[]) => {
              method.apply(target, args);
              return proxy;
            };
          else w = method.bind(target);
          wrapped.set(prop, w);
        }
        return w;
      },
    });
    return proxy;
  };

  // Reads outside a transaction cannot fail a write: they are handed back as they are, so page reads pay nothing.
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    const stmt = prepare(source) as Statement;
    return stmt.readonly && !TRANSACTION_END.test(source) ? stmt : watchStatement(stmt);
  }) as typeof sqlite.prepare;

  // better-sqlite3 runs BEGIN and COMMIT itself, below `prepare`: a failed commit is seen here.
  const transaction = sqlite.transaction.bind(sqlite);
  sqlite.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const t = transaction(fn);
    const out = guarded(t) as unknown as typeof t;
    for (const variant of ["default", "deferred", "immediate", "exclusive"] as const) {
      Object.defineProperty(out, variant, { value: guarded(t[variant]) });
    }
    Object.defineProperty(out, "database", { value: sqlite, enumerable: true });
    return out;
  }) as typeof sqlite.transaction;

  sqlite.exec = guarded(sqlite.exec.bind(sqlite)) as typeof sqlite.exec;
  sqlite.pragma = guarded(sqlite.pragma.bind(sqlite)) as typeof sqlite.pragma;
  return watch;
}
