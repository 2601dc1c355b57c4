import { describe, expect, test } from "vitest";
import { ZOO_EXPECTATIONS } from "@/lib/demo/zoo";
import {
  HOSTILE_LIMITS,
  contradiction,
  expectedStatesFor,
  causeProblem,
  hintProblem,
  observationProblem,
  politenessProblem,
  reasonProblem,
  refusalCodeProblem,
  runZooCase,
  statesOf,
} from "./harness";

const hostile = Object.entries(ZOO_EXPECTATIONS).filter(([, e]) => e.hostile);
const MB = 1024 * 1024;

// One at a time, so each case's memory is its own.
describe("probe against hostile zoo servers (small limits)", () => {
  test.each(hostile)("%s costs at most its deadline and bounded memory", async (name, exp) => {
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let run;
    try {
      run = await runZooCase(name);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    const actual = statesOf(run.results);
    const where = `${name}: ${exp.about}\n${run.results.map((r) => `${r.check}=${r.state}: ${r.reason}`).join("\n")}`;
    console.log(`[zoo] ${name}: ${run.elapsedMs} ms, peak rss +${Math.round((peak - before) / MB)} MB`);

    expect(run.elapsedMs, where).toBeLessThanOrEqual(HOSTILE_LIMITS.deadlineMs! + 1_500);
    expect(peak - before, where).toBeLessThan(200 * MB);
    expect(actual, where).toEqual(expectedStatesFor(name, actual));
    for (const r of run.results) expect(reasonProblem(r.reason), `${name} ${r.check} reason "${r.reason}"`).toBeNull();
    for (const [check, fragment] of Object.entries(exp.reasonExcludes ?? {})) {
      expect(run.results.find((r) => r.check === check)?.reason.toLowerCase(), `${name} ${check}`).not.toContain(fragment);
    }
    expect(contradiction(run), `${name}: a reason contradicts the recorded exchanges`).toBeNull();
    expect(exp.forbidden?.(run.server.log) ?? null, `${name} forbidden request`).toBeNull();
    expect(politenessProblem(run), name).toBeNull();
    expect(refusalCodeProblem(run), name).toBeNull();
    expect(hintProblem(run), name).toBeNull();
    expect(causeProblem(run), name).toBeNull();
    expect(observationProblem(run), name).toBeNull();
    expect(({} as Record<string, unknown>).polluted, "prototype polluted").toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);
  });
});
