import type { CheckId, CheckState } from "./vocabulary";

/** What one check concluded: a state, one sentence, and pointers into the observation's exchanges. */
export interface CheckResult {
  check: CheckId;
  state: CheckState;
  reason: string;
  /** `seq` numbers of the exchanges this verdict rests on. */
  evidence: number[];
}
