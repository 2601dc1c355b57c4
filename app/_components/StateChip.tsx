import type { CheckState, NotCheckedCause } from "@/lib/vocabulary/checks";
import { NOT_CHECKED_CAUSE_LABELS, type Lang } from "@/lib/site/labels";
import { STATE_ICONS, stateLabel } from "@/lib/site/states";

/** A state as icon + words; colour only repeats what the text already says. A Not checked chip also names its kind
 * (credential required, slow down, opted out, …) when the judge stored one. */
export function StateChip({
  state,
  lang = "en",
  prefix,
  cause,
}: {
  state: CheckState | null;
  lang?: Lang;
  prefix?: string;
  cause?: NotCheckedCause | null;
}) {
  const cls = state ? `chip chip-${state}` : "chip chip-none";
  const kind = state === "not_checked" && cause ? NOT_CHECKED_CAUSE_LABELS[lang][cause] : null;
  return (
    <span className={kind ? `${cls} chip-with-kind` : cls}>
      <span className="chip-icon" aria-hidden="true">
        {state ? STATE_ICONS[state] : "·"}
      </span>
      {prefix ? <span className="visually-hidden">{prefix}: </span> : null}
      <span className="chip-label">{stateLabel(state, lang)}</span>
      {kind ? (
        <span className="chip-kind">
          <span className="chip-sep"> · </span>
          {kind}
        </span>
      ) : null}
    </span>
  );
}
