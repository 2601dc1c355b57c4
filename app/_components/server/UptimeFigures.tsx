import Link from "next/link";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SECTIONS_TEXT } from "@/lib/site/server-text";
import { formatUptime, uptimeCounts, UPTIME_WINDOW_LABELS } from "@/lib/site/uptime";
import { serverUptime, UPTIME_WINDOWS } from "@/lib/store/uptime";
import { siteDb } from "../../_lib/db";

/** Uptime over 24 hours, 7, 30 and 90 days (architecture.md §4), shown beside the history strip. */
export function UptimeFigures({ name, now, lang = "en" }: { name: string; now: Date; lang?: Lang }) {
  const uptime = serverUptime(siteDb(), name, now);
  if (!uptime) return null;
  const t = SECTIONS_TEXT[lang];
  return (
    <div className="uptime" role="group" aria-labelledby="uptime-h">
      <h3 id="uptime-h">{t.uptimeH}</h3>
      <dl className="uptime-figures">
        {UPTIME_WINDOWS.map((w) => (
          <div key={w} className="uptime-figure">
            <dt>{UPTIME_WINDOW_LABELS[lang][w]}</dt>
            <dd>
              <strong className="uptime-value">{uptime[w].reached === 0 ? t.noData : formatUptime(uptime[w])}</strong>
              <span className="sub">{uptime[w].reached ? uptimeCounts(uptime[w], lang) : t.uptimeNone}</span>
            </dd>
          </div>
        ))}
      </dl>
      <p className="sub">
        {t.uptimeSub[0]}
        <Link href={faqPath(lang, "uptime")}>{t.uptimeSub[1]}</Link>
        {t.uptimeSub[2]}
      </p>
    </div>
  );
}
