import type { OptOutSource } from "../store/vocabulary";
// When to probe a server next. Pure: the round passes the outcome and the clock.

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const HEALTHY_MIN_MS = 30 * MINUTE;
export const HEALTHY_MAX_MS = 6 * HOUR;
export const FAILURE_STEPS_MS = [6 * HOUR, 12 * HOUR, 24 * HOUR] as const;
export const CREDENTIAL_GATE_MS = 24 * HOUR;
export const SLOW_DOWN_DEFAULT_MS = HOUR;
export const NEEDS_CONFIG_MS = 24 * HOUR;
/** Robots rules are re-read daily, so a robots opt-out is looked at again then. */
export const ROBOTS_OPT_OUT_MS = 24 * HOUR;
/** Operator opt-outs park the server; removing the opt-out makes it due at once. */
export const OPERATOR_OPT_OUT_MS = 365 * DAY;

export type ScheduleOutcome =
  | { kind: "healthy"; changed: boolean }
  | { kind: "failed" }
  | { kind: "credential_gate" }
  | { kind: "slow_down"; retryAfterSeconds?: number }
  | { kind: "needs_config" }
  | { kind: "blocked" }
  | { kind: "opted_out"; source: OptOutSource };

export interface ScheduleState {
  consecutiveFailures: number;
  unchangedStreak: number;
}

export interface ScheduleDecision extends ScheduleState {
  nextDueAt: string;
  intervalMs: number;
  reason: string;
}

function human(ms: number): string {
  if (ms % DAY === 0 && ms >= DAY) return `${ms / DAY} d`;
  if (ms >= HOUR) return `${Math.round((ms / HOUR) * 10) / 10} h`;
  if (ms >= MINUTE) return `${Math.round(ms / MINUTE)} min`;
  return `${Math.ceil(ms / 1000)} s`;
}

/** Decides the next probe time. `jitter` in [0, 1) spreads servers that became due together over up to 10%
 * more of the interval, so they do not all come due in the same round again. */
export function nextSchedule(now: Date, prev: ScheduleState, outcome: ScheduleOutcome, jitter = 0): ScheduleDecision {
  let intervalMs: number;
  let consecutiveFailures = 0;
  let unchangedStreak = 0;
  let reason: string;
  switch (outcome.kind) {
    case "healthy": {
      unchangedStreak = outcome.changed ? 0 : prev.unchangedStreak + 1;
      intervalMs = Math.min(HEALTHY_MIN_MS * 2 ** unchangedStreak, HEALTHY_MAX_MS);
      reason = outcome.changed
        ? `healthy; results changed, next probe in ${human(intervalMs)}`
        : `healthy; results unchanged ${unchangedStreak} time${unchangedStreak === 1 ? "" : "s"}, next probe in ${human(intervalMs)}`;
      break;
    }
    case "failed": {
      consecutiveFailures = prev.consecutiveFailures + 1;
      intervalMs = FAILURE_STEPS_MS[Math.min(consecutiveFailures, FAILURE_STEPS_MS.length) - 1]!;
      reason = `${consecutiveFailures} failure${consecutiveFailures === 1 ? "" : "s"} in a row; next probe in ${human(intervalMs)}`;
      break;
    }
    case "credential_gate":
      intervalMs = CREDENTIAL_GATE_MS;
      reason = `credential required; next probe in ${human(intervalMs)}`;
      break;
    case "slow_down": {
      const asked = outcome.retryAfterSeconds !== undefined ? outcome.retryAfterSeconds * 1000 : undefined;
      intervalMs = Math.max(asked ?? SLOW_DOWN_DEFAULT_MS, HEALTHY_MIN_MS);
      consecutiveFailures = prev.consecutiveFailures;
      reason =
        asked !== undefined
          ? `asked to slow down (Retry-After ${outcome.retryAfterSeconds} s); next probe in ${human(intervalMs)}`
          : `asked to slow down without Retry-After; next probe in ${human(intervalMs)}`;
      break;
    }
    case "needs_config":
      intervalMs = NEEDS_CONFIG_MS;
      reason = `needs configuration; looked at again in ${human(intervalMs)} or when the registry entry changes`;
      break;
    case "blocked":
      intervalMs = NEEDS_CONFIG_MS;
      reason = `not probeable as listed; looked at again in ${human(intervalMs)}`;
      break;
    case "opted_out":
      intervalMs = outcome.source === "robots" ? ROBOTS_OPT_OUT_MS : OPERATOR_OPT_OUT_MS;
      reason =
        outcome.source === "robots"
          ? `robots.txt opts this host out; rules re-read in ${human(intervalMs)}`
          : "host opted out by the operator; probed again only when the opt-out is removed";
      break;
  }
  // Jitter never shortens an interval, so every minimum above holds.
  const spread = outcome.kind === "opted_out" ? 0 : Math.floor(intervalMs * 0.1 * Math.min(Math.max(jitter, 0), 0.999));
  return {
    nextDueAt: new Date(now.getTime() + intervalMs + spread).toISOString(),
    intervalMs: intervalMs + spread,
    consecutiveFailures,
    unchangedStreak,
    reason,
  };
}

/** A stable number in [0, 1) per server name, for jitter. */
export function nameJitter(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0) / 2 ** 32;
}
