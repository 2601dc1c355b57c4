import { getRound } from "../store/rounds";
import { REPROBE_ROUND_TRIGGER } from "../vocabulary/store";
import { startRound, type RoundDeps, type StartResult } from "./round";

/** Starts one probe of one registry server as a round of its own (same probe, opt-outs, lock and writes). */
export function startReprobeRound(deps: RoundDeps, serverId: number): StartResult {
  return startRound({ ...deps, trigger: REPROBE_ROUND_TRIGGER, serverIds: [serverId] });
}

/** Starts a round; while a one-server re-probe holds the lock (it lasts one probe), waits for it instead of
 * skipping the scheduler's tick. Any other holder, or waiting past `maxWaitMs`, answers "not started". */
export async function startRoundAfterReprobes(
  deps: RoundDeps,
  options: { pollMs?: number; maxWaitMs?: number } = {},
): Promise<StartResult> {
  const until = Date.now() + (options.maxWaitMs ?? 3 * 60_000);
  for (;;) {
    const r = startRound(deps);
    if (r.started || getRound(deps.db, r.roundId)?.trigger !== REPROBE_ROUND_TRIGGER || Date.now() >= until) return r;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1_000));
  }
}
