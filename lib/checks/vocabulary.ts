// The one source for every vocabulary the suite speaks: ids, states, labels, version.
export const SUITE_VERSION = "0.11.0";

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

export const ERAS = ["modern", "legacy", "unknown"] as const;
export type Era = (typeof ERAS)[number];

export const TRANSPORTS = ["streamable-http", "sse"] as const;
export type Transport = (typeof TRANSPORTS)[number];

export const MODERN_REVISION = "2026-07-28";
export const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
/** Revisions this prober speaks, newest first. */
export const KNOWN_REVISIONS = [MODERN_REVISION, ...LEGACY_REVISIONS] as const;

/** Where an opt-out came from: an operator's command, or the host's own robots.txt. */
export const OPT_OUT_SOURCES = ["operator", "robots"] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** How a tool definition changed between two complete lists. */
export const TOOL_CHANGE_KINDS = ["added", "removed", "changed"] as const;
export type ToolChangeKind = (typeof TOOL_CHANGE_KINDS)[number];

export const RESERVED_TOOL_NAME = "mcp_status_probe_no_such_tool";

export type Lang = "en" | "zh";

export const STATE_LABELS: Record<Lang, Record<CheckState, string>> = {
  en: { verified: "Verified", failed: "Failed", observed_risk: "Observed risk", not_checked: "Not checked" },
  zh: { verified: "已通过", failed: "未通过", observed_risk: "观察到风险", not_checked: "未检查" },
};

export const CHECK_LABELS: Record<Lang, Record<CheckId, string>> = {
  en: {
    handshake: "Handshake",
    protocol_version: "Protocol version",
    tools_list: "Tool list",
    error_taxonomy: "Error taxonomy",
    auth_metadata: "Auth metadata",
  },
  zh: {
    handshake: "握手",
    protocol_version: "协议版本",
    tools_list: "工具列表",
    error_taxonomy: "错误分类",
    auth_metadata: "鉴权元数据",
  },
};

/** Rule changes, newest first; the site's changelog and FAQ notes read this. `version` is null for
 * changes that shipped without a version bump of their own. */
export const SUITE_CHANGELOG: readonly { version: string | null; date: string; en: string; zh: string }[] = [
  {
    version: "0.11.0",
    date: "2026-10-06",
    en: "A metadata URL on another host that asked not to be probed is not fetched; auth_metadata is Not checked with that reason.",
    zh: "质询指向的元数据 URL 若位于已要求停止探测的其他主机上，不再抓取；auth_metadata 记为未检查并写明原因。",
  },
  {
    version: "0.10.0",
    date: "2026-10-01",
    en: "A 2xx answer to server/discover that is neither a discover result nor -32020/-32021/-32022 now falls back to initialize.",
    zh: "server/discover 得到既不是发现结果、也不是 -32020/-32021/-32022 的 2xx 响应时，改为回退到 initialize。",
  },
  {
    version: null,
    date: "2026-09-26",
    en: "The reserved-tool call is also withheld when the handshake or tool list is stopped by a credential gate; auth_metadata then reads the gate's own challenge.",
    zh: "握手或工具列表被凭据门控挡住时，同样扣下保留工具调用；auth_metadata 改读门控本身的质询。",
  },
  {
    version: null,
    date: "2026-09-23",
    en: "The reserved-tool call is withheld when the tool list could not be read, pages remain unread, or the list contains the reserved name.",
    zh: "读不到工具列表、列表还有未读页，或列表含保留名时，扣下保留工具调用。",
  },
];
