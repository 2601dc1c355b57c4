import { CHECK_STATES, type CheckId, type CheckState } from "../checks/vocabulary";
import { STATE_LABELS, type Lang } from "./labels";

/** A shape per state so no state is told by colour alone; the label always sits beside it. */
export const STATE_ICONS: Record<CheckState, string> = {
  verified: "✓",
  failed: "✕",
  observed_risk: "▲",
  not_checked: "○",
};

/** Worst first: the order an overall summary picks from. */
const SEVERITY: readonly CheckState[] = ["failed", "observed_risk", "verified", "not_checked"];

export function isCheckState(v: unknown): v is CheckState {
  return typeof v === "string" && (CHECK_STATES as readonly string[]).includes(v);
}

/** One state for a whole server: any failure, else any risk, else verified if anything was, else not checked. */
export function overallState(states: Partial<Record<CheckId, CheckState | null | undefined>>): CheckState | null {
  const present = Object.values(states).filter(isCheckState);
  if (present.length === 0) return null;
  return SEVERITY.find((s) => present.includes(s)) ?? null;
}

export function stateLabel(state: CheckState | null | undefined, lang: Lang = "en"): string {
  if (!state) return lang === "en" ? "Not probed yet" : "尚未探测";
  return STATE_LABELS[lang][state];
}
