// The names of owners' claims and the owner's view (architecture.md §11): stored in the database, answered by the API,
// shown on the claim and manage pages. Added to, never renamed.

/** Where a claim stands: waiting for its proof, verified (its manage link works), or lapsed (its proof was gone twice in a
 * row at the weekly re-check, or the owner gave it up; its configuration is deleted with it). */
export const CLAIM_STATES = ["pending", "verified", "lapsed"] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

/** Why a claim could not be made or verified: the API's `error` codes (422 for a proof, 4xx otherwise). */
export const CLAIM_ERRORS = [
  "proof_not_found",
  "proof_mismatch",
  "proof_redirected",
  "proof_unreachable",
  "opted_out",
  "address_not_allowed",
  "no_remote",
  "unknown_server",
  "unknown_claim",
  "claim_lapsed",
  "rate_limited",
  "owners_disabled",
  "variable_host",
] as const;
export type ClaimError = (typeof CLAIM_ERRORS)[number];

/** Why a configuration was refused (PUT /api/owners/<token>/configuration, 400). */
export const CONFIGURATION_ERRORS = [
  "invalid_configuration",
  "header_not_listed",
  "invalid_header_name",
  "invalid_value",
  "value_too_long",
  "unknown_owner",
  "rate_limited",
  "owners_disabled",
  "variable_not_listed",
  "variable_missing",
] as const;
export type ConfigurationError = (typeof CONFIGURATION_ERRORS)[number];

/** The most bytes one configured value may have (UTF-8). */
export const OWNER_VALUE_MAX_BYTES = 8 * 1024;

/** What one owner's-view probe came to, as its uptime counts it: `up` when the handshake completed with the owner's values,
 * `down` when it reached the server and failed, `refused` when the owner's values were refused (401 or 403: the owner's
 * trouble, never the server's), `unreadable` when the stored configuration could not be decrypted (another SECRETS_KEY). */
export const OWNER_PROBE_OUTCOMES = ["up", "down", "refused", "unreadable"] as const;
export type OwnerProbeOutcome = (typeof OWNER_PROBE_OUTCOMES)[number];

/** What is stored of a configured value: a header sent with the owner's probe, or a URL variable. */
export const OWNER_SECRET_KINDS = ["header", "variable"] as const;
export type OwnerSecretKind = (typeof OWNER_SECRET_KINDS)[number];

/** What stands in for a configured value in everything stored or shown (exchanges, evidence, curl lines). */
export const REDACTED = "‹redacted›";

/** What the sign-up limits count for owners: claims made and tokens that named nothing (guesses), per client address. */
export const OWNER_LIMIT_SCOPES = ["claim", "token_guess"] as const;
export type OwnerLimitScope = (typeof OWNER_LIMIT_SCOPES)[number];

/** The proof file's path on the probed remote's origin. */
export const CLAIM_PROOF_PATH = "/.well-known/mcp-status-claim";
