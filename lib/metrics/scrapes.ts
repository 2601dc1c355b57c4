// What keeps scrapes cheap for the process that answers them: one computation shared by concurrent scrapes
// and reused for a short while, and a pace that spreads a crowd of scrapers out instead of letting them take
// the CPU that page answers need.

/** Answers computed at most once per `maxAgeMs`; scrapes that arrive while one is computed share it. */
export function createScrapeCache<T>(compute: () => Promise<T>, options: { maxAgeMs: number; now?: () => number }): { get(): Promise<T> } {
  const now = options.now ?? Date.now;
  let held: { value: T; at: number } | undefined;
  let computing: Promise<T> | undefined;
  return {
    get() {
      if (held && now() - held.at < options.maxAgeMs) return Promise.resolve(held.value);
      computing ??= compute()
        .then((value) => {
          held = { value, at: now() };
          return value;
        })
        .finally(() => (computing = undefined));
      return computing;
    },
  };
}

export interface ScrapePace {
  /** Resolves true when this scrape may be answered, false when too many are already waiting (answer 503). */
  enter(): Promise<boolean>;
  readonly waiting: number;
}

/** At most `perSecond` answers a second, in arrival order; past `maxWaiting` queued scrapes, refuse. */
export function createScrapePace(options: { perSecond: number; maxWaiting: number; now?: () => number }): ScrapePace {
  const now = options.now ?? Date.now;
  const gapMs = 1000 / options.perSecond;
  let nextAt = 0;
  let waiting = 0;
  return {
    async enter() {
      if (waiting >= options.maxWaiting) return false;
      const t = now();
      const at = Math.max(t, nextAt);
      nextAt = at + gapMs;
      if (at > t) {
        waiting++;
        await new Promise((r) => setTimeout(r, at - t));
        waiting--;
      }
      return true;
    },
    get waiting() {
      return waiting;
    },
  };
}

/** The limits both processes apply to /metrics. A Prometheus server scrapes every 15 s or so; these leave
 * room for many of them and still keep a flood of scrapes to a sliver of one core. */
export const SCRAPE_LIMITS = { maxAgeMs: 1_000, perSecond: 20, maxWaiting: 200 } as const;
