import { describe, expect, test } from "vitest";
import type { RefusalCode } from "@/lib/vocabulary/checks";
import { runZooCase } from "../zoo/harness";

// The census counts these codes, so each refusal shape in the zoo must land on its own code.
const CASES: [string, RefusalCode][] = [
  ["refusal-invalid-params-sse", "jsonrpc_invalid_params"],
  ["refusal-method-not-found", "jsonrpc_other_code"],
  ["refusal-bare-403", "pre_dispatch_refusal"],
  ["refusal-is-error-result", "is_error_result"],
  ["refusal-html-page", "malformed_html"],
  ["refusal-error-without-jsonrpc", "malformed_no_jsonrpc"],
  ["refusal-empty-body", "malformed_empty"],
  ["refusal-success-for-unknown-tool", "malformed_success"],
  ["refusal-500-stack-trace", "malformed_other"],
  ["credential-gate-valid-prm", "withheld"],
];

describe.concurrent("refusal codes over the zoo", () => {
  test.each(CASES)("%s → %s", async (name, code) => {
    const run = await runZooCase(name);
    expect(run.results.find((r) => r.check === "error_taxonomy")?.code).toBe(code);
  });
});
