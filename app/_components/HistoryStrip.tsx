import type { CheckState } from "@/lib/vocabulary/checks";
import { HISTORY_SEVERITY } from "@/lib/store/history";
import type { StripDay } from "@/lib/site/history";
import { STATE_LABELS } from "@/lib/site/labels";
import { counted, WORDS } from "@/lib/site/plural";
import { runPath } from "@/lib/site/paths";

// Bars are drawn in SVG for sighted mouse users (a native tooltip per day, a click opens the day's run);
// the same facts are a sentence and a table for everyone else. A day without a probe is a short bar, so
// the difference is never colour alone.
const NO_PROBE = "No probe that day";
type Cell = CheckState | "none";

function dayTitle(d: StripDay): string {
  if (!d.state) return `${d.day}: ${NO_PROBE.toLowerCase()}`;
  const probes = counted(d.probes, WORDS.probe);
  return `${d.day}: ${STATE_LABELS.en[d.state]} (worst of ${probes})${d.runId ? "; click to open the day's last run" : ""}`;
}

/** "61 days Verified, 2 days Failed, 27 days without a probe." */
export function historySummary(days: StripDay[]): string {
  const counts = new Map<Cell, number>();
  for (const d of days) counts.set(d.state ?? "none", (counts.get(d.state ?? "none") ?? 0) + 1);
  const parts = HISTORY_SEVERITY.filter((s) => counts.has(s)).map((s) => `${counted(counts.get(s)!, WORDS.day)} ${STATE_LABELS.en[s]}`);
  if (counts.has("none")) parts.push(`${counted(counts.get("none")!, WORDS.day)} without a probe`);
  return `Last ${days.length} UTC days: ${parts.join(", ")}.`;
}

const BAR = 4;
const GAP = 2;
const HEIGHT = 28;

/** The full strip for a server page: 90 bars, legend, a sentence and a table with a link per day. */
export function HistoryStrip({ days }: { days: StripDay[] }) {
  const probed = days.filter((d) => d.state).reverse();
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
              <title>{dayTitle(d)}</title>
            </rect>
          ) : (
            <rect className="day day-none" x={x} y={HEIGHT / 2 - 4} width={BAR} height={8} rx={1}>
              <title>{dayTitle(d)}</title>
            </rect>
          );
          return d.runId ? (
            <a key={d.day} href={runPath(d.runId)} tabIndex={-1}>
              {bar}
            </a>
          ) : (
            <g key={d.day}>{bar}</g>
          );
        })}
      </svg>
      <div className="strip-axis" aria-hidden="true">
        <span>{days[0]?.day}</span>
        <span>{days[days.length - 1]?.day} (today)</span>
      </div>
      <figcaption>
        <p>{historySummary(days)}</p>
        <ul className="legend">
          {HISTORY_SEVERITY.map((s) => (
            <li key={s}>
              <span className={`swatch day-${s}`} aria-hidden="true" /> {STATE_LABELS.en[s]}
            </li>
          ))}
          <li>
            <span className="swatch swatch-short day-none" aria-hidden="true" /> {NO_PROBE}
          </li>
        </ul>
        <p className="sub">
          Each bar is one UTC day, coloured by the worst discovery result (handshake, protocol version, tool list) of that day&apos;s
          probes: Failed, then Observed risk, then Not checked, then Verified.
        </p>
      </figcaption>
      <details>
        <summary>The days with a probe, as a table ({probed.length})</summary>
        {probed.length === 0 ? (
          <p>No probe in these {days.length} days.</p>
        ) : (
          <table className="stack history-table">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Worst discovery state</th>
                <th scope="col">Probes</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {probed.map((d) => (
                <tr key={d.day}>
                  <td data-label="Day (UTC)">{d.day}</td>
                  <td data-label="Worst discovery state">{STATE_LABELS.en[d.state!]}</td>
                  <td data-label="Probes">{d.probes}</td>
                  <td data-label="Last run">
                    {d.runId ? <a href={runPath(d.runId)}>run {d.runId}</a> : "no longer kept (runs are kept 30 days)"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </details>
    </figure>
  );
}

/** The index's compact strip: one path per state, each run of days in that state one dashed stroke (2 px
 * bar, 1 px gap), so a steady server costs a few bytes a row; the sentence as tooltip and for screen
 * readers. Not a link: the row's name already leads to the page, and 50 more tab stops would not help. */
export function HistoryStripCompact({ days }: { days: StripDay[] }) {
  const paths = new Map<Cell, string>();
  for (let i = 0; i < days.length;) {
    const cell: Cell = days[i]!.state ?? "none";
    let n = 1;
    while (i + n < days.length && (days[i + n]!.state ?? "none") === cell) n++;
    paths.set(cell, `${paths.get(cell) ?? ""}M${i * 3} 8h${n * 3 - 1}`);
    i += n;
  }
  const summary = historySummary(days);
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
