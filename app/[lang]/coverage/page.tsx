import type { Metadata } from "next";
import Link from "next/link";
import { ALERT_CLOCK_MS } from "@/lib/rounds/alerts/clock";
import { CROSS_READ_ALERT_MIN, CROSS_READ_ALERT_RATE, disagreementRate } from "@/lib/rounds/alerts/evaluate";
import { openAlertsNow } from "@/lib/rounds/alerts/status";
import { localePath } from "@/lib/site/chrome";
import { formatCount, formatPercent, formatUtc } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { formatDurationIn, formatRelativeIn } from "@/lib/site/format-zh";
import { COVERAGE_TEXT } from "@/lib/site/list-text";
import { faqPath, serverPath } from "@/lib/site/paths";
import { resolvedAlerts } from "@/lib/store/alerts";
import { coverageDays } from "@/lib/store/coverage";
import { crossReadCounts, crossReadsOn, isDifference, latestCrossReadDay, CROSS_READ_ORDER } from "@/lib/store/cross-reads";
import { storedRegionStates, type StoredRegionState } from "@/lib/store/regions";
import { countServers } from "@/lib/store/servers/counts";
import { failingLongest } from "@/lib/store/servers/list";
import { BarChart } from "@/app/_components/BarChart";
import { StackTable } from "@/app/_components/StackTable";
import { StateChip } from "@/app/_components/StateChip";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";
type Props = { params: Promise<{ lang: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const lang = await pageLang(params);
  const t = COVERAGE_TEXT[lang];
  return pageMetadata({
    path: "/coverage",
    lang,
    title: t.title,
    description: t.description,
    feeds: [{ url: "/coverage/feed.xml", title: t.feedTitle }],
  });
}

/** Differing paths shown per server before "and N more". */
const PATHS_SHOWN = 4;

type Text = (typeof COVERAGE_TEXT)[Lang];

/** Stored sentences (alert messages, reader details) are English: marked so on a Chinese page. */
const Stored = ({ lang, text }: { lang: Lang; text: string }) => (lang === "en" ? <>{text}</> : <span lang="en">{text}</span>);

export default async function CoveragePage({ params }: Props) {
  const lang = await pageLang(params);
  const t = COVERAGE_TEXT[lang];
  const at = (path: string) => localePath(lang, path);
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
      <h1>{t.title}</h1>
      <p className="lede">
        {t.lede}
        <Link href={faqPath(lang, "coverage")}>{t.whyLink}</Link>
        {t.between}
        <Link href={at("/census#read-h")}>{t.splitLink}</Link>
        {t.end}
      </p>

      <section aria-labelledby="alert-h">
        <h2 id="alert-h">{t.alertsH}</h2>
        <p>
          {t.alertsIntro(ALERT_CLOCK_MS / 1000)}
          <Link href={faqPath(lang, "own-network")}>{t.ownNetworkLink}</Link>
          {t.alertsIntroAfter}
          <a href="/coverage/feed.xml">{t.alertsFeed}</a>
          {t.dot}
          <a href="/api/status">{t.statusJson}</a>
          {t.statusJsonAfter}
        </p>
        {open.length > 0 ? (
          open.map((a) => (
            <div className="notice bad" role="alert" key={a.id ?? a.kind} id={`alert-${a.id ?? a.kind}`}>
              <p>
                <strong>{t.openSince(t.alertKinds[a.kind], formatUtc(a.createdAt))}</strong>
                {t.ago(formatRelativeIn(lang, a.createdAt, now))}
                <Stored lang={lang} text={a.message} />
                {a.kind === "coverage_drop" && a.value !== null && a.baseline !== null
                  ? t.coverageDrop(formatCount(a.value), formatCount(Math.round(a.baseline)))
                  : ""}
                {a.kind === "database_unwritable" ? t.databaseUnwritable : ""}
              </p>
            </div>
          ))
        ) : (
          <div className="notice ok">
            <p>
              <strong>{t.noAlert}</strong>
              {t.noAlertAfter}
            </p>
          </div>
        )}
        {resolved.length > 0 ? (
          <StackTable
            caption={t.resolvedCaption}
            columns={[
              { label: t.alert, cell: (a) => t.alertKinds[a.kind] },
              { label: t.opened, cell: (a) => formatUtc(a.createdAt) },
              {
                label: t.resolved,
                cell: (a) => (
                  <>
                    {formatUtc(a.resolvedAt)}
                    {a.resolvedAt ? (
                      <div className="sub">{t.after(formatDurationIn(lang, Date.parse(a.resolvedAt) - Date.parse(a.createdAt)))}</div>
                    ) : null}
                  </>
                ),
              },
              {
                label: t.whatHappened,
                cell: (a) => (
                  <>
                    <Stored lang={lang} text={a.message} />
                    {a.resolvedMessage ? (
                      <div className="sub">
                        <Stored lang={lang} text={a.resolvedMessage} />
                      </div>
                    ) : null}
                  </>
                ),
              },
            ]}
            rows={resolved}
            rowKey={(a) => a.id}
            rowProps={(a) => ({ id: `alert-${a.id}` })}
          />
        ) : null}
      </section>

      <RegionsTable db={db} lang={lang} />

      <section aria-labelledby="cov-h">
        <h2 id="cov-h">{t.covH}</h2>
        <p>
          {t.inRegistry(counts.inRegistry)}
          {latest ? t.readOn(latest.day, latest.serversRead, latest.serversAttempted) : ""}
          {t.end}
        </p>
        {days.length === 0 ? (
          <p>{t.noCoverage}</p>
        ) : (
          <div className="chart-row">
            <figure>
              <figcaption>{t.figcaption}</figcaption>
              <BarChart
                id="coverage-chart"
                title={t.chartTitle}
                desc={t.chartDesc(days.length, days[0]?.day, latest?.day)}
                bars={days.map((d) => ({ label: d.day.slice(5), value: d.serversRead, low: openDays.has(d.day) }))}
              />
            </figure>
            <div>
              <h3>{t.successH}</h3>
              <div className="notice warn" role="note">
                <p>
                  <strong>{t.notCoverage}</strong>
                  {t.notCoverageAfter}
                </p>
              </div>
              <p>
                {t.lastDays(days.length, formatPercent(totalOk, totalReq), totalReq)}
                {latest ? t.onDay(formatPercent(latest.requestsOk, latest.requests), latest.day) : ""}
                {t.end}
              </p>
            </div>
          </div>
        )}
        {days.length > 0 ? (
          <StackTable
            caption={t.tableCaption}
            columns={[
              { label: t.day, head: t.dayHead, cell: (d) => d.day },
              { label: t.serversRead, className: "num", cell: (d) => formatCount(d.serversRead) },
              { label: t.serversTried, className: "num", cell: (d) => formatCount(d.serversAttempted) },
              { label: t.requests, className: "num", cell: (d) => formatCount(d.requests) },
              { label: t.success, head: t.successHead, className: "num", cell: (d) => formatPercent(d.requestsOk, d.requests) },
              { label: t.alert, cell: (d) => (openDays.has(d.day) ? t.belowRecent : "–") },
            ]}
            rows={[...days].reverse()}
            rowKey={(d) => d.day}
          />
        ) : null}
      </section>

      <CrossReadSection db={db} day={crossDay} lang={lang} />

      <section aria-labelledby="failing-h">
        <h2 id="failing-h">{t.failingH}</h2>
        <p>{t.failingIntro}</p>
        {failing.length === 0 ? (
          <p>{t.noFailing}</p>
        ) : (
          <StackTable
            columns={[
              {
                label: t.server,
                cell: (s) => (
                  <>
                    <Link href={at(serverPath(s.name))}>{s.name}</Link>
                    <div className="sub">{s.host}</div>
                  </>
                ),
              },
              {
                label: t.lastRead,
                cell: (s) =>
                  s.lastSuccessAt ? (
                    <>
                      {formatRelativeIn(lang, s.lastSuccessAt, now)} <span className="sub">({formatUtc(s.lastSuccessAt)})</span>
                    </>
                  ) : (
                    <>{t.never(formatUtc(s.firstSeenAt))}</>
                  ),
              },
              { label: t.handshake, cell: (s) => <StateChip state={s.stateHandshake} lang={lang} /> },
              { label: t.toolList, cell: (s) => <StateChip state={s.stateToolsList} lang={lang} /> },
              { label: t.failedInARow, className: "num", cell: (s) => s.consecutiveFailures },
            ]}
            rows={failing}
            rowKey={(s) => s.name}
          />
        )}
      </section>
    </>
  );
}

function CrossReadSection({ db, day, lang }: { db: ReturnType<typeof siteDb>; day: string | null; lang: Lang }) {
  const t: Text = COVERAGE_TEXT[lang];
  if (!day) {
    return (
      <section aria-labelledby="cross-h">
        <h2 id="cross-h">{t.crossH}</h2>
        <p>
          {t.crossNotRun[0]}
          <code>initialize</code>
          {t.crossNotRun[1]}
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
  const [introBefore, introAfter] = t.crossIntro(rows.length, day);
  return (
    <section aria-labelledby="cross-h">
      <h2 id="cross-h">{t.crossH}</h2>
      <p>
        {introBefore}
        <code>initialize</code>
        {introAfter}
        <a href="/api/cross-reads">{t.crossJson}</a>
        {t.crossEnd}
      </p>
      <div className={blind > 0 ? "notice warn" : "notice ok"} role="status">
        <p>
          <strong>{t.blind(blind)}</strong>
          {blind > 0 ? t.blindSome : t.blindNone}
        </p>
        {explainedBlind > 0 ? (
          <p>
            {t.explainedBlind(explainedBlind)}
            <Link href={`${faqPath(lang, "operating")}#explained`}>{t.explainedLink}</Link>
            {t.explainedAfter}
          </p>
        ) : null}
        <p>
          {t.unexplained(
            rate.disagreeing,
            rate.compared,
            formatPercent(rate.disagreeing, rate.compared),
            Math.round(CROSS_READ_ALERT_RATE * 100),
            CROSS_READ_ALERT_MIN,
          )}
        </p>
      </div>
      <table className="summary-table">
        <caption>{t.outcomesOn(day)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.outcome}</th>
            <th scope="col">{t.servers}</th>
          </tr>
        </thead>
        <tbody>
          {CROSS_READ_ORDER.map((o) => (
            <tr key={o}>
              <td>{t.outcomes[o]}</td>
              <td>{formatCount(counts[o])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* Folded: one row per sampled server made this page tens of thousands of pixels tall on a phone (issue #42). */}
      {rows.length > 0 ? (
        <details className="cross-read-fold">
          <summary>{t.everySampled(rows.length)}</summary>
          <StackTable
            id="cross-read-table"
            caption={t.everySampledCaption}
            columns={[
              { label: t.server, cell: (r) => <Link href={localePath(lang, serverPath(r.name))}>{r.name}</Link> },
              {
                label: t.outcome,
                cell: (r) => (
                  <>
                    {t.outcomes[r.outcome]}
                    {r.explanation === "initialize_refused" ? (
                      <div className="sub">{t.explanation(r.explanation, r.explanationCode)}</div>
                    ) : r.detail && r.outcome !== "agreed" ? (
                      <div className="sub">
                        <Stored lang={lang} text={r.detail} />
                      </div>
                    ) : null}
                  </>
                ),
              },
              {
                label: t.explained,
                cell: (r) =>
                  isDifference(r.outcome) ? (r.explanation ? t.yes(t.explanation(r.explanation, r.explanationCode)) : t.no) : "–",
              },
              {
                label: t.differingPaths,
                cell: (r) =>
                  r.paths.length === 0 ? (
                    "–"
                  ) : (
                    <>
                      {r.paths.slice(0, PATHS_SHOWN).map((p, i) => (
                        <span key={p}>
                          {i > 0 ? t.pathSep : ""}
                          <code>{p}</code>
                        </span>
                      ))}
                      {r.paths.length > PATHS_SHOWN ? t.morePaths(r.paths.length - PATHS_SHOWN) : ""}
                    </>
                  ),
              },
              {
                label: t.tools,
                head: t.toolsHead,
                className: "num",
                cell: (r) => (
                  <>
                    {r.probeToolCount ?? "–"} / {r.crossToolCount ?? "–"}
                  </>
                ),
              },
            ]}
            rows={rows}
            rowKey={(r) => r.name}
          />
        </details>
      ) : null}
    </section>
  );
}

function downWords(s: StoredRegionState, t: Text): string {
  if (!s.down) return t.up;
  if (s.down.kind === "host_share") return t.downHosts(s.down.failed, s.down.hosts);
  return t.downSince(formatUtc(new Date(s.down.sinceMs).toISOString()));
}

/** architecture.md §8: the probing regions and their state; nothing for a site that probes alone. */
function RegionsTable({ db, lang }: { db: ReturnType<typeof siteDb>; lang: Lang }) {
  const t: Text = COVERAGE_TEXT[lang];
  const regions = storedRegionStates(db);
  if (regions.length === 0) return null;
  return (
    <section aria-labelledby="regions-h" id="regions">
      <h2 id="regions-h">{t.regionsH}</h2>
      <p>
        {t.regionsIntro}
        <Link href={`${faqPath(lang, "regions")}#region-down`}>{t.regionsLink}</Link>
        {t.regionsAfter}
      </p>
      <StackTable
        className="regions"
        caption={t.regionsCaption}
        columns={[
          { label: t.region, cell: (r) => <code>{r.id}</code> },
          { label: t.state, cell: (r) => downWords(r, t) },
          { label: t.lastAnswer, cell: (r) => (r.lastAnswerAt ? formatUtc(r.lastAnswerAt) : t.noneYet) },
          {
            label: t.hostsFailing,
            cell: (r) => (r.hostShare === null ? t.noAnswerYet : t.hostShare(Math.round(r.hostShare * 100), r.hostsTried)),
          },
        ]}
        rows={regions}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ "data-region": r.id, "data-up": r.up ? "yes" : "no" })}
      />
    </section>
  );
}
