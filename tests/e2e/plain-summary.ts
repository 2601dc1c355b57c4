import type { FullResult, Reporter, Suite } from "@playwright/test/reporter";

// Prints one closing line CI can read: "playwright: N passed, N failed, N skipped".
export default class PlainSummary implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: unknown, suite: Suite): void {
    this.root = suite;
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const t of this.root?.allTests() ?? []) {
      const outcome = t.outcome();
      if (outcome === "expected" || outcome === "flaky") passed++;
      else if (outcome === "skipped") skipped++;
      else failed++;
    }
    // A run that died outside any test (webServer, globalSetup) must not read as green.
    if (result.status !== "passed" && failed === 0) failed = 1;
    console.log(`playwright: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
