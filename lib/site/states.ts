import type { CheckState, NotCheckedCause } from "../vocabulary/checks";
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

// The words a judge's reason opens with when they name its kind of Not checked (lib/checks/reasons.ts). After a chip that
// shows the kind ("Not checked · credential required") the page drops them, so the kind is said once.
const KIND_OPENINGS: Record<NotCheckedCause, string | null> = {
  credential_required: "Credential required: ",
  slow_down: "Asked to slow down: ",
  needs_configuration: "Not probed: ",
  address_policy: "Not probed: ",
  invalid_url: "Not probed: ",
  probe_network: "Not checked: ",
  opted_out: null,
  withheld: null,
  no_challenge: null,
  no_metadata_url: null,
  deadline: null,
  not_reached: null,
};

/** A reason as it reads after its state chip: "Credential required: initialize got 401 …" → "initialize got 401 …" when the
 * chip already says "credential required"; any other reason unchanged. */
export function reasonAfterChip(reason: string, state: CheckState | null | undefined, cause: NotCheckedCause | null | undefined): string {
  const opening = state === "not_checked" && cause ? KIND_OPENINGS[cause] : null;
  if (!opening || !reason.startsWith(opening) || reason.length === opening.length) return reason;
  const rest = reason.slice(opening.length);
  // A method name keeps its case, as reasons that start with one do ("initialize answered …", "server/discover …").
  return /^(initialize\b|[a-z]+\/)/.test(rest) ? rest : rest[0]!.toUpperCase() + rest.slice(1);
}
