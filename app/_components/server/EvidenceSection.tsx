import { CHECK_LABELS, type Lang } from "@/lib/site/labels";
import { checkAnchor } from "@/lib/site/paths";
import type { EvidenceItem } from "@/lib/site/evidence";
import { formatUtc } from "@/lib/site/format";
import { SECTIONS_TEXT, SERVER_TEXT } from "@/lib/site/server-text";
import { ExchangeView } from "../ExchangeView";
import { FoldSection } from "./FoldSection";

/** Every HTTP exchange behind the current verdicts, once, each with its own anchor and curl command. */
export function EvidenceSection({
  items,
  latestRun,
  lang = "en",
}: {
  items: EvidenceItem[];
  latestRun: { id: number; startedAt: string } | null;
  lang?: Lang;
}) {
  const t = SECTIONS_TEXT[lang];
  return (
    <FoldSection id="evidence" headingId="evidence-h" title={t.evidenceH}>
      {items.length === 0 ? (
        <p className="sub">{t.noEvidence}</p>
      ) : (
        <>
          <p className="sub">
            {latestRun ? (
              <>
                {t.evidenceLatest[0]}
                <time dateTime={latestRun.startedAt}>{formatUtc(latestRun.startedAt)}</time>
                {t.evidenceLatest[1]}
                <code>#exchange-&lt;n&gt;</code>
                {t.evidenceLatest[2]}
              </>
            ) : (
              t.evidenceNoRun
            )}
          </p>
          {items.map((item) => (
            <ExchangeView key={item.anchor} exchange={item.exchange} anchor={item.anchor} open={item.open} lang={lang}>
              {item.citedBy.length > 0 ? (
                <p className="sub">
                  {t.citedBy}
                  {lang === "en" ? " " : null}
                  {item.citedBy.map((c, i) => (
                    <span key={c}>
                      {i > 0 ? SERVER_TEXT[lang].listSep : null}
                      <a href={`#${checkAnchor(c)}`}>{CHECK_LABELS[lang][c]}</a>
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
