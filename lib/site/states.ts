import type { CheckState } from "../vocabulary/checks";
import { STATE_LABELS, type Lang } from "./labels";

/** A shape per state so no state is told by colour alone; the label always sits beside it. */
export const STATE_ICONS: Record<CheckState, string> = {
  verified: "✓",
  failed: "✕",
  observed_risk: "▲",
  not_checked: "○",
};

export function stateLabel(state: CheckState | null | undefined, lang: Lang = "en"): string {
  if (!state) return lang === "en" ? "Not probed yet" : "尚未探测";
  return STATE_LABELS[lang][state];
}
