import type { CheckState } from "@/lib/checks/vocabulary";
import type { Lang } from "@/lib/site/labels";
import { STATE_ICONS, stateLabel } from "@/lib/site/states";

/** A state as icon + words; colour only repeats what the text already says. */
export function StateChip({ state, lang = "en", prefix }: { state: CheckState | null; lang?: Lang; prefix?: string }) {
  const cls = state ? `chip chip-${state}` : "chip chip-none";
  return (
    <span className={cls}>
      <span className="chip-icon" aria-hidden="true">
        {state ? STATE_ICONS[state] : "·"}
      </span>
      {prefix ? <span className="visually-hidden">{prefix}: </span> : null}
      {stateLabel(state, lang)}
    </span>
  );
}
