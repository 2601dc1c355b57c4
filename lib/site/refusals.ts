import { REFUSAL_CODES, type RefusalCode } from "../vocabulary/checks";

// The census groups error_taxonomy results by the refusal code the judge stored with each; the reason
// sentence stays free text.

export const REFUSAL_LABELS: Record<RefusalCode, string> = {
  jsonrpc_invalid_params: "JSON-RPC error -32602 (what the spec prescribes)",
  jsonrpc_other_code: "JSON-RPC error with another code",
  pre_dispatch_refusal: "Bare 401/403 before dispatch",
  is_error_result: "Tool result with isError: true",
  malformed_html: "HTML page",
  malformed_no_jsonrpc: "JSON error without the JSON-RPC envelope",
  malformed_empty: "Empty body",
  malformed_success: "Success result for a tool that does not exist",
  malformed_other: "Other malformed answer",
  no_answer: "No readable answer (network, timeout)",
  withheld: "Call withheld",
  slow_down: "Asked to slow down",
  deadline: "Probe's deadline ran out first",
  not_probed: "Not probed (opted out, needs configuration)",
};

export interface RefusalTally {
  /** Servers per code, in REFUSAL_CODES order, codes with no server left out. */
  byCode: [RefusalCode, number][];
  total: number;
  /** Results stored before refusal codes were; counted once their server is probed again. */
  uncoded: number;
}

export function tallyRefusals(rows: readonly { code: RefusalCode | null; count: number }[]): RefusalTally {
  const counts = new Map<RefusalCode, number>();
  let uncoded = 0;
  for (const r of rows) {
    if (r.code === null) uncoded += Number(r.count);
    else counts.set(r.code, (counts.get(r.code) ?? 0) + Number(r.count));
  }
  const byCode = REFUSAL_CODES.filter((c) => counts.has(c)).map((c): [RefusalCode, number] => [c, counts.get(c)!]);
  return { byCode, total: byCode.reduce((n, [, c]) => n + c, 0), uncoded };
}
