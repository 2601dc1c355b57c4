import { describe, expect, it } from "vitest";
import { MIDNIGHT_MARGIN_MS, waitBeforeMidnight } from "../../e2e/midnight";

const at = (iso: string) => Date.parse(iso);

describe("the e2e run's midnight hold", () => {
  it("waits until 5 s past midnight UTC only when midnight is within the margin", () => {
    expect(waitBeforeMidnight(at("2026-12-05T23:50:00Z"))).toBe(10 * 60_000 + 5_000);
    expect(waitBeforeMidnight(at("2026-12-05T23:59:59.999Z"))).toBe(5_001);
    expect(waitBeforeMidnight(at("2026-12-05T23:39:59Z"))).toBe(0);
    expect(waitBeforeMidnight(at("2026-12-06T00:00:00Z"))).toBe(0);
    expect(waitBeforeMidnight(at("2026-12-06T00:00:01Z"))).toBe(0);
    expect(waitBeforeMidnight(at("2026-12-06T12:00:00Z"))).toBe(0);
  });

  it("the margin is longer than a whole e2e run in CI (about 10 minutes)", () => {
    expect(MIDNIGHT_MARGIN_MS).toBeGreaterThanOrEqual(15 * 60_000);
    expect(waitBeforeMidnight(at("2026-12-05T23:40:00Z"))).toBe(MIDNIGHT_MARGIN_MS + 5_000);
  });
});
