import Link from "next/link";
import type { CheckId } from "@/lib/vocabulary/checks";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { formatUtc } from "@/lib/site/format";
import { CHECK_LABELS, type Lang } from "@/lib/site/labels";
import { checkAnchor, faqPath } from "@/lib/site/paths";
import { SERVER_TEXT } from "@/lib/site/server-text";
import type { CheckResultRow, TransitionRow } from "@/lib/store/runs";
import { StackTable } from "../StackTable";
import { StateChip } from "../StateChip";
import { CheckHint } from "./CheckHint";
import { reasonAfterChip } from "@/lib/site/states";

function SuiteVersion({ version, lang }: { version: string; lang: Lang }) {
  if (version === SUITE_VERSION) return <>{version}</>;
  const t = SERVER_TEXT[lang];
  return (
    <>
      {version}
      {t.currentSuite(SUITE_VERSION)}
      <Link href={faqPath(lang, "changelog")}>{t.ruleChanges}</Link>
      {t.currentSuiteEnd}
    </>
  );
}

/** Links to the exchanges a verdict cites, which the evidence section shows once for the whole page. */
function Cited({ cites, cited, lang }: { cites: { seq: number; anchor: string | null }[]; cited: number; lang: Lang }) {
  const t = SERVER_TEXT[lang];
  if (cited === 0) return <p className="sub">{t.noExchange}</p>;
  const kept = cites.filter((c) => c.anchor !== null);
  if (kept.length === 0) return <p className="sub">{t.notKept}</p>;
  return (
    <p className="cites">
      {t.evidenceLead}
      {lang === "en" ? " " : null}
      {kept.map((c, i) => (
        <span key={c.seq}>
          {i > 0 ? t.listSep : null}
          <a href={`#${c.anchor}`}>{t.exchangeN(c.seq)}</a>
        </span>
      ))}
    </p>
  );
}

function TransitionTable({ history, lang }: { history: TransitionRow[]; lang: Lang }) {
  const t = SERVER_TEXT[lang];
  if (history.length === 0) return <p className="sub">{t.noTransitions}</p>;
  return (
    <StackTable
      columns={[
        { label: t.colWhen, cell: (h) => <time dateTime={h.at}>{formatUtc(h.at)}</time> },
        { label: t.colFrom, cell: (h) => (h.fromState ? <StateChip state={h.fromState} lang={lang} /> : t.firstResult) },
        { label: t.colTo, cell: (h) => <StateChip state={h.toState} lang={lang} /> },
        { label: t.colReason, cellProps: () => ({ lang: lang === "en" ? undefined : "en" }), cell: (h) => h.reason },
        { label: t.colSuite, cell: (h) => h.suiteVersion },
      ]}
      rows={history}
      rowKey={(h, i) => `${h.at}-${i}`}
    />
  );
}

/** One check: state, reason, when it was decided, links to its evidence, and its state changes. */
export function CheckCard({
  id,
  check,
  cites,
  history,
  lang = "en",
}: {
  id: CheckId;
  check: CheckResultRow | undefined;
  cites: { seq: number; anchor: string | null }[];
  history: TransitionRow[];
  /** Unused: the reason is said once, at the top of the page (kept until the page stops passing it). */
  overallReason?: string | null;
  lang?: Lang;
}) {
  const anchor = checkAnchor(id);
  const t = SERVER_TEXT[lang];
  return (
    <section className="check" id={anchor} aria-labelledby={`${anchor}-h`}>
      <h3 id={`${anchor}-h`}>
        <a href={`#${anchor}`}>{CHECK_LABELS[lang][id]}</a>
        <StateChip state={check?.state ?? null} cause={check?.notCheckedCause} lang={lang} />
      </h3>
      {check ? (
        <>
          {/* Said at the top of the page, in the overall line or the table of checks; shown here too only when a link
              lands on this check (#check-<id>, as the feeds link), so that place reads on its own. */}
          <div className="check-why">
            <p className="reason" lang={lang === "en" ? undefined : "en"}>
              {reasonAfterChip(check.reason, check.state, check.notCheckedCause)}
            </p>
            <CheckHint hint={check.hint} lang={lang} />
          </div>
          <dl className="facts">
            <dt>{t.decided}</dt>
            <dd>
              <time dateTime={check.decidedAt}>{formatUtc(check.decidedAt)}</time>
            </dd>
            <dt>{t.inStateSince}</dt>
            <dd>
              <time dateTime={check.since}>{formatUtc(check.since)}</time>
            </dd>
            <dt>{t.suiteVersion}</dt>
            <dd>
              <SuiteVersion version={check.suiteVersion} lang={lang} />
            </dd>
          </dl>
          <Cited cites={cites} cited={check.evidence.length} lang={lang} />
        </>
      ) : (
        <p>{t.notEvaluatedCard}</p>
      )}
      <details className="check-history">
        <summary>
          <h4>{t.historyH}</h4>
          <span className="sub fold-note">{t.stateChanges(history.length)}</span>
        </summary>
        <TransitionTable history={history} lang={lang} />
      </details>
    </section>
  );
}
