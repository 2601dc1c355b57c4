import type { CheckState } from "../checks/vocabulary";

// The census groups error_taxonomy results by the shape of the refusal. Results store a state and a
// one-sentence reason, so the kind is read back from those two: state first, then the reason's words.
export const REFUSAL_KINDS = [
  "jsonrpc_invalid_params",
  "jsonrpc_other_code",
  "pre_dispatch",
  "is_error_result",
  "malformed_html",
  "malformed_no_jsonrpc",
  "malformed_empty",
  "malformed_success",
  "malformed_other",
  "withheld",
  "slow_down",
  "not_checked_other",
  "failed",
] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

export const REFUSAL_LABELS: Record<RefusalKind, { label: string; state: CheckState }> = {
  jsonrpc_invalid_params: { label: "JSON-RPC error -32602 (what the spec prescribes)", state: "verified" },
  jsonrpc_other_code: { label: "JSON-RPC error with another code", state: "verified" },
  pre_dispatch: { label: "Bare 401/403 before dispatch", state: "verified" },
  is_error_result: { label: "Tool result with isError: true", state: "verified" },
  malformed_html: { label: "HTML page", state: "observed_risk" },
  malformed_no_jsonrpc: { label: "JSON error without the JSON-RPC envelope", state: "observed_risk" },
  malformed_empty: { label: "Empty body", state: "observed_risk" },
  malformed_success: { label: "Success result for a tool that does not exist", state: "observed_risk" },
  malformed_other: { label: "Other malformed answer", state: "observed_risk" },
  withheld: { label: "Call withheld", state: "not_checked" },
  slow_down: { label: "Asked to slow down", state: "not_checked" },
  not_checked_other: { label: "Not checked for another reason", state: "not_checked" },
  failed: { label: "Call failed (network, timeout)", state: "failed" },
};

export function refusalKind(state: CheckState, reason: string): RefusalKind {
  const r = reason.toLowerCase();
  switch (state) {
    case "verified":
      if (/iserror|tool-error|tool error/.test(r)) return "is_error_result";
      if (/-32602/.test(r)) return "jsonrpc_invalid_params";
      if (/-32\d{3}|json-rpc error|code -?\d+/.test(r)) return "jsonrpc_other_code";
      if (/\b40[13]\b|dispatch|unauthori[sz]ed|forbidden/.test(r)) return "pre_dispatch";
      return "jsonrpc_other_code";
    case "observed_risk":
      if (/html/.test(r)) return "malformed_html";
      if (/empty/.test(r)) return "malformed_empty";
      if (/success|result for a tool|succeeded/.test(r)) return "malformed_success";
      if (/jsonrpc|json-rpc envelope|not json-rpc/.test(r)) return "malformed_no_jsonrpc";
      return "malformed_other";
    case "not_checked":
      if (/slow down|retry-after|\b429\b/.test(r)) return "slow_down";
      if (/withh|reserved|credential|not read|unread|gate/.test(r)) return "withheld";
      return "not_checked_other";
    case "failed":
      return "failed";
  }
}

export function tallyRefusals(rows: readonly { state: CheckState; reason: string; count: number }[]): Map<RefusalKind, number> {
  const out = new Map<RefusalKind, number>();
  for (const row of rows) {
    const k = refusalKind(row.state, row.reason);
    out.set(k, (out.get(k) ?? 0) + Number(row.count));
  }
  return out;
}
