export interface Bar {
  label: string;
  value: number;
  /** Drawn in the warning colour and named in the text alternative. */
  low?: boolean;
}

/** A server-rendered bar chart; the caller gives a text table beside it as the alternative. */
export function BarChart({ bars, title, desc, id }: { bars: Bar[]; title: string; desc: string; id: string }) {
  const width = 640;
  const height = 240;
  const pad = { top: 16, right: 12, bottom: 36, left: 56 };
  const max = Math.max(1, ...bars.map((b) => b.value));
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const step = bars.length > 0 ? innerW / bars.length : innerW;
  const barW = Math.max(2, step * 0.7);
  const ticks = [0, 0.5, 1].map((f) => Math.round(max * f));
  const labelEvery = Math.max(1, Math.ceil(bars.length / 8));
  return (
    <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{desc}</desc>
      {ticks.map((t) => {
        const y = pad.top + innerH - (t / max) * innerH;
        return (
          <g key={t}>
            <line className="grid" x1={pad.left} x2={width - pad.right} y1={y} y2={y} />
            <text x={pad.left - 6} y={y + 4} textAnchor="end">
              {t.toLocaleString("en-US")}
            </text>
          </g>
        );
      })}
      <line className="axis" x1={pad.left} x2={width - pad.right} y1={pad.top + innerH} y2={pad.top + innerH} />
      {bars.map((b, i) => {
        const h = (b.value / max) * innerH;
        const x = pad.left + i * step + (step - barW) / 2;
        return (
          <g key={b.label}>
            <rect className={b.low ? "bar low" : "bar"} x={x} y={pad.top + innerH - h} width={barW} height={h} />
            {i % labelEvery === 0 ? (
              <text x={x + barW / 2} y={height - pad.bottom + 16} textAnchor="middle">
                {b.label}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
