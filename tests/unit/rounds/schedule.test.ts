import { describe, expect, test } from "vitest";
import {
  CREDENTIAL_GATE_MS,
  DAY,
  HEALTHY_MAX_MS,
  HEALTHY_MIN_MS,
  HOUR,
  MINUTE,
  nameJitter,
  nextSchedule,
  type ScheduleOutcome,
} from "@/lib/rounds/schedule";

const now = new Date("2026-11-29T12:00:00.000Z");
const fresh = { consecutiveFailures: 0, unchangedStreak: 0 };
const after = (ms: number) => new Date(now.getTime() + ms).toISOString();

describe("schedule", () => {
  test("a healthy server stretches from 30 min to 6 h while its results stay the same", () => {
    let state = fresh;
    const intervals: number[] = [];
    for (let i = 0; i < 7; i++) {
      const d = nextSchedule(now, state, { kind: "healthy", changed: i === 0 });
      intervals.push(d.intervalMs);
      state = d;
    }
    expect(intervals).toEqual([30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 6 * HOUR, 6 * HOUR, 6 * HOUR]);
    expect(Math.max(...intervals)).toBe(HEALTHY_MAX_MS);
  });

  test("a change brings a stretched healthy server back to 30 min", () => {
    const d = nextSchedule(now, { consecutiveFailures: 0, unchangedStreak: 5 }, { kind: "healthy", changed: true });
    expect(d.nextDueAt).toBe(after(HEALTHY_MIN_MS));
    expect(d.unchangedStreak).toBe(0);
    expect(d.reason).toMatch(/changed/);
  });

  test("failures back off 6 h, 12 h, then 24 h and stay there", () => {
    let state = fresh;
    const got: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = nextSchedule(now, state, { kind: "failed" });
      got.push(d.intervalMs);
      state = d;
    }
    expect(got).toEqual([6 * HOUR, 12 * HOUR, DAY, DAY, DAY]);
    expect(state.consecutiveFailures).toBe(5);
  });

  test("a success after failures resets the failure count", () => {
    const d = nextSchedule(now, { consecutiveFailures: 3, unchangedStreak: 0 }, { kind: "healthy", changed: true });
    expect(d.consecutiveFailures).toBe(0);
    expect(d.intervalMs).toBe(30 * MINUTE);
  });

  test("a credential gate waits at least 24 h and is not counted as a failure", () => {
    const d = nextSchedule(now, { consecutiveFailures: 2, unchangedStreak: 0 }, { kind: "credential_gate" });
    expect(d.intervalMs).toBeGreaterThanOrEqual(CREDENTIAL_GATE_MS);
    expect(d.consecutiveFailures).toBe(0);
    expect(d.reason).toMatch(/credential required/);
  });

  test("a Retry-After beside a credential gate lengthens the 24 h wait and never shortens it", () => {
    expect(nextSchedule(now, fresh, { kind: "credential_gate", retryAfterSeconds: 60 }).intervalMs).toBe(CREDENTIAL_GATE_MS);
    expect(nextSchedule(now, fresh, { kind: "credential_gate", retryAfterSeconds: 2 * 86_400 }).intervalMs).toBe(2 * DAY);
  });

  test("healthy servers are never scheduled later than 6 h, whatever the jitter", () => {
    for (const streak of [0, 1, 2, 3, 4, 5, 20]) {
      for (const j of [0, 0.3, 0.999, 5]) {
        const d = nextSchedule(now, { consecutiveFailures: 0, unchangedStreak: streak }, { kind: "healthy", changed: false }, j);
        expect(d.intervalMs, `streak ${streak}, jitter ${j}`).toBeLessThanOrEqual(HEALTHY_MAX_MS);
        expect(d.intervalMs).toBeGreaterThanOrEqual(HEALTHY_MIN_MS);
        expect(Date.parse(d.nextDueAt) - now.getTime()).toBe(d.intervalMs);
      }
    }
    // At the 6 h cap the jitter still spreads servers, inside the window.
    const late = (j: number) =>
      nextSchedule(now, { consecutiveFailures: 0, unchangedStreak: 9 }, { kind: "healthy", changed: false }, j).intervalMs;
    expect(late(0)).toBe(6 * HOUR);
    expect(late(0.999)).toBeGreaterThan(5.4 * HOUR);
    expect(late(0.999)).toBeLessThan(late(0.5));
    // Below the cap it only lengthens: a changed server waits 30–33 min.
    const fresh30 = nextSchedule(now, fresh, { kind: "healthy", changed: true }, 0.999).intervalMs;
    expect(fresh30).toBeGreaterThan(30 * MINUTE);
    expect(fresh30).toBeLessThan(33 * MINUTE);
  });

  test.each<[string, ScheduleOutcome, number]>([
    ["a long Retry-After is honoured", { kind: "slow_down", retryAfterSeconds: 7200 }, 2 * HOUR],
    ["a short Retry-After never shortens the minimum interval", { kind: "slow_down", retryAfterSeconds: 5 }, 30 * MINUTE],
    ["no Retry-After waits an hour", { kind: "slow_down" }, HOUR],
  ])("slow down: %s", (_label, outcome, expected) => {
    const d = nextSchedule(now, fresh, outcome);
    expect(d.intervalMs).toBe(expected);
    if (outcome.kind === "slow_down" && outcome.retryAfterSeconds) {
      expect(Date.parse(d.nextDueAt) - now.getTime()).toBeGreaterThanOrEqual(outcome.retryAfterSeconds * 1000);
    }
  });

  test("an operator opt-out parks the server for a year; a robots opt-out is re-read daily", () => {
    expect(nextSchedule(now, fresh, { kind: "opted_out", source: "operator" }).intervalMs).toBe(365 * DAY);
    expect(nextSchedule(now, fresh, { kind: "opted_out", source: "robots" }).intervalMs).toBe(DAY);
  });

  test("jitter only lengthens, by at most 10%", () => {
    for (const j of [0, 0.25, 0.5, 0.999, 5, -1]) {
      const d = nextSchedule(now, fresh, { kind: "failed" }, j);
      expect(d.intervalMs).toBeGreaterThanOrEqual(6 * HOUR);
      expect(d.intervalMs).toBeLessThan(6 * HOUR * 1.1);
    }
    const a = nameJitter("io.github.a/one");
    expect(a).toBe(nameJitter("io.github.a/one"));
    expect(a).toBeGreaterThanOrEqual(0);
    expect(a).toBeLessThan(1);
    expect(nameJitter("io.github.a/two")).not.toBe(a);
  });

  test("the stored reason says why and when", () => {
    expect(nextSchedule(now, fresh, { kind: "failed" }).reason).toBe("1 failure in a row; next probe in 6 h");
    expect(nextSchedule(now, fresh, { kind: "needs_config" }).reason).toMatch(/needs configuration/);
  });
});
