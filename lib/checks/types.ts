import type { Hint } from "./hints";
import type { CheckId, CheckState, NoFallbackRule, NotCheckedCause, RefusalCode } from "./vocabulary";

/** What one check concluded: a state, one sentence, and pointers into the observation's exchanges. */
export interface CheckResult {
  check: CheckId;
  state: CheckState;
  reason: string;
  /** `seq` numbers of the exchanges this verdict rests on. */
  evidence: number[];
  /** error_taxonomy only: how the server answered the reserved-tool call. */
  code?: RefusalCode;
  /** architecture.md §2.8: the known misconfiguration the evidence matched, for Failed and Observed risk only. */
  hint?: Hint;
  /** Not checked only: which kind of "not checked" the judge decided on (the index names it). */
  notCheckedCause?: NotCheckedCause;
  /** Failed discovery by a rule that forbids falling back to initialize, with the number behind it: the JSON-RPC
   * error code of a modern decline, the HTTP status of server/discover, none for a discover result of newer revisions. */
  noFallback?: { rule: NoFallbackRule; code: number | null };
}
