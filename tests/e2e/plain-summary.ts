import type { FullResult, Reporter, Suite } from "@playwright/test/reporter";

// Prints one closing line CI can read: "playwright: N passed, N failed, N skipped, N flaky", after the names of
// the flaky tests (failed, then passed on CI's retry), so a retry never hides what needed it.
export default class PlainSummary implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: unknown, suite: Suite): void {
    this.root = suite;
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const flaky: string[] = [];
    for (const t of this.root?.allTests() ?? []) {
      const outcome = t.outcome();
      if (outcome === "flaky") flaky.push(t.titlePath().filter(Boolean).join(" › "));
      if (outcome === "expected" || outcome === "flaky") passed++;
      else if (outcome === "skipped") skipped++;
      else failed++;
    }
    // A run that died outside any test (webServer, globalSetup) must not read as green.
    if (result.status !== "passed" && failed === 0) failed = 1;
    for (const title of flaky) console.log(`[flaky] ${title}`);
    console.log(`playwright: ${passed} passed, ${failed} failed, ${skipped} skipped, ${flaky.length} flaky`);
  }
}
