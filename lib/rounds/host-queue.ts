// Hands out a round's due servers to its workers (architecture.md §2.5): at most `limitOf(host)` probes of one host at
// once, a paused host gets nothing new, and a free worker always takes the host with the most work left per
// slot. That is why a crowded host starts in the first batch and keeps its slots busy (it is the round's
// critical path: 3,000 servers over 4 slots outlast 7,000 over 12), while every other slot serves the rest.

export interface HostQueue<T> {
  /** The next item and a release to call when done with it; null when nothing is left to hand out. */
  take(): Promise<{ item: T; done: () => void } | null>;
  /** The host asked to slow down: nothing new until `untilMs` (ms from now by the round's clock). */
  pause(host: string, untilMs: number): void;
  /** Hands out nothing more (waiting takers get null). */
  stop(): void;
  /** Hands out nothing until resume(); takers wait (architecture.md §2.7: the probe's own network is presumed down). */
  hold(): void;
  resume(): void;
  /** Puts an item back in its host's line, to be handed out no earlier than `atMs` (a second probe, architecture.md §2.7).
   * The answer withdraws it again while it is not handed out (true when it was withdrawn). */
  requeue(item: T, atMs: number): () => boolean;
  /** Items not handed out yet, requeued ones included. */
  readonly remaining: number;
  /** Items not handed out because their host's pause outlasted what the round waits for. */
  readonly leftDue: readonly T[];
}

export interface HostQueueOptions<T> {
  hostOf: (item: T) => string;
  /** Probes of one host at once; read on every hand-out, so it may change during the round. */
  limitOf: (host: string) => number;
  /** A pause longer than this leaves the host's remaining items due for the next round. Default 60 s. */
  maxPauseWaitMs?: number;
  nowMs?: () => number;
}

interface HostEntry<T> {
  host: string;
  items: T[];
  head: number;
  inFlight: number;
  paused: boolean;
  pausedUntil: number;
  queued: boolean;
  timer?: NodeJS.Timeout;
  /** Its items went back due (a pause beyond the round): a requeued item that lands later follows them. */
  gone?: boolean;
}

export function createHostQueue<T>(items: readonly T[], options: HostQueueOptions<T>): HostQueue<T> {
  const nowMs = options.nowMs ?? (() => Date.now());
  const maxWait = options.maxPauseWaitMs ?? 60_000;
  const hosts = new Map<string, HostEntry<T>>();
  const entryOf = (item: T): HostEntry<T> => {
    const host = options.hostOf(item);
    let e = hosts.get(host);
    if (!e) {
      e = { host, items: [], head: 0, inFlight: 0, paused: false, pausedUntil: 0, queued: false };
      hosts.set(host, e);
    }
    return e;
  };
  for (const item of items) entryOf(item).items.push(item);
  let remaining = items.length;
  let stopped = false;
  let held = false;
  const landing = new Set<NodeJS.Timeout>();
  const leftDue: T[] = [];
  const waiters: (() => void)[] = [];
  const wakeAll = () => waiters.splice(0).forEach((w) => w());

  const left = (e: HostEntry<T>) => e.items.length - e.head;
  const limit = (e: HostEntry<T>) => Math.max(1, options.limitOf(e.host));
  const eligible = (e: HostEntry<T>) => !e.paused && left(e) > 0 && e.inFlight < limit(e);
  // Max-heap on work left per slot; an entry's key is fixed when pushed and checked again when popped.
  const heap: { e: HostEntry<T>; key: number }[] = [];
  const push = (e: HostEntry<T>) => {
    if (e.queued || !eligible(e)) return;
    e.queued = true;
    heap.push({ e, key: left(e) / limit(e) });
    for (let i = heap.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (heap[p]!.key >= heap[i]!.key) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l]!.key > heap[m]!.key) m = l;
        if (r < heap.length && heap[r]!.key > heap[m]!.key) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    top.e.queued = false;
    return top.e;
  };
  const finishIfEmpty = () => {
    if (remaining > 0 && !stopped) return;
    for (const e of hosts.values()) clearTimeout(e.timer);
    for (const t of landing) clearTimeout(t);
    landing.clear();
    wakeAll();
  };
  for (const e of hosts.values()) push(e);

  return {
    leftDue,
    get remaining() {
      return remaining;
    },
    async take() {
      for (;;) {
        if (stopped || remaining === 0) return null;
        while (!held && heap.length > 0) {
          const e = pop();
          if (!eligible(e)) continue;
          const item = e.items[e.head++]!;
          remaining--;
          e.inFlight++;
          push(e);
          finishIfEmpty();
          // A limit raised meanwhile (robots.txt read) may leave more free slots than wakers: pass it on.
          if (heap.length > 0) waiters.shift()?.();
          let released = false;
          return {
            item,
            done: () => {
              if (released) return;
              released = true;
              e.inFlight--;
              push(e);
              waiters.shift()?.();
            },
          };
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    pause(host, untilMs) {
      const e = hosts.get(host);
      if (!e || left(e) === 0) return;
      const wait = untilMs - nowMs();
      if (wait <= 0 || (e.paused && untilMs <= e.pausedUntil)) return;
      if (wait > maxWait) {
        leftDue.push(...e.items.slice(e.head));
        remaining -= left(e);
        e.head = e.items.length;
        e.gone = true;
        finishIfEmpty();
        return;
      }
      e.paused = true;
      e.pausedUntil = untilMs;
      clearTimeout(e.timer);
      e.timer = setTimeout(() => {
        e.paused = false;
        push(e);
        wakeAll();
      }, wait);
    },
    stop() {
      stopped = true;
      finishIfEmpty();
    },
    hold() {
      held = true;
    },
    resume() {
      held = false;
      wakeAll();
    },
    requeue(item, atMs) {
      if (stopped) return () => false;
      const e = entryOf(item);
      remaining++;
      let state: "waiting" | "landed" | "over" = "waiting";
      const land = () => {
        landing.delete(timer);
        state = "landed";
        if (e.gone) {
          state = "over";
          leftDue.push(item);
          remaining--;
          return finishIfEmpty();
        }
        e.items.push(item);
        push(e);
        wakeAll();
      };
      const timer = setTimeout(land, Math.max(0, atMs - nowMs()));
      landing.add(timer);
      return () => {
        if (state === "waiting") {
          clearTimeout(timer);
          landing.delete(timer);
        } else {
          const at = e.items.indexOf(item, e.head);
          if (state === "over" || at < 0) return false;
          e.items.splice(at, 1);
        }
        state = "over";
        remaining--;
        finishIfEmpty();
        return true;
      };
    },
  };
}
