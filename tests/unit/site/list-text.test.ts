import { describe, expect, test } from "vitest";
import { COVERAGE_TEXT } from "@/lib/site/list-text";

describe("list-page words in both languages", () => {
  test("the Chinese cross-read explanations come from the same codes as the English", () => {
    expect(COVERAGE_TEXT.en.explanation("discover_server_error", 500)).toBe(
      "modern clients fail here because server/discover answered HTTP 500",
    );
    expect(COVERAGE_TEXT.zh.explanation("discover_server_error", 500)).toBe("新版客户端在这里会失败，因为 server/discover 回应了 HTTP 500");
    expect(COVERAGE_TEXT.zh.explanation("initialize_refused", -32601)).toContain("-32601");
  });
});
