import { describe, expect, test } from "vitest";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { ZOO_BEHAVIOURS, ZOO_EXPECTATIONS } from "@/lib/demo/zoo";
import {
  contradiction,
  expectedStatesFor,
  causeProblem,
  clientsProblem,
  hintProblem,
  observationProblem,
  politenessProblem,
  protocolVersionOf,
  reasonProblem,
  refusalCodeProblem,
  runZooCase,
  statesOf,
} from "./harness";

const ordinary = Object.entries(ZOO_EXPECTATIONS).filter(([, e]) => !e.hostile);

describe("zoo fixture tables", () => {
  test("every behaviour has an expectation and every expectation a behaviour", () => {
    expect(Object.keys(ZOO_BEHAVIOURS).sort()).toEqual(Object.keys(ZOO_EXPECTATIONS).sort());
  });
});

describe.concurrent("probe against the zoo", () => {
  test.each(ordinary)("%s", async (name, exp) => {
    const run = await runZooCase(name);
    const actual = statesOf(run.results);
    const where = `${name}: ${exp.about}\nreasons: ${JSON.stringify(
      run.results.map((r) => `${r.check}=${r.state}: ${r.reason}`),
      null,
      1,
    )}`;

    expect(actual, where).toEqual(expectedStatesFor(name, actual));
    if (exp.era) expect(run.obs.era, where).toBe(exp.era);
    if (exp.protocolVersion) expect(protocolVersionOf(run.obs), where).toBe(exp.protocolVersion);

    for (const r of run.results) {
      expect(reasonProblem(r.reason), `${name} ${r.check} reason "${r.reason}"`).toBeNull();
      for (const seq of r.evidence)
        expect(
          run.obs.exchanges.some((x) => x.seq === seq),
          `${name} ${r.check} evidence ${seq}`,
        ).toBe(true);
    }
    for (const [check, fragment] of Object.entries(exp.reasonIncludes ?? {})) {
      const reason = run.results.find((r) => r.check === check)?.reason ?? "";
      expect(reason.toLowerCase().replace(/[,\u202f]/g, ""), `${name} ${check}`).toContain(fragment);
    }

    for (const [check, fragment] of Object.entries(exp.reasonExcludes ?? {})) {
      expect(run.results.find((r) => r.check === check)?.reason.toLowerCase(), `${name} ${check}`).not.toContain(fragment);
    }
    expect(contradiction(run), `${name}: a reason contradicts the recorded exchanges`).toBeNull();
    expect(exp.forbidden?.(run.server.log) ?? null, `${name} forbidden request`).toBeNull();
    expect(politenessProblem(run), name).toBeNull();
    expect(refusalCodeProblem(run), name).toBeNull();
    expect(hintProblem(run), `${name}: ${JSON.stringify(run.results.map((r) => r.hint ?? null))}`).toBeNull();
    expect(causeProblem(run), name).toBeNull();
    expect(clientsProblem(run), name).toBeNull();
    expect(observationProblem(run), name).toBeNull();
    if (exp.optOut === "server") expect(run.server.log).toEqual([]);
    if (exp.optOut === "metadata") {
      expect(run.server.other?.log, "the opted-out metadata host got a request").toEqual([]);
      expect(run.server.log.length).toBeGreaterThan(0);
    }
    if (exp.privateMetadata) {
      const sent = run.obs.exchanges.filter((x) => x.url.includes("10.255.255.1"));
      for (const x of sent) expect(x.status, "a request reached the private metadata address").toBeUndefined();
    }
    expect(({} as Record<string, unknown>).polluted, "prototype polluted").toBeUndefined();
    expect(run.results.map((r) => r.check)).toEqual([...CHECK_IDS]);
  });
});
