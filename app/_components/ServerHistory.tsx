import { utcDayOf } from "@/lib/site/history";
import { serverStatesFeedPath } from "@/lib/site/paths";
import { siteDb } from "../_lib/db";
import { serverHistory } from "../_lib/history";
import { HistoryStrip } from "./HistoryStrip";
import { LatencyChart } from "./LatencyChart";
import { UptimeFigures } from "./server/UptimeFigures";
import { FoldSection } from "./server/FoldSection";

/** History strip with uptime beside it, response times and the state-change feed link of one server page. */
export function ServerHistory({ name, now }: { name: string; now: Date }) {
  const h = serverHistory(siteDb(), name, now);
  if (!h) return null;
  return (
    <>
      <FoldSection id="history" headingId="history-h" title="History, last 90 days" open>
        <HistoryStrip days={h.days} />
        <UptimeFigures name={name} now={now} />
        <p>
          <a href={serverStatesFeedPath(name)}>Subscribe to this server&apos;s state changes (Atom feed)</a>: one entry each time a check
          changes state.
        </p>
      </FoldSection>
      <FoldSection id="response-time" headingId="response-time-h" title="Response time">
        <LatencyChart times={h.responseTimes} today={utcDayOf(now)} />
      </FoldSection>
    </>
  );
}
