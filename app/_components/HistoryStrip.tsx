import type { CheckState } from "@/lib/vocabulary/checks";
import { HISTORY_SEVERITY } from "@/lib/store/history";
import type { StripDay } from "@/lib/site/history";
import { localePath } from "@/lib/site/chrome";
import { STATE_LABELS, type Lang } from "@/lib/site/labels";
import { counted, WORDS } from "@/lib/site/plural";
import { runPath } from "@/lib/site/paths";
import { HISTORY_TEXT } from "@/lib/site/server-text";
import { StackTable } from "./StackTable";

// Bars are drawn in SVG for sighted mouse users (a native tooltip per day, a click opens the day's run);
// the same facts are a sentence and a table for everyone else. A day without a probe is a short bar, so
// the difference is never colour alone.
type Cell = CheckState | "none";

function dayTitle(d: StripDay, lang: Lang): string {
  const t = HISTORY_TEXT[lang];
  if (!d.state) return t.dayNoProbe(d.day);
  return t.dayTitle(d.day, STATE_LABELS[lang][d.state], counted(d.probes, WORDS.probe, lang), !!d.runId);
}

/** "61 days Verified, 2 days Failed, 27 days without a probe." */
export function historySummary(days: StripDay[], lang: Lang = "en"): string {
  const t = HISTORY_TEXT[lang];
  const counts = new Map<Cell, number>();
  for (const d of days) counts.set(d.state ?? "none", (counts.get(d.state ?? "none") ?? 0) + 1);
  const parts = HISTORY_SEVERITY.filter((s) => counts.has(s)).map((s) =>
    t.summaryPart(counted(counts.get(s)!, WORDS.day, lang), STATE_LABELS[lang][s]),
  );
  if (counts.has("none")) parts.push(t.withoutProbe(counted(counts.get("none")!, WORDS.day, lang)));
  return t.summary(days.length, parts);
}

const BAR = 4;
const GAP = 2;
const HEIGHT = 28;

/** The full strip for a server page: 90 bars, legend, a sentence and a table with a link per day. */
export function HistoryStrip({ days, lang = "en" }: { days: StripDay[]; lang?: Lang }) {
  const probed = days.filter((d) => d.state).reverse();
  const t = HISTORY_TEXT[lang];
  const run = (id: number) => localePath(lang, runPath(id));
  return (
    <figure className="history">
      <svg
        className="strip"
        viewBox={`0 0 ${days.length * (BAR + GAP) - GAP} ${HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        {days.map((d, i) => {
          const x = i * (BAR + GAP);
          const bar = d.state ? (
            <rect className={`day day-${d.state}`} x={x} y={0} width={BAR} height={HEIGHT} rx={1}>
              <title>{dayTitle(d, lang)}</title>
            </rect>
          ) : (
            <rect className="day day-none" x={x} y={HEIGHT / 2 - 4} width={BAR} height={8} rx={1}>
              <title>{dayTitle(d, lang)}</title>
            </rect>
          );
          return d.runId ? (
            <a key={d.day} href={run(d.runId)} tabIndex={-1}>
              {bar}
            </a>
          ) : (
            <g key={d.day}>{bar}</g>
          );
        })}
      </svg>
      <div className="strip-axis" aria-hidden="true">
        <span>{days[0]?.day}</span>
        <span>
          {days[days.length - 1]?.day}
          {t.today}
        </span>
      </div>
      <figcaption>
        <p>{historySummary(days, lang)}</p>
        <ul className="legend">
          {HISTORY_SEVERITY.map((s) => (
            <li key={s}>
              <span className={`swatch day-${s}`} aria-hidden="true" /> {STATE_LABELS[lang][s]}
            </li>
          ))}
          <li>
            <span className="swatch swatch-short day-none" aria-hidden="true" /> {t.noProbe}
          </li>
        </ul>
        <p className="sub">{t.legendNote}</p>
      </figcaption>
      <details>
        <summary>{t.tableSummary(probed.length)}</summary>
        {probed.length === 0 ? (
          <p>{t.noProbeIn(days.length)}</p>
        ) : (
          <StackTable
            className="history-table"
            columns={[
              { label: t.colDay, cell: (d) => d.day },
              { label: t.colWorst, cell: (d) => STATE_LABELS[lang][d.state!] },
              { label: t.colProbes, cell: (d) => d.probes },
              { label: t.colLastRun, cell: (d) => (d.runId ? <a href={run(d.runId)}>{t.runN(d.runId)}</a> : t.runGone) },
            ]}
            rows={probed}
            rowKey={(d) => d.day}
          />
        )}
      </details>
    </figure>
  );
}

/** The index's compact strip: one path per state, each run of days in that state one dashed stroke (2 px
 * bar, 1 px gap), so a steady server costs a few bytes a row; the sentence as tooltip and for screen
 * readers. Not a link: the row's name already leads to the page, and 50 more tab stops would not help. */
export function HistoryStripCompact({ days, lang = "en" }: { days: StripDay[]; lang?: Lang }) {
  const paths = new Map<Cell, string>();
  for (let i = 0; i < days.length;) {
    const cell: Cell = days[i]!.state ?? "none";
    let n = 1;
    while (i + n < days.length && (days[i + n]!.state ?? "none") === cell) n++;
    paths.set(cell, `${paths.get(cell) ?? ""}M${i * 3} 8h${n * 3 - 1}`);
    i += n;
  }
  const summary = historySummary(days, lang);
  return (
    <span className="strip-cell" title={summary}>
      <svg className="strip-compact" viewBox={`0 0 ${days.length * 3 - 1} 16`} aria-hidden="true" focusable="false">
        {[...paths].map(([cell, d]) => (
          <path key={cell} className={`day-${cell}`} d={d} strokeDasharray="2 1" strokeWidth={cell === "none" ? 4 : 16} />
        ))}
      </svg>
      <span className="visually-hidden">{summary}</span>
    </span>
  );
}
