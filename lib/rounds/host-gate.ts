import { parseRetryAfter, type HostGate } from "../probe/transport/http";

/** How long a 429 without Retry-After pauses its host (the server itself is rescheduled by its own rule). */
export const PAUSE_WITHOUT_RETRY_AFTER_MS = 60_000;

export interface HostGateOptions {
  /** Requests to one host in flight at once (its probe limit: 1, or PROBE_HOST_CONCURRENCY when crowded). */
  limitOf: (host: string) => number;
  /** A host answered 429, or 503 with Retry-After: new probes to it wait until `untilMs`. */
  onPause?: (host: string, until: Date, cause: string) => void;
  /** The round's clock, for pause ends. */
  now?: () => Date;
}

export interface RoundHostGate extends HostGate {
  /** robots.txt's Crawl-delay for the host (seconds; null for none): requests go one at a time, this far apart. */
  setCrawlDelay(host: string, seconds: number | null): void;
  crawlDelayMs(host: string): number;
  /** Most requests seen in flight at once per host during the round. */
  readonly peaks: ReadonlyMap<string, number>;
}

interface HostState {
  inFlight: number;
  /** When the last request to the host finished (its answer read). */
  lastEndMs: number;
  waiters: (() => void)[];
  timer?: NodeJS.Timeout;
}

/**
 * Request-level pacing per host, shared by every probe of a round: at most `limitOf(host)` requests in
 * flight, first come first served; with a Crawl-delay, one at a time and each starting at least the delay
 * after the previous one finished (stricter than start to start, so no two arrive closer than the delay).
 */
export function createHostGate(o: HostGateOptions): RoundHostGate {
  // One entry per host the round touched: it keeps the last request's end for the Crawl-delay gap.
  const nowMs = () => performance.now();
  const now = o.now ?? (() => new Date());
  const hosts = new Map<string, HostState>();
  const delays = new Map<string, number>();
  const peaks = new Map<string, number>();

  const stateOf = (key: string): HostState => {
    let st = hosts.get(key);
    if (!st) {
      st = { inFlight: 0, lastEndMs: -Infinity, waiters: [] };
      hosts.set(key, st);
    }
    return st;
  };

  const pump = (key: string, st: HostState): void => {
    const delay = delays.get(key) ?? 0;
    const limit = delay > 0 ? 1 : Math.max(1, o.limitOf(key));
    while (st.waiters.length > 0 && st.inFlight < limit) {
      const wait = st.lastEndMs + delay - nowMs();
      if (delay > 0 && wait > 0) {
        st.timer ??= setTimeout(() => {
          st.timer = undefined;
          pump(key, st);
        }, Math.ceil(wait));
        return;
      }
      st.inFlight++;
      peaks.set(key, Math.max(peaks.get(key) ?? 0, st.inFlight));
      st.waiters.shift()!();
    }
  };

  return {
    peaks,
    setCrawlDelay(host, seconds) {
      const key = host.toLowerCase();
      if (seconds && seconds > 0) delays.set(key, seconds * 1000);
      else delays.delete(key);
    },
    crawlDelayMs(host) {
      return delays.get(host.toLowerCase()) ?? 0;
    },
    async acquire(host) {
      const key = host.toLowerCase();
      const st = stateOf(key);
      await new Promise<void>((resolve) => {
        st.waiters.push(resolve);
        pump(key, st);
      });
      let done = false;
      return () => {
        if (done) return;
        done = true;
        st.inFlight--;
        st.lastEndMs = nowMs();
        pump(key, st);
      };
    },
    answered(host, status, retryAfter) {
      if (status !== 429 && !(status === 503 && retryAfter !== undefined)) return;
      const secs = parseRetryAfter(retryAfter, now());
      const ms = secs !== undefined ? secs * 1000 : PAUSE_WITHOUT_RETRY_AFTER_MS;
      const cause = `HTTP ${status}${secs !== undefined ? ` with Retry-After ${secs} s` : " without a usable Retry-After"}`;
      o.onPause?.(host.toLowerCase(), new Date(now().getTime() + ms), cause);
    },
  };
}
