// The front's counters, in one place: how requests were answered, refusals by cause, renders in flight,
// renderer restarts. `snapshot()` is the read-only view (the health answer shows it; a metrics exporter
// reads the same).

/** How the front answered a request: from memory (hit), the previous answer while the new one renders
 * (stale), a held answer while the renderer cannot give the current one (stale-if-error), rendered and
 * kept (fill), or handed to the renderer as it came (pass: a route it never holds, which then carries no
 * x-page-cache header, or a held route's answer that is not kept, such as a 404). */
export const FRONT_OUTCOMES = ["hit", "stale", "stale-if-error", "fill", "pass"] as const;
export type FrontOutcome = (typeof FRONT_OUTCOMES)[number];

/** Answers the front made itself instead: renderer away or all renders busy (503), no headers in time (504),
 * the renderer failed (502), a malformed or ambiguous request (400), a body over the limit (413). */
export const FRONT_REFUSALS = ["renderer_away", "busy", "timeout", "renderer_failed", "bad_request", "too_large"] as const;
export type FrontRefusal = (typeof FRONT_REFUSALS)[number];

export interface FrontSnapshot {
  answers: Record<FrontOutcome, number>;
  refusals: Record<FrontRefusal, number>;
  /** Requests handed to the renderer and not yet answered (headers, or the whole body for a fill). */
  rendersInFlight: number;
  rendersQueued: number;
  rendererRestarts: number;
  cache: { entries: number; bytes: number };
}

export interface FrontStats {
  answered(o: FrontOutcome): void;
  refused(r: FrontRefusal): void;
  rendererRestarted(): void;
  snapshot(): FrontSnapshot;
}

const zeros = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** Counters plus the gauges read at snapshot time. */
export function createFrontStats(gauges: { renders: () => { running: number; queued: number }; cache: () => { entries: number; bytes: number } }): FrontStats {
  const answers = zeros(FRONT_OUTCOMES);
  const refusals = zeros(FRONT_REFUSALS);
  let restarts = 0;
  return {
    answered: (o) => void answers[o]++,
    refused: (r) => void refusals[r]++,
    rendererRestarted: () => void restarts++,
    snapshot() {
      const renders = gauges.renders();
      return { answers: { ...answers }, refusals: { ...refusals }, rendersInFlight: renders.running, rendersQueued: renders.queued, rendererRestarts: restarts, cache: gauges.cache() };
    },
  };
}
