import type { CheckId, CheckState } from "../checks/vocabulary";
import type { AlertKind, CrossReadOutcome } from "../store/vocabulary";

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
};

export const CROSS_READ_LABELS: Record<CrossReadOutcome, string> = {
  agreed: "Agreed",
  disagreed: "Disagreed",
  only_probe: "Only the probe read it",
  only_cross_reader: "Only the cross-reader read it",
  neither: "Neither could read it",
};
