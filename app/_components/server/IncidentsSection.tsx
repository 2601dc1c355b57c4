import Link from "next/link";
import { localePath } from "@/lib/site/chrome";
import { formatCount } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { faqPath, incidentsFeedPath, incidentsPath } from "@/lib/site/paths";
import { SECTIONS_TEXT } from "@/lib/site/server-text";
import { incidentList } from "@/lib/store/incidents";
import { siteDb } from "../../_lib/db";
import { IncidentTable } from "../IncidentTable";
import { FoldSection } from "./FoldSection";

const SHOWN = 20;

/** A server's incidents (architecture.md §4), most recent first, with duration and the reason that opened each. */
export function IncidentsSection({
  name,
  lang = "en",
}: {
  name: string;
  /** Unused (kept until the page stops passing it). */ overallReason?: string | null;
  lang?: Lang;
}) {
  const { total, ongoing, rows } = incidentList(siteDb(), { server: name, limit: SHOWN });
  const t = SECTIONS_TEXT[lang];
  return (
    <FoldSection id="incidents" headingId="incidents-h" title={t.incidentsH}>
      <p>
        {t.incidentsAbout[0]}
        <Link href={faqPath(lang, "incidents")}>{t.incidentsAbout[1]}</Link>
        {t.incidentsAbout[2]}
      </p>
      {total === 0 ? (
        <p>{t.noIncident}</p>
      ) : (
        <>
          <p>
            {t.incidentCount(formatCount(total), total, ongoing)}
            {total > SHOWN ? t.incidentsMore(SHOWN) : t.incidentsEnd}
            {total > SHOWN ? <Link href={localePath(lang, incidentsPath(name))}>{t.incidentsPage}</Link> : null}
            {total > SHOWN ? t.incidentsMoreEnd : null}
          </p>
          <IncidentTable rows={rows} showServer={false} lang={lang} />
        </>
      )}
      <p>
        <a href={incidentsFeedPath(name)}>{t.incidentsFeed[0]}</a>
        {t.incidentsFeed[1]}
      </p>
    </FoldSection>
  );
}
