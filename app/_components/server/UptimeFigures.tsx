import Link from "next/link";
import { faqPath } from "@/lib/site/paths";
import { formatUptime, uptimeCounts, UPTIME_WINDOW_LABELS } from "@/lib/site/uptime";
import { serverUptime, UPTIME_WINDOWS } from "@/lib/store/uptime";
import { siteDb } from "../../_lib/db";

/** Uptime over 24 hours, 7, 30 and 90 days (architecture.md §4), shown beside the history strip. */
export function UptimeFigures({ name, now }: { name: string; now: Date }) {
  const uptime = serverUptime(siteDb(), name, now);
  if (!uptime) return null;
  return (
    <div className="uptime" role="group" aria-labelledby="uptime-h">
      <h3 id="uptime-h">Uptime</h3>
      <dl className="uptime-figures">
        {UPTIME_WINDOWS.map((w) => (
          <div key={w} className="uptime-figure">
            <dt>{UPTIME_WINDOW_LABELS.en[w]}</dt>
            <dd>
              <strong className="uptime-value">{formatUptime(uptime[w])}</strong>
              <span className="sub">{uptime[w].reached ? uptimeCounts(uptime[w]) : "no probe reached the server"}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="sub">
        The share of probes whose handshake completed or met a credential gate, among the probes that reached the server. Slow-downs,
        opt-outs and the probe&apos;s own outages are left out. The 7, 30 and 90 days are whole UTC days, today included.{" "}
        <Link href={faqPath("en", "uptime")}>How uptime is counted</Link>.
      </p>
    </div>
  );
}
