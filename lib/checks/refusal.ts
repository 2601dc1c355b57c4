import type { ProbeObservation } from "../probe/types";
import type { CheckState, RefusalCode } from "../vocabulary/checks";

// The error_taxonomy judge's decision as a code: the same branches as judgeErrorTaxonomy, so the census
// counts what the judge saw. The zoo harness checks on every case that the code's state is the judged one.

/** The state each refusal code is judged (architecture.md §2.3). */
export const REFUSAL_STATES: Record<RefusalCode, CheckState> = {
  jsonrpc_invalid_params: "verified",
  jsonrpc_other_code: "verified",
  pre_dispatch_refusal: "verified",
  is_error_result: "verified",
  malformed_html: "observed_risk",
  malformed_no_jsonrpc: "observed_risk",
  malformed_empty: "observed_risk",
  malformed_success: "observed_risk",
  malformed_other: "observed_risk",
  no_answer: "observed_risk",
  withheld: "not_checked",
  slow_down: "not_checked",
  deadline: "not_checked",
  not_probed: "not_checked",
};

export function refusalCode(obs: ProbeObservation): RefusalCode {
  if (obs.blocked) return "not_probed";
  const c = obs.toolCall;
  if (!c) return obs.slowDown ? "slow_down" : "withheld";
  switch (c.kind) {
    case "withheld":
      return obs.slowDown && c.cause === "slow_down" ? "slow_down" : "withheld";
    case "slow_down":
      return "slow_down";
    case "failed":
      return obs.deadlineHit ? "deadline" : "no_answer";
    case "answered":
      switch (c.shape.type) {
        case "jsonrpc_error":
          return c.shape.code === -32602 ? "jsonrpc_invalid_params" : "jsonrpc_other_code";
        case "pre_dispatch_refusal":
        case "is_error_result":
          return c.shape.type;
        case "malformed":
          return `malformed_${c.shape.form}`;
      }
  }
}
