import { transaction, type Db } from "../../db/client";
import { writeRun, type PersistInput, type PersistResult } from "./persist";

// Several servers per transaction: one commit carries a batch, so a round pays for a commit per batch and not per
// server. A crash loses at most the uncommitted batch, whose servers were not rescheduled and stay due. Each server
// writes inside its own savepoint, so one server's failure rolls back that server only.

export interface BatchWriter {
  /** Queues one server's run; resolves once the transaction that carries it has committed. */
  persist(input: PersistInput): Promise<PersistResult>;
  /** Commits everything queued so far. */
  flush(): Promise<void>;
}

export interface BatchOptions {
  /** A queued run is committed within this many milliseconds. Default 100. */
  maxDelayMs?: number;
  /** Commit at once when this many runs are queued. Default 32. */
  maxBatch?: number;
  /** One transaction stops taking runs after this much synchronous time, so a flush never holds the event loop
   * for long; the rest go in the next one, after other work had its turn. Default 4 ms. */
  budgetMs?: number;
}

interface Queued {
  input: PersistInput;
  resolve(r: PersistResult): void;
  reject(e: unknown): void;
}

export function createBatchWriter(db: Db, options: BatchOptions = {}): BatchWriter {
  const maxDelayMs = options.maxDelayMs ?? 100;
  const maxBatch = options.maxBatch ?? 32;
  const budgetMs = options.budgetMs ?? 4;
  let queue: Queued[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scheduled = false;
  let idle: (() => void)[] = [];

  const commitSome = () => {
    const t0 = performance.now();
    const taken: Queued[] = [];
    const outcomes: ({ ok: true; result: PersistResult } | { ok: false; error: unknown })[] = [];
    try {
      transaction(db, () => {
        while (queue.length > 0 && (taken.length === 0 || performance.now() - t0 < budgetMs)) {
          const item = queue.shift()!;
          taken.push(item);
          try {
            outcomes.push({ ok: true, result: db.$client.transaction(() => writeRun(db, item.input))() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of this batch was written.
      for (const item of taken) item.reject(error);
      return;
    }
    taken.forEach((item, i) => {
      const o = outcomes[i]!;
      if (o.ok) item.resolve(o.result);
      else item.reject(o.error);
    });
  };

  const drain = () => {
    scheduled = false;
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queue.length > 0) commitSome();
    if (queue.length > 0) {
      // Over the time budget: let timers and I/O run before the next transaction.
      scheduled = true;
      setImmediate(drain);
      return;
    }
    const waiting = idle;
    idle = [];
    for (const w of waiting) w();
  };

  const schedule = () => {
    if (scheduled) return;
    if (queue.length >= maxBatch) {
      scheduled = true;
      setImmediate(drain);
    } else if (!timer) {
      timer = setTimeout(drain, maxDelayMs);
    }
  };

  return {
    persist(input) {
      return new Promise<PersistResult>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        schedule();
      });
    },
    flush() {
      if (queue.length === 0 && !scheduled && !timer) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle.push(resolve);
        if (!scheduled) {
          scheduled = true;
          setImmediate(drain);
        }
      });
    },
  };
}
