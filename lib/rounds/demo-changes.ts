import { CHANGING_STEPS } from "../demo/changing";
import { DEMO_CHANGING_SERVER } from "../demo/fleet";
import { serverIdByName } from "../store/history";
import { startReprobeRound } from "./reprobe";
import type { RoundDeps } from "./round";

// The demo's changing server would otherwise wait 30 minutes (then 6 hours after its failing step) for its next
// probe. After the first round the demo probes it once more per interval, as one-server rounds on the ordinary
// path, until it has been through every step once: tool changes, an incident opening and its closing.

export const DEMO_CHANGE_INTERVAL_MS = 20_000;

export interface DemoChanges {
  /** Resolves once every step was probed (or the changer was stopped). */
  done: Promise<void>;
  stop(): void;
}

export function startDemoChanges(deps: () => RoundDeps, options: { intervalMs?: number; log?: (line: string) => void } = {}): DemoChanges {
  const d = deps();
  const id = serverIdByName(d.db, DEMO_CHANGING_SERVER);
  const wanted = CHANGING_STEPS.length - 1;
  let probed = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let finish = () => {};
  const done = new Promise<void>((resolve) => (finish = resolve));
  const stop = () => {
    if (timer) clearInterval(timer);
    finish();
  };
  if (id === null) {
    stop();
    return { done, stop };
  }
  let inFlight = false;
  timer = setInterval(() => {
    if (inFlight) return;
    // Another round holds the lock: the next tick tries again.
    const r = startReprobeRound(deps(), id);
    if (!r.started) return;
    inFlight = true;
    void r.done.finally(() => {
      inFlight = false;
      probed++;
      options.log?.(`[demo] ${DEMO_CHANGING_SERVER}: step ${probed + 1} of ${CHANGING_STEPS.length} probed`);
      if (probed >= wanted) stop();
    });
  }, options.intervalMs ?? DEMO_CHANGE_INTERVAL_MS);
  timer.unref?.();
  return { done, stop };
}
