// What pages and the JSON say of the owner's view (architecture.md §11), in both languages. Built from stored codes and
// facts; a configured value is never among them.
import type { ApiShape } from "../api/schemas";
import { overallOf } from "../checks/overall";
import type { OwnerView } from "../store/owners";
import type { CheckId } from "../vocabulary/checks";
import type { OwnerProbeOutcome } from "../vocabulary/owners";
import { STATE_LABELS, type Lang } from "./labels";

const OUTCOME_WORDS: Record<Lang, Record<OwnerProbeOutcome, string>> = {
  en: {
    up: "",
    down: "",
    refused: "the key was refused",
    unreadable: "the configuration cannot be read",
  },
  zh: {
    up: "",
    down: "",
    refused: "密钥被拒绝",
    unreadable: "无法读取配置",
  },
};

/** "With the owner's key: Verified, 14 tools." / "使用所有者的密钥：已通过，14 个工具。" */
export function ownerSummary(lang: Lang, v: Pick<OwnerView, "checks" | "outcome" | "tools">): string {
  const state = overallOf(v.checks)?.state ?? "not_checked";
  const label = STATE_LABELS[lang][state];
  const extra = OUTCOME_WORDS[lang][v.outcome];
  if (lang === "zh") {
    const tools = v.tools !== null ? `，${v.tools} 个工具` : "";
    return `使用所有者的密钥：${label}${tools}${extra ? `（${extra}）` : ""}。`;
  }
  const tools = v.tools !== null ? `, ${v.tools} tool${v.tools === 1 ? "" : "s"}` : "";
  return `With the owner's key: ${label}${tools}${extra ? ` (${extra})` : ""}.`;
}

/** `ownerView` of GET /api/servers/<name> from the stored view; null while there is none. */
export function ownerViewAnswer(v: OwnerView | null): ApiShape<"OwnerView"> | null {
  if (!v) return null;
  const checks: Partial<Record<CheckId, ApiShape<"OwnerView">["checks"]["handshake"]>> = {};
  for (const c of v.checks)
    checks[c.check] = { check: c.check, state: c.state, reason: c.reason, notCheckedCause: c.notCheckedCause ?? null };
  return {
    state: overallOf(v.checks)?.state ?? "not_checked",
    summary: ownerSummary("en", v),
    outcome: v.outcome,
    tools: v.tools,
    checks,
    lastProbedAt: v.lastProbedAt,
    uptime: v.uptime,
    configuredAt: v.configuredAt,
  };
}
