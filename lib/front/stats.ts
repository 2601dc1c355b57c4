import { FRONT_OUTCOMES, FRONT_REFUSALS, type FrontOutcome, type FrontRefusal } from "../vocabulary/front";

// The front's counters, in one place: how requests were answered, refusals by cause, renders in flight,
// renderer restarts. `snapshot()` is the read-only view (the health answer shows it; a metrics exporter
// reads the same).

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
export function createFrontStats(gauges: {
  renders: () => { running: number; queued: number };
  cache: () => { entries: number; bytes: number };
}): FrontStats {
  const answers = zeros(FRONT_OUTCOMES);
  const refusals = zeros(FRONT_REFUSALS);
  let restarts = 0;
  return {
    answered: (o) => void answers[o]++,
    refused: (r) => void refusals[r]++,
    rendererRestarted: () => void restarts++,
    snapshot() {
      const renders = gauges.renders();
      return {
        answers: { ...answers },
        refusals: { ...refusals },
        rendersInFlight: renders.running,
        rendersQueued: renders.queued,
        rendererRestarts: restarts,
        cache: gauges.cache(),
      };
    },
  };
}
