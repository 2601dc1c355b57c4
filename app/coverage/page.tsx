import type { Metadata } from "next";
import Link from "next/link";
import { alertState, coverageDays } from "@/lib/store/coverage";
import { countServers, failingLongest } from "@/lib/store/servers";
import { formatCount, formatPercent, formatRelative, formatUtc } from "@/lib/site/format";
import { serverPath } from "@/lib/site/paths";
import { BarChart } from "../_components/BarChart";
import { StateChip } from "../_components/StateChip";
import { siteDb } from "../_lib/db";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Coverage" };

export default function CoveragePage() {
  const db = siteDb();
  const days = coverageDays(db, 30);
  const alerts = alertState(db);
  const failing = failingLongest(db, 25);
  const counts = countServers(db);
  const now = new Date();
  const openDays = new Set(alerts.open.map((a) => a.day));
  const latest = days[days.length - 1];
  const totalReq = days.reduce((n, d) => n + d.requests, 0);
  const totalOk = days.reduce((n, d) => n + d.requestsOk, 0);

  return (
    <>
      <h1>Coverage</h1>
      <p className="lede">
        How many different servers we read completely each UTC day: the whole tool list, to its end (malformed definitions count, pages that
        never end do not). This is the number we watch: when it drops, servers have gone unread, whatever the success rate says.{" "}
        <Link href="/faq/coverage">Why coverage and not success rate</Link>; <Link href="/census#read-h">how the latest probes split</Link>.
      </p>

      <section aria-labelledby="alert-h">
        <h2 id="alert-h">Alert state</h2>
        {alerts.open.length > 0 ? (
          alerts.open.map((a) => (
            <div className="notice bad" role="alert" key={a.id}>
              <p>
                <strong>Alert open since {formatUtc(a.createdAt)}</strong> ({a.day}): {a.message}
                {a.value !== null && a.baseline !== null ? ` Read ${formatCount(a.value)} against a recent level of ${formatCount(Math.round(a.baseline))}.` : ""}
              </p>
            </div>
          ))
        ) : (
          <div className="notice ok">
            <p>
              <strong>No open alert.</strong> An alert opens when the servers read in a day fall clearly below their recent level.
            </p>
          </div>
        )}
        {alerts.resolved.length > 0 ? (
          <details>
            <summary>Recently resolved alerts ({alerts.resolved.length})</summary>
            <ul>
              {alerts.resolved.map((a) => (
                <li key={a.id}>
                  {a.day}: {a.message} (resolved {formatUtc(a.resolvedAt)})
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>

      <section aria-labelledby="cov-h">
        <h2 id="cov-h">Servers read per day</h2>
        <p>
          {formatCount(counts.inRegistry)} servers are in the registry now
          {latest ? `; on ${latest.day} we read the whole tool list of ${formatCount(latest.serversRead)} of the ${formatCount(latest.serversAttempted)} we tried` : ""}.
        </p>
        {days.length === 0 ? (
          <p>No coverage recorded yet: no round has run.</p>
        ) : (
          <div className="chart-row">
            <figure>
              <figcaption>Distinct servers whose tool list was read to its end, per UTC day</figcaption>
              <BarChart
                id="coverage-chart"
                title="Distinct servers read per day"
                desc={`Bar chart of ${days.length} days from ${days[0]?.day} to ${latest?.day}; the same numbers are in the table below.`}
                bars={days.map((d) => ({ label: d.day.slice(5), value: d.serversRead, low: openDays.has(d.day) }))}
              />
            </figure>
            <div>
              <h3>Request success rate</h3>
              <div className="notice warn" role="note">
                <p>
                  <strong>This is not coverage.</strong> It counts requests we made, and servers that keep failing are retried less often, so
                  this rate can rise while fewer servers are read. Judge the probe by the bars, not by this number.
                </p>
              </div>
              <p>
                Last {days.length} days: {formatPercent(totalOk, totalReq)} of {formatCount(totalReq)} requests answered usefully
                {latest ? `; ${formatPercent(latest.requestsOk, latest.requests)} on ${latest.day}` : ""}.
              </p>
            </div>
          </div>
        )}
        {days.length > 0 ? (
          <table className="stack">
            <caption>Coverage per day (text version of the chart)</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" className="num">Servers read</th>
                <th scope="col" className="num">Servers tried</th>
                <th scope="col" className="num">Requests</th>
                <th scope="col" className="num">Request success (not coverage)</th>
                <th scope="col">Alert</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr key={d.day}>
                  <td data-label="Day">{d.day}</td>
                  <td data-label="Servers read" className="num">{formatCount(d.serversRead)}</td>
                  <td data-label="Servers tried" className="num">{formatCount(d.serversAttempted)}</td>
                  <td data-label="Requests" className="num">{formatCount(d.requests)}</td>
                  <td data-label="Request success" className="num">{formatPercent(d.requestsOk, d.requests)}</td>
                  <td data-label="Alert">{openDays.has(d.day) ? "▲ below recent level" : "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <section aria-labelledby="failing-h">
        <h2 id="failing-h">Failing longest</h2>
        <p>
          Servers whose discovery currently fails or looks risky, longest without a complete read first. They stay here until their tool list is
          read without a problem again or they leave the registry.
        </p>
        {failing.length === 0 ? (
          <p>No server is currently failing discovery.</p>
        ) : (
          <table className="stack">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Last complete read</th>
                <th scope="col">Handshake</th>
                <th scope="col">Tool list</th>
                <th scope="col" className="num">Failed probes in a row</th>
              </tr>
            </thead>
            <tbody>
              {failing.map((s) => (
                <tr key={s.name}>
                  <td data-label="Server">
                    <Link href={serverPath(s.name)}>{s.name}</Link>
                    <div className="sub">{s.host}</div>
                  </td>
                  <td data-label="Last complete read">
                    {s.lastSuccessAt ? (
                      <>
                        {formatRelative(s.lastSuccessAt, now)} <span className="sub">({formatUtc(s.lastSuccessAt)})</span>
                      </>
                    ) : (
                      <>never (known since {formatUtc(s.firstSeenAt)})</>
                    )}
                  </td>
                  <td data-label="Handshake">
                    <StateChip state={s.stateHandshake} />
                  </td>
                  <td data-label="Tool list">
                    <StateChip state={s.stateToolsList} />
                  </td>
                  <td data-label="Failed probes in a row" className="num">{s.consecutiveFailures}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
