import { describe, expect, test } from "vitest";
import { CHECK_IDS, CHECK_STATES } from "@/lib/vocabulary/checks";
import { STATE_LABELS, CHECK_LABELS } from "@/lib/site/labels";
import { SUITE_VERSION } from "@/lib/probe/protocol";

describe("vocabulary", () => {
  test("labels every state and check in both languages", () => {
    for (const lang of ["en", "zh"] as const) {
      for (const s of CHECK_STATES) expect(STATE_LABELS[lang][s]).toBeTruthy();
      for (const c of CHECK_IDS) expect(CHECK_LABELS[lang][c]).toBeTruthy();
    }
  });
  test("suite version is semver", () => {
    expect(SUITE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
