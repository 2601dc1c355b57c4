// Hands out work so that concurrent workers are on different hosts: a worker takes the next server of a host
// nobody is probing, and waits when every host with work left is busy. With one request at a time per host,
// this keeps the other workers busy instead of queueing behind one crowded host.

export interface HostQueue<T> {
  /** The next item and a release to call when done with it; null when everything was handed out. */
  take(): Promise<{ item: T; done: () => void } | null>;
  /** Hands out nothing more (waiting takers get null). */
  stop(): void;
}

export function createHostQueue<T>(items: readonly T[], hostOf: (item: T) => string): HostQueue<T> {
  const queues = new Map<string, { items: T[]; head: number }>();
  const ready: string[] = [];
  for (const item of items) {
    const host = hostOf(item);
    let q = queues.get(host);
    if (!q) {
      q = { items: [], head: 0 };
      queues.set(host, q);
      ready.push(host);
    }
    q.items.push(item);
  }
  let readyHead = 0;
  let remaining = items.length;
  let stopped = false;
  const waiters: (() => void)[] = [];
  const wakeAll = () => waiters.splice(0).forEach((w) => w());

  return {
    async take() {
      for (;;) {
        if (stopped || remaining === 0) return null;
        if (readyHead < ready.length) {
          const host = ready[readyHead++]!;
          const q = queues.get(host)!;
          const item = q.items[q.head++]!;
          remaining--;
          if (remaining === 0) wakeAll();
          let released = false;
          return {
            item,
            done: () => {
              if (released) return;
              released = true;
              if (q.head < q.items.length) {
                ready.push(host);
                waiters.shift()?.();
              }
            },
          };
        }
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    stop() {
      stopped = true;
      wakeAll();
    },
  };
}
