import { utcDayOf } from "@/lib/site/history";
import type { Lang } from "@/lib/site/labels";
import { serverStatesFeedPath } from "@/lib/site/paths";
import { SECTIONS_TEXT } from "@/lib/site/server-text";
import { siteDb } from "../_lib/db";
import { serverHistory } from "../_lib/history";
import { HistoryStrip } from "./HistoryStrip";
import { LatencyChart } from "./LatencyChart";
import { UptimeFigures } from "./server/UptimeFigures";
import { FoldSection } from "./server/FoldSection";

/** History strip with uptime beside it, response times and the state-change feed link of one server page. */
export function ServerHistory({ name, now, lang = "en" }: { name: string; now: Date; lang?: Lang }) {
  const h = serverHistory(siteDb(), name, now);
  if (!h) return null;
  const t = SECTIONS_TEXT[lang];
  return (
    <>
      <FoldSection id="history" headingId="history-h" title={t.historyH} open>
        <HistoryStrip days={h.days} lang={lang} />
        <UptimeFigures name={name} now={now} lang={lang} />
        <p>
          <a href={serverStatesFeedPath(name)}>{t.statesFeed[0]}</a>
          {t.statesFeed[1]}
        </p>
      </FoldSection>
      <FoldSection id="response-time" headingId="response-time-h" title={t.responseTimeH}>
        <LatencyChart times={h.responseTimes} today={utcDayOf(now)} lang={lang} />
      </FoldSection>
    </>
  );
}
