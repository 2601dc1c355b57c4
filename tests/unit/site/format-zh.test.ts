import { describe, expect, test } from "vitest";
import { formatDuration, formatRelative } from "@/lib/site/format";
import { formatDurationIn, formatRelativeIn } from "@/lib/site/format-zh";

describe("durations and relative times in both languages", () => {
  test("English keeps format.ts's wording; Chinese takes the same steps in Chinese units", () => {
    const now = new Date("2026-12-05T12:00:00Z");
    for (const ms of [450, 4_500, 45_000, 600_000, 7_200_000, 5 * 86_400_000]) expect(formatDurationIn("en", ms)).toBe(formatDuration(ms));
    expect([450, 4_500, 45_000, 600_000, 7_200_000, 5 * 86_400_000].map((ms) => formatDurationIn("zh", ms))).toEqual([
      "450 毫秒",
      "4.5 秒",
      "45 秒",
      "10 分钟",
      "2 小时",
      "5 天",
    ]);
    expect(formatRelativeIn("en", "2026-12-05T09:00:00Z", now)).toBe(formatRelative("2026-12-05T09:00:00Z", now));
    expect(formatRelativeIn("zh", "2026-12-05T09:00:00Z", now)).toBe("3 小时前");
    expect(formatRelativeIn("zh", "2026-12-05T15:00:00Z", now)).toBe("3 小时后");
    expect(formatRelativeIn("zh", "2026-12-05T11:59:50Z", now)).toBe("刚刚");
    expect(formatRelativeIn("zh", null, now)).toBe("从未");
  });
});
