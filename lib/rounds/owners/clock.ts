// The claims' clock (architecture.md §11): the one place that decides when owners' proofs are fetched again. It runs in the site
// process whether or not rounds run (an empty PROBE_SCHEDULE, an outside cron, none at all), once at start and then hourly; each
// tick re-checks the verified claims whose 7 days are up (claims.ts) and prunes old owner runs and attempts.
import { pruneOwners } from "../../store/owners";
import { recheckClaims, type OwnerDeps } from "./claims";

export const CLAIM_CLOCK_MS = 3_600_000;

/** Owner's-view runs are kept 90 days: the longest uptime window. */
export const OWNER_RUNS_KEPT_MS = 90 * 86_400_000;

export interface ClaimClock {
  /** One pass (what the timer runs); a tick while one runs waits for that one. Null when it could not run. */
  tick(): Promise<{ checked: number; lapsed: number } | null>;
  stop(): void;
}

export function startClaimClock(deps: OwnerDeps, intervalMs = CLAIM_CLOCK_MS): ClaimClock {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((l: string) => console.log(l));
  let running: Promise<{ checked: number; lapsed: number } | null> | null = null;

  const pass = async () => {
    // Nothing a pass finds could be recorded while the database cannot be written; the alert clock tends that.
    if (deps.db.$writes.unwritable) return null;
    try {
      pruneOwners(deps.db, now(), OWNER_RUNS_KEPT_MS);
      const r = await recheckClaims(deps);
      if (r.checked) log(`[owners] proofs re-checked: ${r.checked}, lapsed ${r.lapsed}`);
      return r;
    } catch (e) {
      log(`[owners] proof re-check failed: ${(e as Error).message}`);
      return null;
    }
  };

  const tick = () => {
    running ??= pass().finally(() => (running = null));
    return running;
  };

  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref?.();
  void tick();
  return { tick, stop: () => clearInterval(timer) };
}
