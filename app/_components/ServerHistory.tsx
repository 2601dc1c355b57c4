import { utcDayOf } from "@/lib/site/history";
import { serverStatesFeedPath } from "@/lib/site/paths";
import { siteDb } from "../_lib/db";
import { serverHistory } from "../_lib/history";
import { HistoryStrip } from "./HistoryStrip";
import { LatencyChart } from "./LatencyChart";
import { UptimeFigures } from "./server/UptimeFigures";

/** History strip with uptime beside it, response times and the state-change feed link of one server page. */
export function ServerHistory({ name, now }: { name: string; now: Date }) {
  const h = serverHistory(siteDb(), name, now);
  if (!h) return null;
  return (
    <>
      <section id="history" aria-labelledby="history-h">
        <h2 id="history-h">History, last 90 days</h2>
        <HistoryStrip days={h.days} />
        <UptimeFigures name={name} now={now} />
        <p>
          <a href={serverStatesFeedPath(name)}>Subscribe to this server&apos;s state changes (Atom feed)</a>: one entry each time a check
          changes state.
        </p>
      </section>
      <section id="response-time" aria-labelledby="response-time-h">
        <h2 id="response-time-h">Response time</h2>
        <LatencyChart times={h.responseTimes} today={utcDayOf(now)} />
      </section>
    </>
  );
}
