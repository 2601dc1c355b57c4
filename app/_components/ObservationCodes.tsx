import { Fragment } from "react";
import { OBSERVATION_CODES, type ObservationCode } from "@/lib/vocabulary/checks";
import { observationAnchor } from "@/lib/site/tool-view";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { counted, WORDS } from "@/lib/site/plural";
import { SERVER_TEXT } from "@/lib/site/server-text";
import { Breakable } from "./Breakable";

export type ObservationCount = { code: ObservationCode; count: number };

/** The codes of a latest complete read, each linked to its FAQ row, with "×n" where it was made more than once. */
export function ObservationCodes({ items, lang = "en" }: { items: readonly ObservationCount[]; lang?: Lang }) {
  return (
    <>
      {items.map((o, i) => (
        <Fragment key={o.code}>
          {i > 0 ? SERVER_TEXT[lang].listSep : null}
          <a className="obs-code" href={`${faqPath(lang, "tool-observations")}#${observationAnchor(o.code)}`}>
            <code>
              <Breakable text={o.code} after="_" />
            </code>
          </a>
          {o.count > 1 ? <span className="obs-times"> ×{o.count}</span> : null}
        </Fragment>
      ))}
    </>
  );
}

/** A read's observations as each code with how often it was made, in the codes' order (what the index shows per server). */
export function countByCode(list: readonly { code: ObservationCode }[]): ObservationCount[] {
  const n = new Map<ObservationCode, number>();
  for (const o of list) n.set(o.code, (n.get(o.code) ?? 0) + 1);
  return OBSERVATION_CODES.filter((c) => n.has(c)).map((code) => ({ code, count: n.get(code)! }));
}

export const observationTotal = (items: readonly ObservationCount[]) => items.reduce((n, o) => n + o.count, 0);

/** The server page's line beside its overall state (architecture.md §2.9): how many observations the tool list carries,
 * and which, so they are seen before anyone opens the tools; facts, they move no state. */
export function ObservationsLine({ items, lang = "en" }: { items: readonly ObservationCount[]; lang?: Lang }) {
  if (items.length === 0) return null;
  const t = SERVER_TEXT[lang];
  return (
    <p className="observations-line" id="observations-line">
      <strong>{counted(observationTotal(items), WORDS.observation, lang)}</strong>
      {t.observationsAfter}
      <ObservationCodes items={items} lang={lang} />
      {t.observationsEnd}
      <a href="#tools-content">{t.observationsLink}</a>
    </p>
  );
}
