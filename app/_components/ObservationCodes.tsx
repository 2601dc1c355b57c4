import { Fragment } from "react";
import { OBSERVATION_CODES, type ObservationCode } from "@/lib/vocabulary/checks";
import { observationAnchor } from "@/lib/site/tool-view";
import { counted, WORDS } from "@/lib/site/plural";
import { Breakable } from "./Breakable";

export type ObservationCount = { code: ObservationCode; count: number };

/** The codes of a latest complete read, each linked to its FAQ row, with "×n" where it was made more than once. */
export function ObservationCodes({ items }: { items: readonly ObservationCount[] }) {
  return (
    <>
      {items.map((o, i) => (
        <Fragment key={o.code}>
          {i > 0 ? ", " : null}
          <a className="obs-code" href={`/faq/tool-observations#${observationAnchor(o.code)}`}>
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
export function ObservationsLine({ items }: { items: readonly ObservationCount[] }) {
  if (items.length === 0) return null;
  return (
    <p className="observations-line" id="observations-line">
      <strong>{counted(observationTotal(items), WORDS.observation)}</strong> on the tool definitions (facts, not verdicts):{" "}
      <ObservationCodes items={items} />. <a href="#tools-content">See them beside their tools</a>
    </p>
  );
}
