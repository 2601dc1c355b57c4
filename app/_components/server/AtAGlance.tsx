import Link from "next/link";
import type { Overall } from "@/lib/checks/overall";
import { CHECK_IDS, type CheckId } from "@/lib/vocabulary/checks";
import { localePath } from "@/lib/site/chrome";
import { CHECK_LABELS, type Lang } from "@/lib/site/labels";
import { crossReadSentenceIn, SERVER_TEXT } from "@/lib/site/server-text";
import { checkAnchor } from "@/lib/site/paths";
import { reasonAfterChip } from "@/lib/site/states";
import { whatToDoHref } from "@/lib/site/what-to-do";
import type { CrossReadRow } from "@/lib/store/cross-reads";
import type { CheckResultRow } from "@/lib/store/runs";
import { StackTable, type StackColumn } from "../StackTable";
import { StateChip } from "../StateChip";
import { Stored } from "../Stored";
import { CheckHint } from "./CheckHint";
import { ClientLines } from "./ClientLines";
import { countByCode, ObservationsLine } from "../ObservationCodes";
import type { ObservationFacts } from "@/lib/checks/observations";
import type { ClientsVerdict } from "@/lib/checks/clients";

/** The checks other than the deciding one whose reason is the overall state's: said once, in the overall line. */
export function sharingOverall(overall: Overall | null, checks: CheckResultRow[]): CheckId[] {
  if (!overall?.reason || !overall.check) return [];
  return CHECK_IDS.filter((id) => id !== overall.check && checks.find((c) => c.check === id)?.reason === overall.reason);
}

function OverallLine({ overall, sharing, lang }: { overall: Overall | null; sharing: CheckId[]; lang: Lang }) {
  const t = SERVER_TEXT[lang];
  return (
    <div className={`overall overall-${overall?.state ?? "none"}`}>
      <p className="overall-state">
        <span className="overall-label">{t.overall}</span>
        <StateChip state={overall?.state ?? null} cause={overall?.cause} lang={lang} />
      </p>
      <p className="overall-why">
        {!overall ? (
          t.notProbed
        ) : overall.state === "verified" ? (
          t.verifiedWhy
        ) : overall.check ? (
          <>
            {t.decidedBy}
            <a href={`#${checkAnchor(overall.check)}`}>{CHECK_LABELS[lang][overall.check]}</a>
            {t.decidedByAfter}
            {overall.reason ? (
              lang === "en" ? (
                `: ${reasonAfterChip(overall.reason, overall.state, overall.cause)}`
              ) : (
                <>
                  {t.reasonSep}
                  <Stored lang={lang}>{reasonAfterChip(overall.reason, overall.state, overall.cause)}</Stored>
                </>
              )
            ) : (
              t.noReason
            )}
            {sharing.length ? t.sameReason(sharing.map((id) => CHECK_LABELS[lang][id])) : null}
          </>
        ) : null}
      </p>
    </div>
  );
}

type GlanceRow = { id: CheckId; check: CheckResultRow | undefined; saidAbove: boolean };

/** The table of checks: state, reason, hint and what to do, one row a check. */
function glanceColumns(lang: Lang): StackColumn<GlanceRow>[] {
  const t = SERVER_TEXT[lang];
  return [
    { label: t.colCheck, rowHeader: true, cell: ({ id }) => <a href={`#${checkAnchor(id)}`}>{CHECK_LABELS[lang][id]}</a> },
    { label: t.colState, cell: ({ check }) => <StateChip state={check?.state ?? null} cause={check?.notCheckedCause} lang={lang} /> },
    {
      label: t.colWhy,
      className: "cell-why",
      // Empty when the overall line above says this reason, so each reason is said once on the page.
      cell: ({ check, saidAbove }) => (
        <>
          {!check ? (
            t.notEvaluated
          ) : saidAbove ? null : (
            <Stored lang={lang}>{reasonAfterChip(check.reason, check.state, check.notCheckedCause)}</Stored>
          )}
          <CheckHint hint={check?.hint ?? null} lang={lang} />
        </>
      ),
    },
    {
      label: t.colFaq,
      className: "cell-faq",
      cell: ({ id, check }) =>
        check ? <Link href={whatToDoHref(id, check, lang)}>{check.state === "verified" ? t.howJudged : t.whatToDo}</Link> : null,
    },
  ];
}

/** The server's latest cross-read in one sentence, beside the checks (architecture.md §6). */
export function CrossReadNote({ crossRead, lang = "en" }: { crossRead: (CrossReadRow & { day: string }) | null; lang?: Lang }) {
  if (!crossRead) return null;
  const t = SERVER_TEXT[lang];
  const unexplained = (crossRead.outcome === "only_cross_reader" || crossRead.outcome === "disagreed") && !crossRead.explained;
  return (
    <p className={unexplained ? "cross-read-note warn" : "cross-read-note"} id="cross-read">
      <strong>{t.secondReader}</strong> {crossReadSentenceIn(lang, crossRead)}{" "}
      <Link href={localePath(lang, crossRead.explained ? "/faq/operating#explained" : "/faq/operating#cross-reader")}>
        {t.aboutCrossReader}
      </Link>
    </p>
  );
}

/** The top of a server page: the overall state and the five checks with reason, hint and what to do, and the
 * latest cross-read; everything an operator arriving from a badge needs, above the fold. */
export function AtAGlance({
  overall,
  checks,
  crossRead,
  clients,
  observations = [],
  lang = "en",
}: {
  overall: Overall | null;
  checks: CheckResultRow[];
  crossRead: (CrossReadRow & { day: string }) | null;
  /** architecture.md §2.10: shown right under the overall state, one line per kind of client. */
  clients?: ClientsVerdict;
  /** The observations of the latest complete read (architecture.md §2.9), counted by code for the line under the state. */
  observations?: readonly ObservationFacts[];
  lang?: Lang;
}) {
  const sharing = sharingOverall(overall, checks);
  const t = SERVER_TEXT[lang];
  return (
    <section className="glance" aria-labelledby="glance-h">
      <h2 id="glance-h" className="visually-hidden" tabIndex={-1}>
        {t.glanceH}
      </h2>
      <OverallLine overall={overall} sharing={sharing} lang={lang} />
      <ObservationsLine items={countByCode(observations)} lang={lang} />
      {clients ? <ClientLines clients={clients} lang={lang} /> : null}
      <StackTable
        className="glance-table"
        caption={t.glanceCaption}
        captionClassName="visually-hidden"
        headClassName="visually-hidden"
        columns={glanceColumns(lang)}
        rows={CHECK_IDS.map((id) => ({
          id,
          check: checks.find((c) => c.check === id),
          saidAbove: (id === overall?.check && !!overall.reason) || sharing.includes(id),
        }))}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ id: `glance-${r.id}` })}
      />
      {t.recordedInEnglish ? (
        <p className="sub" id="recorded-in-english">
          {t.recordedInEnglish}
        </p>
      ) : null}
      <CrossReadNote crossRead={crossRead} lang={lang} />
    </section>
  );
}
