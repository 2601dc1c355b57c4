import { shiftDay, type Percentiles, type ResponseTimes } from "@/lib/site/history";

const ms = (v: number | null) => (v === null ? "–" : `${v.toLocaleString("en-US")} ms`);
const cell = (p: Percentiles) => (p.samples === 0 ? "no measurement" : `${ms(p.p50)} / ${ms(p.p95)} (${p.samples})`);

const W = 760;
const H = 220;
const PAD = { top: 14, right: 12, bottom: 28, left: 60 };

/** p50/p95 per window as a table, then the daily medians of the last 30 days as a line chart. */
export function LatencyChart({ times, today }: { times: ResponseTimes; today: string }) {
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
        <caption>Response time, median / 95th percentile (probes measured)</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Last 24 hours</th>
            <th scope="col">Last 30 days</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Handshake</th>
            <td>{cell(times.last24h.handshake)}</td>
            <td>{cell(times.last30d.handshake)}</td>
          </tr>
          <tr>
            <th scope="row">Tool list</th>
            <td>{cell(times.last24h.toolsList)}</td>
            <td>{cell(times.last30d.toolsList)}</td>
          </tr>
        </tbody>
      </table>
      {measured < 2 ? (
        <p className="sub">
          {measured === 0
            ? "No response time was measured in the last 30 days."
            : "Response times were measured on one day only; the chart of daily medians starts once there are two."}
        </p>
      ) : (
        <svg className="chart latency" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="latency-t latency-d">
          <title id="latency-t">Daily median response time, last 30 days</title>
          <desc id="latency-d">
            {`Handshake and tool-list medians per UTC day on ${measured} of 30 days, up to ${max.toLocaleString("en-US")} ms; the table above gives the figures.`}
          </desc>
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
            <span className="swatch series-handshake" /> Handshake
          </li>
          <li>
            <span className="swatch series-tools" /> Tool list
          </li>
        </ul>
      ) : null}
      <p className="sub">
        A step&apos;s time is the sum of its HTTP exchanges (the probe sends one request at a time): discover or initialize for the
        handshake, every page for the tool list. Steps that got no answer are left out.
      </p>
    </>
  );
}
