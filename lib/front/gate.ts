// At most `max` renders at once, and at most `queue` requests waiting for one; a request beyond both is
// refused at once (the caller answers 503, Retry-After: 1), so a flood of uncached URLs costs the front a
// counter, never memory or the renderer's CPU.

export type Release = () => void;

export interface RenderGate {
  /** A slot, once one is free; null at once when the queue is full, or when `waitMs` passed in the queue. */
  acquire(waitMs: number): Promise<Release | null>;
  readonly running: number;
  readonly queued: number;
}

export function createRenderGate(options: { max: number; queue: number }): RenderGate {
  let running = 0;
  const waiting: { grant: (r: Release | null) => void }[] = [];

  const release = (): Release => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running--;
      const next = waiting.shift();
      if (next) {
        running++;
        next.grant(release());
      }
    };
  };

  return {
    acquire(waitMs) {
      if (running < options.max) {
        running++;
        return Promise.resolve(release());
      }
      if (waiting.length >= options.queue) return Promise.resolve(null);
      return new Promise((resolve) => {
        const w = {
          grant: (r: Release | null) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          const i = waiting.indexOf(w);
          if (i >= 0) waiting.splice(i, 1);
          resolve(null);
        }, waitMs);
        waiting.push(w);
      });
    },
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
  };
}
