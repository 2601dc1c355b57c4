import { CHECK_LABELS } from "@/lib/site/labels";
import { checkAnchor } from "@/lib/site/paths";
import type { EvidenceItem } from "@/lib/site/evidence";
import { formatUtc } from "@/lib/site/format";
import { ExchangeView } from "../ExchangeView";
import { FoldSection } from "./FoldSection";

/** Every HTTP exchange behind the current verdicts, once, each with its own anchor and curl command. */
export function EvidenceSection({ items, latestRun }: { items: EvidenceItem[]; latestRun: { id: number; startedAt: string } | null }) {
  return (
    <FoldSection id="evidence" headingId="evidence-h" title="Evidence">
      {items.length === 0 ? (
        <p className="sub">No HTTP exchange is kept for the current verdicts.</p>
      ) : (
        <>
          <p className="sub">
            {latestRun ? (
              <>
                The requests of the latest probe (<time dateTime={latestRun.startedAt}>{formatUtc(latestRun.startedAt)}</time>), in the
                order they were sent. Each one links as <code>#exchange-&lt;n&gt;</code> and comes with a curl command that sends it again.
              </>
            ) : (
              "The requests behind the current verdicts, in the order they were sent."
            )}
          </p>
          {items.map((item) => (
            <ExchangeView key={item.anchor} exchange={item.exchange} anchor={item.anchor} open={item.open}>
              {item.citedBy.length > 0 ? (
                <p className="sub">
                  Cited by:{" "}
                  {item.citedBy.map((c, i) => (
                    <span key={c}>
                      {i > 0 ? ", " : null}
                      <a href={`#${checkAnchor(c)}`}>{CHECK_LABELS.en[c]}</a>
                    </span>
                  ))}
                </p>
              ) : null}
            </ExchangeView>
          ))}
        </>
      )}
    </FoldSection>
  );
}
