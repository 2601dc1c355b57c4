import { shiftDay, type Percentiles, type ResponseTimes } from "@/lib/site/history";
import type { Lang } from "@/lib/site/labels";
import { LATENCY_TEXT } from "@/lib/site/list-text";

const ms = (v: number | null) => (v === null ? "–" : `${v.toLocaleString("en-US")} ms`);
const cell = (p: Percentiles, none: string) => (p.samples === 0 ? none : `${ms(p.p50)} / ${ms(p.p95)} (${p.samples})`);

const W = 760;
const H = 220;
const PAD = { top: 14, right: 12, bottom: 28, left: 60 };

/** p50/p95 per window as a table, then the daily medians of the last 30 days as a line chart. */
export function LatencyChart({ times, today, lang = "en" }: { times: ResponseTimes; today: string; lang?: Lang }) {
  const t = LATENCY_TEXT[lang];
  const from = shiftDay(today, -29);
  const days = Array.from({ length: 30 }, (_, i) => shiftDay(from, i));
  const byDay = new Map(times.daily.map((d) => [d.day, d]));
  const max = Math.max(1, ...times.daily.flatMap((d) => [d.handshakeP50 ?? 0, d.toolsListP50 ?? 0]));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (i / 29) * innerW;
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = (key: "handshakeP50" | "toolsListP50") =>
    days
      .map((d, i) => ({ i, v: byDay.get(d)?.[key] ?? null }))
      .filter((p): p is { i: number; v: number } => p.v !== null)
      .map((p, n) => `${n === 0 ? "M" : "L"}${x(p.i).toFixed(1)} ${y(p.v).toFixed(1)}`)
      .join("");
  const measured = times.daily.length;
  return (
    <>
      <table className="latency-table">
        <caption>{t.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.step}</th>
            <th scope="col">{t.last24h}</th>
            <th scope="col">{t.last30d}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{t.handshake}</th>
            <td>{cell(times.last24h.handshake, t.noMeasurement)}</td>
            <td>{cell(times.last30d.handshake, t.noMeasurement)}</td>
          </tr>
          <tr>
            <th scope="row">{t.toolList}</th>
            <td>{cell(times.last24h.toolsList, t.noMeasurement)}</td>
            <td>{cell(times.last30d.toolsList, t.noMeasurement)}</td>
          </tr>
        </tbody>
      </table>
      {measured < 2 ? (
        <p className="sub">{measured === 0 ? t.noneMeasured : t.oneDay}</p>
      ) : (
        <svg className="chart latency" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="latency-t latency-d">
          <title id="latency-t">{t.chartTitle}</title>
          <desc id="latency-d">{t.chartDesc(measured, max.toLocaleString("en-US"))}</desc>
          {[0, 0.5, 1].map((f) => (
            <g key={f}>
              <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} />
              <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end">
                {`${Math.round(max * f).toLocaleString("en-US")} ms`}
              </text>
            </g>
          ))}
          <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
          <text x={PAD.left} y={H - 8} textAnchor="start">
            {from}
          </text>
          <text x={W - PAD.right} y={H - 8} textAnchor="end">
            {today}
          </text>
          <path className="series handshake" d={line("handshakeP50")} />
          <path className="series tools" d={line("toolsListP50")} />
        </svg>
      )}
      {measured >= 2 ? (
        <ul className="legend" aria-hidden="true">
          <li>
            <span className="swatch series-handshake" /> {t.handshake}
          </li>
          <li>
            <span className="swatch series-tools" /> {t.toolList}
          </li>
        </ul>
      ) : null}
      <p className="sub">{t.note}</p>
    </>
  );
}
