// The check suite's vocabulary: check ids and states. Wire facts live in lib/probe/protocol.ts, display
// labels in lib/site/labels.ts, the dated rule changes in lib/site/changelog.ts.

export const CHECK_IDS = [
  "handshake",
  "protocol_version",
  "tools_list",
  "error_taxonomy",
  "auth_metadata",
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

export const DISCOVERY_CHECKS = ["handshake", "protocol_version", "tools_list"] as const satisfies readonly CheckId[];

export const CHECK_STATES = ["verified", "failed", "observed_risk", "not_checked"] as const;
export type CheckState = (typeof CHECK_STATES)[number];
