// The check suite's vocabulary: check ids and states. Wire facts live in lib/probe/protocol.ts, display
// labels in lib/site/labels.ts, the dated rule changes in lib/site/changelog.ts.

export const CHECK_IDS = ["handshake", "protocol_version", "tools_list", "error_taxonomy", "auth_metadata"] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export const DISCOVERY_CHECKS = ["handshake", "protocol_version", "tools_list"] as const satisfies readonly CheckId[];

export const CHECK_STATES = ["verified", "failed", "observed_risk", "not_checked"] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** How a server answered the reserved-tool call (error_taxonomy), stored beside the reason so the census
 * counts codes, never sentences. Which state each code gets is in lib/checks/refusal.ts. */
export const REFUSAL_CODES = [
  "jsonrpc_invalid_params",
  "jsonrpc_other_code",
  "pre_dispatch_refusal",
  "is_error_result",
  "malformed_html",
  "malformed_no_jsonrpc",
  "malformed_empty",
  "malformed_success",
  "malformed_other",
  "no_answer",
  "withheld",
  "slow_down",
  "deadline",
  "not_probed",
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/**
 * Known misconfigurations a Failed or Observed-risk verdict's evidence can match exactly (architecture.md §2.8, suite
 * 0.13.0). Stored beside the result with the facts behind it; lib/checks/hints.ts renders the sentence.
 */
export const HINT_CODES = [
  "invalid_host",
  "redirect",
  "transport_mismatch",
  "tls_expired",
  "tls_wrong_name",
  "tls_unknown_issuer",
  "connection_refused",
  "name_not_found",
  "not_acceptable",
  "unsupported_media_type",
  "unreadable_refusal",
] as const;
export type HintCode = (typeof HINT_CODES)[number];
/** Why a check is Not checked, stored beside the reason (the judge's own decision, never read back from the
 * sentence): the index names the kind, the overall state carries the first discovery check's. */
export const NOT_CHECKED_CAUSES = [
  "credential_required",
  "slow_down",
  "opted_out",
  "needs_configuration",
  "withheld",
  "probe_network",
  "address_policy",
  "invalid_url",
  "no_challenge",
  "no_metadata_url",
  "deadline",
  "not_reached",
] as const;
export type NotCheckedCause = (typeof NOT_CHECKED_CAUSES)[number];

/** The rules that end discovery with no fallback to initialize (architecture.md §2.1 steps 3, 7 and 11): what a legacy client
 * ignores and a modern one obeys, so a cross-reader that read the server anyway is an explained difference (§6). */
export const NO_FALLBACK_RULES = ["modern_declined", "discover_server_error", "discover_redirect", "newer_revisions_only"] as const;
export type NoFallbackRule = (typeof NO_FALLBACK_RULES)[number];

/**
 * Observations on tool definitions (architecture.md §2.9, suite 0.14.0): facts about the tool list as received, never a
 * verdict; they move no state. One code per exact definition in lib/checks/observations.ts, in three families.
 */
export const OBSERVATION_CODES = [
  "hidden_tag_characters",
  "bidi_controls",
  "invisible_characters",
  "variation_selector_run",
  "control_characters",
  "conceals_from_user",
  "overrides_instructions",
  "secret_file_handoff",
  "base64_text",
  "tool_name_format",
  "duplicate_tool_name",
  "annotation_contradiction",
  "annotation_not_boolean",
] as const;
export type ObservationCode = (typeof OBSERVATION_CODES)[number];

/**
 * Reach (architecture.md §2.6, suite 0.15.0): what became of a server whose registry entry needs configuration when it
 * was probed anonymously, without the headers the registry lists. `not_needed`: the entry needs nothing; `answered`: the
 * handshake completed without them; `refused`: an HTTP answer that was not the handshake (4xx, 5xx, a JSON-RPC error, a
 * page); `gated`: a 401 with a valid challenge; `unreachable`: no HTTP answer at all; `no_address`: a URL variable with
 * no default, so nothing was sent.
 */
export const REACHES = ["not_needed", "answered", "refused", "gated", "unreachable", "no_address"] as const;
export type Reach = (typeof REACHES)[number];

/** How a refusal without the listed headers was shaped: a well-formed JSON-RPC error, a bare 401 or 403 (body aside), or
 * something a client cannot act on (an HTML page, a 5xx, JSON that is not JSON-RPC). */
export const REACH_REFUSAL_SHAPES = ["jsonrpc_error", "bare_status", "malformed"] as const;
export type ReachRefusalShape = (typeof REACH_REFUSAL_SHAPES)[number];
