import { describe, expect, test } from "vitest";
import { isSlowDown, rateLimited } from "@/lib/probe/host-gate";

describe("a slow-down, as the probe and the host gate both read it", () => {
  test.each([
    [429, undefined, true],
    [429, "30", true],
    [503, "30", true],
    [503, "Mon, 30 Nov 2026 12:00:30 GMT", true],
    [503, undefined, false],
    [500, "30", false],
    [200, "30", false],
    [undefined, "30", false],
  ])("HTTP %s with Retry-After %j → %s", (status, retryAfter, expected) => {
    expect(isSlowDown(status, retryAfter)).toBe(expected);
  });

  test.each([
    [
      "-32023 with data.retryAfterMs",
      { jsonrpc: "2.0", id: 1, error: { code: -32023, message: "Rate limited", data: { retryAfterMs: 90_500 } } },
      { retryAfterSeconds: 91 },
    ],
    ["-32023 without a wait", { jsonrpc: "2.0", id: 1, error: { code: -32023, message: "Rate limited" } }, {}],
    [
      "-32023 with a wait that is no number",
      { jsonrpc: "2.0", id: 1, error: { code: -32023, message: "x", data: { retryAfterMs: "soon" } } },
      {},
    ],
    ["another error", { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } }, null],
    ["a result", { jsonrpc: "2.0", id: 1, result: {} }, null],
    ["no JSON at all", undefined, null],
  ])("%s", (_name, json, expected) => {
    expect(rateLimited(json)).toEqual(expected);
  });
});
