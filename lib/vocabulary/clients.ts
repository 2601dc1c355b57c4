// Which clients can connect (architecture.md §2.10, suite 0.15.0): the two kinds of client, the states each can be in,
// and the codes a verdict is stored as. Sentences are rendered from these by lib/checks/clients.ts and lib/site/clients.ts.

/** Clients that send `initialize` first and never `server/discover`; clients that send `server/discover` first and fall
 * back once. The field names of `clients` in the JSON. */
export const CLIENT_KINDS = ["initializeFirst", "discoverFirst"] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const INITIALIZE_FIRST_STATES = ["yes", "no", "unknown"] as const;
export type InitializeFirstState = (typeof INITIALIZE_FIRST_STATES)[number];

/** `yes_after_fallback`: a legacy server, reached after the one fallback to `initialize`. */
export const DISCOVER_FIRST_STATES = ["yes", "yes_after_fallback", "no", "unknown"] as const;
export type DiscoverFirstState = (typeof DISCOVER_FIRST_STATES)[number];

/**
 * Why a kind of client got its state, stored beside it with the facts (the answer's status and JSON-RPC code):
 * - `read`: the handshake completed and the first tools/list page was read;
 * - `refused`: an answer a client cannot get past (an error, an HTTP refusal, a body that is not the result);
 * - `no_common_revision`: the server answered with revisions the client does not speak;
 * - `declined`: server/discover declined with -32020/-32021/-32022 (no fallback);
 * - `credential_required`, `slow_down`, `deadline`, `no_answer` (no HTTP answer): not decidable;
 * - `not_tried`: the probe never sent what this kind of client sends first;
 * - `not_probed`: nothing was sent (opted out, needs configuration, an invalid URL, the probe's own network).
 */
export const CLIENT_REASON_CODES = [
  "read",
  "refused",
  "no_common_revision",
  "declined",
  "credential_required",
  "slow_down",
  "deadline",
  "no_answer",
  "not_tried",
  "not_probed",
] as const;
export type ClientReasonCode = (typeof CLIENT_REASON_CODES)[number];
