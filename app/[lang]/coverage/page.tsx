import type { Metadata } from "next";
import { ALERT_CLOCK_MS } from "@/lib/rounds/alerts/clock";
import Link from "next/link";
import { coverageDays } from "@/lib/store/coverage";
import { countServers } from "@/lib/store/servers/counts";
import { failingLongest } from "@/lib/store/servers/list";
import { CROSS_READ_ALERT_MIN, CROSS_READ_ALERT_RATE, disagreementRate } from "@/lib/rounds/alerts/evaluate";
import { resolvedAlerts } from "@/lib/store/alerts";
import { openAlertsNow } from "@/lib/rounds/alerts/status";
import { crossReadCounts, crossReadsOn, isDifference, latestCrossReadDay, CROSS_READ_ORDER } from "@/lib/store/cross-reads";
import { explanationClause } from "@/lib/site/cross-read";
import { counted, WORDS } from "@/lib/site/plural";
import { formatCount, formatDuration, formatPercent, formatRelative, formatUtc } from "@/lib/site/format";
import { ALERT_KIND_LABELS, CROSS_READ_LABELS } from "@/lib/site/labels";
import { serverPath } from "@/lib/site/paths";
import { BarChart } from "@/app/_components/BarChart";
import { StateChip } from "@/app/_components/StateChip";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { storedRegionStates, type StoredRegionState } from "@/lib/store/regions";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ lang: string }> };

export const generateMetadata = async ({ params }: Props): Promise<Metadata> =>
  pageMetadata({
    path: "/coverage",
    lang: await pageLang(params),
    title: "Coverage",
    description:
      "How many remote MCP servers were read completely each day, the operated alerts, and the independent cross-reader's outcomes.",
    feeds: [{ url: "/coverage/feed.xml", title: "Alerts" }],
  });

const EXPLAINED_BLIND = {
  en: { one: "# server read only by the cross-reader is explained", other: "# servers read only by the cross-reader are explained" },
  zh: { other: "另有 # 个只有交叉读取器读到的服务端可由探测器规则解释" },
} as const;

/** Differing paths shown per server before "and N more". */
const PATHS_SHOWN = 4;

export default function CoveragePage() {
  const db = siteDb();
  const days = coverageDays(db, 30);
  const open = openAlertsNow(db);
  const resolved = resolvedAlerts(db, 10);
  const failing = failingLongest(db, 25);
  const counts = countServers(db);
  const now = new Date();
  const openDays = new Set(open.filter((a) => a.kind === "coverage_drop").map((a) => a.day));
  const crossDay = latestCrossReadDay(db);
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
        <h2 id="alert-h">Alerts</h2>
        <p>
          Alerts open and resolve by themselves, judged every {ALERT_CLOCK_MS / 1000} s: coverage clearly below its recent level, rounds
          that stopped finishing, a cross-reader that disagrees with the probe, a probing region that is down, the probe&apos;s own network
          failing (<Link href="/faq/own-network">how we tell it from a server&apos;s outage</Link>), and a database that cannot be written.{" "}
          <a href="/coverage/feed.xml">Atom feed of alerts</a> · <a href="/api/status">status JSON for monitors</a> (HTTP 503 while an alert
          is open).
        </p>
        {open.length > 0 ? (
          open.map((a) => (
            <div className="notice bad" role="alert" key={a.id ?? a.kind} id={`alert-${a.id ?? a.kind}`}>
              <p>
                <strong>
                  {ALERT_KIND_LABELS[a.kind]}: open since {formatUtc(a.createdAt)}
                </strong>{" "}
                ({formatRelative(a.createdAt, now)}). {a.message}
                {a.kind === "coverage_drop" && a.value !== null && a.baseline !== null
                  ? ` Read ${formatCount(a.value)} against a recent level of ${formatCount(Math.round(a.baseline))}.`
                  : ""}
                {a.kind === "database_unwritable"
                  ? " Pages answer from what is stored; rounds start no probes until writes work again. Free space on the database's volume, or check it for I/O errors or a read-only mount."
                  : ""}
              </p>
            </div>
          ))
        ) : (
          <div className="notice ok">
            <p>
              <strong>No open alert.</strong> Rounds are finishing, coverage is at its recent level, the cross-reader agrees with the probe,
              the probe&apos;s own network works and the database takes writes.
            </p>
          </div>
        )}
        {resolved.length > 0 ? (
          <table className="stack">
            <caption>Recently resolved alerts</caption>
            <thead>
              <tr>
                <th scope="col">Alert</th>
                <th scope="col">Opened</th>
                <th scope="col">Resolved</th>
                <th scope="col">What happened</th>
              </tr>
            </thead>
            <tbody>
              {resolved.map((a) => (
                <tr key={a.id} id={`alert-${a.id}`}>
                  <td data-label="Alert">{ALERT_KIND_LABELS[a.kind]}</td>
                  <td data-label="Opened">{formatUtc(a.createdAt)}</td>
                  <td data-label="Resolved">
                    {formatUtc(a.resolvedAt)}
                    {a.resolvedAt ? (
                      <div className="sub">after {formatDuration(Date.parse(a.resolvedAt) - Date.parse(a.createdAt))}</div>
                    ) : null}
                  </td>
                  <td data-label="What happened">
                    {a.message}
                    {a.resolvedMessage ? <div className="sub">{a.resolvedMessage}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <RegionsTable db={db} />

      <section aria-labelledby="cov-h">
        <h2 id="cov-h">Servers read per day</h2>
        <p>
          {formatCount(counts.inRegistry)} servers are in the registry now
          {latest
            ? `; on ${latest.day} we read the whole tool list of ${formatCount(latest.serversRead)} of the ${formatCount(latest.serversAttempted)} we tried`
            : ""}
          .
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
                  <strong>This is not coverage.</strong> It counts requests we made, and servers that keep failing are retried less often,
                  so this rate can rise while fewer servers are read. Judge the probe by the bars, not by this number.
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
                <th scope="col" className="num">
                  Servers read
                </th>
                <th scope="col" className="num">
                  Servers tried
                </th>
                <th scope="col" className="num">
                  Requests
                </th>
                <th scope="col" className="num">
                  Request success (not coverage)
                </th>
                <th scope="col">Alert</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr key={d.day}>
                  <td data-label="Day">{d.day}</td>
                  <td data-label="Servers read" className="num">
                    {formatCount(d.serversRead)}
                  </td>
                  <td data-label="Servers tried" className="num">
                    {formatCount(d.serversAttempted)}
                  </td>
                  <td data-label="Requests" className="num">
                    {formatCount(d.requests)}
                  </td>
                  <td data-label="Request success" className="num">
                    {formatPercent(d.requestsOk, d.requests)}
                  </td>
                  <td data-label="Alert">{openDays.has(d.day) ? "▲ below recent level" : "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <CrossReadSection db={db} day={crossDay} />

      <section aria-labelledby="failing-h">
        <h2 id="failing-h">Failing longest</h2>
        <p>
          Servers whose discovery currently fails or looks risky, longest without a complete read first. They stay here until their tool
          list is read without a problem again or they leave the registry.
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
                <th scope="col" className="num">
                  Failed probes in a row
                </th>
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
                  <td data-label="Failed probes in a row" className="num">
                    {s.consecutiveFailures}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function CrossReadSection({ db, day }: { db: ReturnType<typeof siteDb>; day: string | null }) {
  if (!day) {
    return (
      <section aria-labelledby="cross-h">
        <h2 id="cross-h">Cross-reader</h2>
        <p>
          Once a day, after the first round that finishes, a second reader built on the official MCP SDK client reads a fixed sample of the
          registry&apos;s servers, starting with the older <code>initialize</code> handshake, and its tool lists are compared with ours. It
          has not run yet.
        </p>
      </section>
    );
  }
  const counts = crossReadCounts(db, day);
  const rows = crossReadsOn(db, day);
  const rate = disagreementRate(counts);
  // architecture.md §6: a server only the cross-reader read is a possible blind spot unless the probe's own rules explain it.
  const blind = rows.filter((r) => r.outcome === "only_cross_reader" && !r.explained).length;
  const explainedBlind = counts.only_cross_reader - blind;
  return (
    <section aria-labelledby="cross-h">
      <h2 id="cross-h">Cross-reader</h2>
      <p>
        A second reader, built on the official MCP SDK client and always starting with the older <code>initialize</code> handshake, read a
        fixed sample of {formatCount(rows.length)} registry servers on {day}. Each tool list is compared field by field with our
        probe&apos;s latest complete read. <a href="/api/cross-reads">The same outcomes as JSON</a>.
      </p>
      <div className={blind > 0 ? "notice warn" : "notice ok"} role="status">
        <p>
          <strong>{counted(blind, WORDS.server)} read only by the cross-reader, for no reason the probe&apos;s rules give.</strong>{" "}
          {blind > 0
            ? "The second reader got a tool list where our probe could not: each one is a possible blind spot of the probe."
            : "Everything the second reader could read, our probe read too, or its rules say why not."}
        </p>
        {explainedBlind > 0 ? (
          <p>
            {counted(explainedBlind, EXPLAINED_BLIND)} by the probe&apos;s own rules (
            <Link href="/faq/operating#explained">explained differences</Link>
            ): a fact about the server, shown on its page and not counted by the alert.
          </p>
        ) : null}
        <p>
          Unexplained differences: {formatCount(rate.disagreeing)} of {formatCount(rate.compared)} servers that either side read (
          {formatPercent(rate.disagreeing, rate.compared)}
          ); an alert opens above {Math.round(CROSS_READ_ALERT_RATE * 100)}% with at least {CROSS_READ_ALERT_MIN} servers.
        </p>
      </div>
      <table className="summary-table">
        <caption>Outcomes on {day}</caption>
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col">Servers</th>
          </tr>
        </thead>
        <tbody>
          {CROSS_READ_ORDER.map((o) => (
            <tr key={o}>
              <td>{CROSS_READ_LABELS[o]}</td>
              <td>{formatCount(counts[o])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* Folded: one row per sampled server made this page tens of thousands of pixels tall on a phone (issue #42). */}
      {rows.length > 0 ? (
        <details className="cross-read-fold">
          <summary>Every sampled server, one row each ({formatCount(rows.length)}), possible blind spots first</summary>
          <table className="stack" id="cross-read-table">
            <caption>Every sampled server, possible blind spots first (unexplained before explained)</caption>
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Outcome</th>
                <th scope="col">Explained</th>
                <th scope="col">Differing field paths</th>
                <th scope="col" className="num">
                  Tools (probe / cross-reader)
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name}>
                  <td data-label="Server">
                    <Link href={serverPath(r.name)}>{r.name}</Link>
                  </td>
                  <td data-label="Outcome">
                    {CROSS_READ_LABELS[r.outcome]}
                    {r.explanation === "initialize_refused" ? (
                      <div className="sub">{explanationClause(r.explanation, r.explanationCode)}</div>
                    ) : r.detail && r.outcome !== "agreed" ? (
                      <div className="sub">{r.detail}</div>
                    ) : null}
                  </td>
                  <td data-label="Explained">
                    {isDifference(r.outcome) ? (r.explanation ? `yes: ${explanationClause(r.explanation, r.explanationCode)}` : "no") : "–"}
                  </td>
                  <td data-label="Differing field paths">
                    {r.paths.length === 0 ? (
                      "–"
                    ) : (
                      <>
                        {r.paths.slice(0, PATHS_SHOWN).map((p, i) => (
                          <span key={p}>
                            {i > 0 ? ", " : ""}
                            <code>{p}</code>
                          </span>
                        ))}
                        {r.paths.length > PATHS_SHOWN ? ` and ${r.paths.length - PATHS_SHOWN} more` : ""}
                      </>
                    )}
                  </td>
                  <td data-label="Tools" className="num">
                    {r.probeToolCount ?? "–"} / {r.crossToolCount ?? "–"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </section>
  );
}

function downWords(s: StoredRegionState): string {
  if (!s.down) return "up";
  if (s.down.kind === "host_share") return `down: ${s.down.failed} of its latest ${s.down.hosts} hosts failed at the network level`;
  return `down: it answered no probe since ${formatUtc(new Date(s.down.sinceMs).toISOString())}`;
}

/** architecture.md §8: the probing regions and their state; nothing for a site that probes alone. */
function RegionsTable({ db }: { db: ReturnType<typeof siteDb> }) {
  const regions = storedRegionStates(db);
  if (regions.length === 0) return null;
  return (
    <section aria-labelledby="regions-h" id="regions">
      <h2 id="regions-h">Regions</h2>
      <p>
        Each region probes from its own network; one whose own share of failing hosts trips, or that stops answering, is down: it gets no
        primaries and its failures count for nothing (<Link href="/faq/regions#region-down">how regions vote</Link>).
      </p>
      <table className="stack regions">
        <caption>Probing regions</caption>
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col">State</th>
            <th scope="col">Last answer</th>
            <th scope="col">Hosts failing at the network level</th>
          </tr>
        </thead>
        <tbody>
          {regions.map((r) => (
            <tr key={r.id} data-region={r.id} data-up={r.up ? "yes" : "no"}>
              <td data-label="Region">
                <code>{r.id}</code>
              </td>
              <td data-label="State">{downWords(r)}</td>
              <td data-label="Last answer">{r.lastAnswerAt ? formatUtc(r.lastAnswerAt) : "none yet"}</td>
              <td data-label="Hosts failing at the network level">
                {r.hostShare === null
                  ? "no answer yet"
                  : `${Math.round(r.hostShare * 100)}% of its latest hosts (${formatCount(r.hostsTried)} tried)`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
