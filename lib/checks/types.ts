import type { Transport } from "../probe/protocol";
import type { CheckId, CheckState, NoFallbackRule, NotCheckedCause, RefusalCode } from "../vocabulary/checks";

// architecture.md §2.8: a hint is stored as its code and facts; lib/checks/hints.ts matches and words it.
/** Where the misconfigured URL sits: the remote itself, or the auth metadata it points to. */
export type HintTarget = "remote" | "metadata";

export type Hint =
  | { code: "invalid_host"; host?: string }
  | { code: "redirect"; from: string; location: string; target: HintTarget }
  | { code: "transport_mismatch"; listed: Transport; speaks: Transport }
  | { code: "tls_expired"; host: string; validTo?: string }
  | { code: "tls_wrong_name"; host: string; names?: string[] }
  | { code: "tls_unknown_issuer"; host: string; errorCode: string; issuer?: string }
  | { code: "connection_refused"; host: string }
  | { code: "name_not_found"; host: string }
  | { code: "not_acceptable"; accept: string }
  | { code: "unsupported_media_type"; contentType: string }
  /** architecture.md §2.6 (0.15.0): refused without the listed headers in a shape a client cannot act on. */
  | { code: "unreadable_refusal"; headers: string[]; status: number };

/** The facts of a hint, without its code: what is stored beside `hint_code`. */
export type HintFacts = Omit<Hint, "code">;

/** What one check concluded: a state, one sentence, and pointers into the observation's exchanges. */
export interface CheckResult {
  check: CheckId;
  state: CheckState;
  reason: string;
  /** `seq` numbers of the exchanges this verdict rests on. */
  evidence: number[];
  /** error_taxonomy only: how the server answered the reserved-tool call. */
  code?: RefusalCode;
  /** architecture.md §2.8: the known misconfiguration the evidence matched, for Failed and Observed risk only, and for a
   * refusal without the listed headers that a client cannot act on (§2.6, 0.15.0). */
  hint?: Hint;
  /** Not checked only: which kind of "not checked" the judge decided on (the index names it). */
  notCheckedCause?: NotCheckedCause;
  /** Failed discovery by a rule that forbids falling back to initialize, with the number behind it: the JSON-RPC
   * error code of a modern decline, the HTTP status of server/discover, none for a discover result of newer revisions. */
  noFallback?: { rule: NoFallbackRule; code: number | null };
}
