import type { Hint } from "./hints";
import type { CheckId, CheckState, RefusalCode } from "./vocabulary";

/** What one check concluded: a state, one sentence, and pointers into the observation's exchanges. */
export interface CheckResult {
  check: CheckId;
  state: CheckState;
  reason: string;
  /** `seq` numbers of the exchanges this verdict rests on. */
  evidence: number[];
  /** error_taxonomy only: how the server answered the reserved-tool call. */
  code?: RefusalCode;
  /** DESIGN §2.8: the known misconfiguration the evidence matched, for Failed and Observed risk only. */
  hint?: Hint;
}
