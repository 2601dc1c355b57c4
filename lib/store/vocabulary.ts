// Kinds the store records besides check verdicts.

/** Where an opt-out came from: an operator's command, or the host's own robots.txt. */
export const OPT_OUT_SOURCES = ["operator", "robots"] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** How a tool definition changed between two complete lists. */
export const TOOL_CHANGE_KINDS = ["added", "removed", "changed"] as const;
export type ToolChangeKind = (typeof TOOL_CHANGE_KINDS)[number];
