import { describe, expect, test } from "vitest";
import { formatDuration, formatRelative } from "@/lib/site/format";
import { COVERAGE_TEXT, durationIn, relativeIn } from "@/lib/site/list-text";

describe("list-page words in both languages", () => {
  test("durations and relative times keep the English wording and read in Chinese under zh", () => {
    const now = new Date("2026-12-05T12:00:00Z");
    for (const ms of [450, 4_500, 600_000, 7_200_000, 5 * 86_400_000]) expect(durationIn("en", ms)).toBe(formatDuration(ms));
    expect(durationIn("zh", 7_200_000)).toBe("2 小时");
    expect(durationIn("zh", 5 * 86_400_000)).toBe("5 天");
    expect(relativeIn("en", "2026-12-05T09:00:00Z", now)).toBe(formatRelative("2026-12-05T09:00:00Z", now));
    expect(relativeIn("zh", "2026-12-05T09:00:00Z", now)).toBe("3 小时前");
    expect(relativeIn("zh", "2026-12-05T11:59:50Z", now)).toBe("刚刚");
  });

  test("the Chinese cross-read explanations come from the same codes as the English", () => {
    expect(COVERAGE_TEXT.en.explanation("discover_server_error", 500)).toBe(
      "modern clients fail here because server/discover answered HTTP 500",
    );
    expect(COVERAGE_TEXT.zh.explanation("discover_server_error", 500)).toBe("新版客户端在这里会失败，因为 server/discover 回应了 HTTP 500");
    expect(COVERAGE_TEXT.zh.explanation("initialize_refused", -32601)).toContain("-32601");
  });
});
