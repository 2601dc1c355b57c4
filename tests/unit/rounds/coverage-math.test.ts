import { describe, expect, test } from "vitest";
import { addDays, judgeCoverageDay, median, utcDay } from "@/lib/rounds/coverage";

describe("coverage arithmetic", () => {
  test("UTC days and day arithmetic", () => {
    expect(utcDay(new Date("2026-11-29T23:59:59.999Z"))).toBe("2026-11-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  test("median of odd and even lists", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  const week = new Map([
    ["2026-11-01", 1000],
    ["2026-11-02", 1010],
    ["2026-11-03", 990],
    ["2026-11-04", 1005],
    ["2026-11-05", 995],
    ["2026-11-06", 1000],
    ["2026-11-07", 1020],
  ]);

  test("a drop of more than 5% below the 7-day median alerts", () => {
    const v = judgeCoverageDay("2026-11-08", new Map([...week, ["2026-11-08", 940]]), "2026-11-01");
    expect(v.baseline).toBe(1000);
    expect(v.alert).toBe(true);
    expect(v.message).toMatch(/940 distinct servers read on 2026-11-08, 6% below the 7-day median of 1000/);
  });

  test("exactly 5% below does not alert", () => {
    expect(judgeCoverageDay("2026-11-08", new Map([...week, ["2026-11-08", 950]]), "2026-11-01").alert).toBe(false);
  });

  test("a day with nothing read at all counts as zero and alerts", () => {
    expect(judgeCoverageDay("2026-11-08", week, "2026-11-01")).toMatchObject({ value: 0, alert: true });
  });

  test("without three days of history there is no baseline", () => {
    const v = judgeCoverageDay(
      "2026-11-03",
      new Map([
        ["2026-11-01", 10],
        ["2026-11-02", 10],
        ["2026-11-03", 1],
      ]),
      "2026-11-01",
    );
    expect(v).toMatchObject({ alert: false, baseline: null });
  });
});
