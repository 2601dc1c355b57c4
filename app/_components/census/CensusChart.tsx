import type { ChartModel } from "@/lib/site/census";
import type { Lang } from "@/lib/site/labels";

// One census chart, drawn on the server as SVG (no script): a stacked bar of shares per day, or a bar of a count per day.
// A day without a value is left empty, a gap and not a zero. The table beside it holds the same numbers as text.

const W = 720;
const H = 200;
const PAD = { top: 10, right: 8, bottom: 24, left: 44 };
const r2 = (n: number) => Math.round(n * 100) / 100;
const r1 = (n: number) => Math.round(n * 10) / 10;

const WORDS: Record<Lang, { gap: string; latest: string; none: string; day: string; total: string; table: (n: number) => string }> = {
  en: {
    gap: "Days without a row are left empty.",
    latest: "Latest day",
    none: "No day in this window has these counts yet.",
    day: "Day",
    total: "Total",
    table: (n) => `The numbers, one row per day (${n} ${n === 1 ? "day" : "days"})`,
  },
  zh: {
    gap: "没有记录的日子留白。",
    latest: "最近一天",
    none: "这个时间段里还没有这些数字。",
    day: "日期",
    total: "合计",
    table: (n) => `逐日数字（共 ${n} 天）`,
  },
};

const fmt = (lang: Lang, n: number) => n.toLocaleString(lang === "zh" ? "zh-CN" : "en-US");
const pct = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "–");

function summary(m: ChartModel, days: readonly string[], lang: Lang): string {
  const w = WORDS[lang];
  let i = m.values.length - 1;
  while (i >= 0 && m.values[i] === null) i--;
  if (i < 0) return `${m.of} ${w.none}`;
  const v = m.values[i]!;
  const total = m.series.reduce((n, s) => n + (v[s.key] ?? 0), 0);
  // No space after a full-width closing bracket in Chinese ("（规范要求的做法）33.6%").
  const gap = (label: string) => (lang === "zh" && /[）」』】]$/.test(label) ? "" : " ");
  const parts = m.series.map(
    (s) =>
      `${s.label}${gap(s.label)}${m.kind === "share" ? `${pct(v[s.key] ?? 0, total)} (${fmt(lang, v[s.key] ?? 0)})` : fmt(lang, v[s.key] ?? 0)}`,
  );
  return lang === "zh"
    ? `${m.of}${w.latest} ${days[i]}：${parts.join("；")}。${w.gap}`
    : `${m.of} ${w.latest} ${days[i]}: ${parts.join("; ")}. ${w.gap}`;
}

export function CensusChart({ model: m, days, lang }: { model: ChartModel; days: readonly string[]; lang: Lang }) {
  const w = WORDS[lang];
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, days.length);
  const barW = Math.max(0.6, step * (days.length > 120 ? 1 : 0.8));
  const totals = m.values.map((v) => (v ? m.series.reduce((n, s) => n + (v[s.key] ?? 0), 0) : 0));
  const max = m.kind === "count" ? Math.max(1, ...totals) : 1;
  const ticks = m.kind === "share" ? [0, 0.5, 1] : [0, 0.5, 1].map((f) => Math.round(max * f));
  const labelAt = new Set([0, Math.round((days.length - 1) / 3), Math.round(((days.length - 1) * 2) / 3), days.length - 1]);
  const rows = days.map((d, i) => ({ d, v: m.values[i] ?? null, total: totals[i]! })).filter((r) => r.v !== null);
  const titleId = `chart-${m.id}-t`;
  const descId = `chart-${m.id}-d`;
  return (
    <section className="census-chart" aria-labelledby={`${m.id}-h`}>
      <h3 id={`${m.id}-h`}>{m.title}</h3>
      <div className="chart-row">
        <figure>
          <svg className="chart census" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`}>
            <title id={titleId}>{m.title}</title>
            <desc id={descId}>{summary(m, days, lang)}</desc>
            {ticks.map((t) => {
              const y = r2(PAD.top + innerH - (m.kind === "share" ? t : t / max) * innerH);
              return (
                <g key={t}>
                  <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
                  <text x={PAD.left - 6} y={y + 4} textAnchor="end">
                    {m.kind === "share" ? `${t * 100}%` : fmt(lang, t)}
                  </text>
                </g>
              );
            })}
            {/* One path per series, one rectangle per day in it: the same drawing as a rect per bar, a fraction of the bytes. */}
            {m.series.map((s, k) => {
              let d = "";
              days.forEach((_, i) => {
                const v = m.values[i];
                const total = totals[i]!;
                const value = v?.[s.key] ?? 0;
                if (!v || total === 0 || value <= 0) return;
                const unit = m.kind === "share" ? innerH / total : innerH / max;
                const below = m.series.slice(0, k).reduce((n, t) => n + (v[t.key] ?? 0), 0);
                const x = r1(PAD.left + i * step + (step - barW) / 2);
                const y = r1(PAD.top + innerH - (below + value) * unit);
                d += `M${x} ${y}h${r1(barW)}v${r1(value * unit)}h${-r1(barW)}z`;
              });
              return d ? <path key={s.key} className={`seg ${s.tone}`} d={d} data-series={s.key} /> : null;
            })}
            <line className="axis" x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} />
            {days.map((d, i) =>
              labelAt.has(i) ? (
                <text
                  key={d}
                  x={r2(PAD.left + i * step + step / 2)}
                  y={H - 8}
                  textAnchor={i === 0 ? "start" : i === days.length - 1 ? "end" : "middle"}
                >
                  {d}
                </text>
              ) : null,
            )}
          </svg>
          <ul className="legend">
            {m.series.map((s) => (
              <li key={s.key}>
                <span className={`swatch ${s.tone}`} aria-hidden="true" /> {s.label}
              </li>
            ))}
          </ul>
        </figure>
        <details className="chart-table">
          <summary>{w.table(rows.length)}</summary>
          <div className="table-scroll" tabIndex={0} role="region" aria-label={m.title}>
            <table className="census-table">
              <caption className="visually-hidden">{m.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{w.day}</th>
                  {m.series.map((s) => (
                    <th scope="col" className="num" key={s.key}>
                      {s.label}
                    </th>
                  ))}
                  {m.kind === "share" ? (
                    <th scope="col" className="num">
                      {w.total}
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.d}>
                    <th scope="row">{r.d}</th>
                    {m.series.map((s) => (
                      <td className="num" key={s.key}>
                        {fmt(lang, r.v![s.key] ?? 0)}
                      </td>
                    ))}
                    {m.kind === "share" ? <td className="num">{fmt(lang, r.total)}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </div>
    </section>
  );
}
