import type { CheckId, CheckState, NotCheckedCause } from "../vocabulary/checks";
import type { AlertKind, CrossReadOutcome, ServerSort, SortOrder } from "../vocabulary/store";

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

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  coverage_drop: "Coverage dropped",
  rounds_stale: "Rounds are stale",
  cross_read: "Cross-reader disagrees",
  probe_network: "The probe's own network is failing",
  region_down: "A probing region is down",
  database_unwritable: "The database cannot be written",
  notifications_failing: "Notifications are late",
};

export const CROSS_READ_LABELS: Record<CrossReadOutcome, string> = {
  agreed: "Agreed",
  disagreed: "Disagreed",
  only_probe: "Only the probe read it",
  only_cross_reader: "Only the cross-reader read it",
  neither: "Neither could read it",
};

/** The kind of a Not checked verdict, as the chips and the overall headline name it. */
export const NOT_CHECKED_CAUSE_LABELS: Record<Lang, Record<NotCheckedCause, string>> = {
  en: {
    credential_required: "credential required",
    slow_down: "slow down",
    opted_out: "opted out",
    needs_configuration: "needs configuration",
    withheld: "withheld",
    probe_network: "probe's network",
    address_policy: "private address",
    invalid_url: "invalid URL",
    no_challenge: "no challenge",
    no_metadata_url: "no metadata URL",
    deadline: "probe's deadline",
    not_reached: "not reached",
  },
  zh: {
    credential_required: "需要凭据",
    slow_down: "被要求放慢",
    opted_out: "已退出探测",
    needs_configuration: "需要配置",
    withheld: "有意不发",
    probe_network: "探测器网络故障",
    address_policy: "私有地址",
    invalid_url: "URL 无效",
    no_challenge: "没有质询",
    no_metadata_url: "没有元数据 URL",
    deadline: "探测器时限",
    not_reached: "未走到这一步",
  },
};

/** The index's sort choices. */
export const SORT_LABELS: Record<ServerSort, string> = {
  name: "Name",
  overall: "Overall state",
  last_probed: "Last probed",
};

/** How each sort reads in each direction. */
export const SORT_ORDER_WORDS: Record<ServerSort, Record<SortOrder, string>> = {
  name: { asc: "A to Z", desc: "Z to A" },
  overall: { asc: "worst first", desc: "best first" },
  last_probed: { asc: "oldest first", desc: "latest first" },
};
