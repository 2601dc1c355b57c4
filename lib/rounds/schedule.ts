import type { OptOutSource } from "../vocabulary/store";
import { counted, WORDS } from "../site/plural";
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
  /** A Retry-After seen beside the gate (its metadata host is the server's own) lengthens the wait, never shortens it. */
  | { kind: "credential_gate"; retryAfterSeconds?: number }
  | { kind: "slow_down"; retryAfterSeconds?: number }
  | { kind: "needs_config" }
  /** architecture.md §2.6 (0.15.0): refused for want of the headers the registry lists; scheduled like a credential gate. */
  | { kind: "config_refused" }
  | { kind: "blocked" }
  | { kind: "opted_out"; source: OptOutSource }
  /** architecture.md §2.7: the probe's own network was failing; no back-off, due for the next round. */
  | { kind: "probe_network" };

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

/** Decides the next probe time. `jitter` in [0, 1) spreads servers that became due together over a window of 10%
 * of the interval, so they do not all come due in the same round again. */
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
        : `healthy; results unchanged ${counted(unchangedStreak, WORDS.time)}, next probe in ${human(intervalMs)}`;
      break;
    }
    case "failed": {
      consecutiveFailures = prev.consecutiveFailures + 1;
      intervalMs = FAILURE_STEPS_MS[Math.min(consecutiveFailures, FAILURE_STEPS_MS.length) - 1]!;
      reason = `${counted(consecutiveFailures, WORDS.failureInARow)}; next probe in ${human(intervalMs)}`;
      break;
    }
    case "credential_gate":
      intervalMs = Math.max(CREDENTIAL_GATE_MS, (outcome.retryAfterSeconds ?? 0) * 1000);
      reason = `credential required; next probe in ${human(intervalMs)}`;
      break;
    case "config_refused":
      intervalMs = CREDENTIAL_GATE_MS;
      reason = `refused without the headers its registry entry lists; next probe in ${human(intervalMs)}`;
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
    case "probe_network":
      // Our outage, not the server's: its failure count and healthy streak stay as they were.
      return {
        nextDueAt: now.toISOString(),
        intervalMs: 0,
        consecutiveFailures: prev.consecutiveFailures,
        unchangedStreak: prev.unchangedStreak,
        reason: "the probe's own network was failing; probed again next round",
      };
    case "opted_out":
      intervalMs = outcome.source === "robots" ? ROBOTS_OPT_OUT_MS : OPERATOR_OPT_OUT_MS;
      reason =
        outcome.source === "robots"
          ? `robots.txt opts this host out; rules re-read in ${human(intervalMs)}`
          : "host opted out by the operator; probed again only when the opt-out is removed";
      break;
  }
  const delay =
    outcome.kind === "opted_out" ? intervalMs : jittered(intervalMs, outcome.kind === "healthy" ? HEALTHY_MAX_MS : Infinity, jitter);
  return {
    nextDueAt: new Date(now.getTime() + delay).toISOString(),
    intervalMs: delay,
    consecutiveFailures,
    unchangedStreak,
    reason,
  };
}

/** Spreads the delay over 10% of the interval: after it, or, where that would pass `cap` (healthy servers are never
 * probed later than 6 h), before it. Only a capped interval is ever shortened. */
export function jittered(intervalMs: number, cap: number, jitter: number): number {
  const spread = intervalMs * 0.1 * Math.min(Math.max(jitter, 0), 0.999);
  return Math.floor(intervalMs * 1.1 <= cap ? intervalMs + spread : Math.min(intervalMs, cap) - spread);
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
