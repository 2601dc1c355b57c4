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
          <table className="stack">
            <caption>{t.resolvedCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.alert}</th>
                <th scope="col">{t.opened}</th>
                <th scope="col">{t.resolved}</th>
                <th scope="col">{t.whatHappened}</th>
              </tr>
            </thead>
            <tbody>
              {resolved.map((a) => (
                <tr key={a.id} id={`alert-${a.id}`}>
                  <td data-label={t.alert}>{t.alertKinds[a.kind]}</td>
                  <td data-label={t.opened}>{formatUtc(a.createdAt)}</td>
                  <td data-label={t.resolved}>
                    {formatUtc(a.resolvedAt)}
                    {a.resolvedAt ? (
                      <div className="sub">{t.after(formatDurationIn(lang, Date.parse(a.resolvedAt) - Date.parse(a.createdAt)))}</div>
                    ) : null}
                  </td>
                  <td data-label={t.whatHappened}>
                    <Stored lang={lang} text={a.message} />
                    {a.resolvedMessage ? (
                      <div className="sub">
                        <Stored lang={lang} text={a.resolvedMessage} />
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
          <table className="stack">
            <caption>{t.tableCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.dayHead}</th>
                <th scope="col" className="num">
                  {t.serversRead}
                </th>
                <th scope="col" className="num">
                  {t.serversTried}
                </th>
                <th scope="col" className="num">
                  {t.requests}
                </th>
                <th scope="col" className="num">
                  {t.successHead}
                </th>
                <th scope="col">{t.alert}</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((d) => (
                <tr key={d.day}>
                  <td data-label={t.day}>{d.day}</td>
                  <td data-label={t.serversRead} className="num">
                    {formatCount(d.serversRead)}
                  </td>
                  <td data-label={t.serversTried} className="num">
                    {formatCount(d.serversAttempted)}
                  </td>
                  <td data-label={t.requests} className="num">
                    {formatCount(d.requests)}
                  </td>
                  <td data-label={t.success} className="num">
                    {formatPercent(d.requestsOk, d.requests)}
                  </td>
                  <td data-label={t.alert}>{openDays.has(d.day) ? t.belowRecent : "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <CrossReadSection db={db} day={crossDay} lang={lang} />

      <section aria-labelledby="failing-h">
        <h2 id="failing-h">{t.failingH}</h2>
        <p>{t.failingIntro}</p>
        {failing.length === 0 ? (
          <p>{t.noFailing}</p>
        ) : (
          <table className="stack">
            <thead>
              <tr>
                <th scope="col">{t.server}</th>
                <th scope="col">{t.lastRead}</th>
                <th scope="col">{t.handshake}</th>
                <th scope="col">{t.toolList}</th>
                <th scope="col" className="num">
                  {t.failedInARow}
                </th>
              </tr>
            </thead>
            <tbody>
              {failing.map((s) => (
                <tr key={s.name}>
                  <td data-label={t.server}>
                    <Link href={at(serverPath(s.name))}>{s.name}</Link>
                    <div className="sub">{s.host}</div>
                  </td>
                  <td data-label={t.lastRead}>
                    {s.lastSuccessAt ? (
                      <>
                        {formatRelativeIn(lang, s.lastSuccessAt, now)} <span className="sub">({formatUtc(s.lastSuccessAt)})</span>
                      </>
                    ) : (
                      <>{t.never(formatUtc(s.firstSeenAt))}</>
                    )}
                  </td>
                  <td data-label={t.handshake}>
                    <StateChip state={s.stateHandshake} lang={lang} />
                  </td>
                  <td data-label={t.toolList}>
                    <StateChip state={s.stateToolsList} lang={lang} />
                  </td>
                  <td data-label={t.failedInARow} className="num">
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
          <table className="stack" id="cross-read-table">
            <caption>{t.everySampledCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.server}</th>
                <th scope="col">{t.outcome}</th>
                <th scope="col">{t.explained}</th>
                <th scope="col">{t.differingPaths}</th>
                <th scope="col" className="num">
                  {t.toolsHead}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name}>
                  <td data-label={t.server}>
                    <Link href={localePath(lang, serverPath(r.name))}>{r.name}</Link>
                  </td>
                  <td data-label={t.outcome}>
                    {t.outcomes[r.outcome]}
                    {r.explanation === "initialize_refused" ? (
                      <div className="sub">{t.explanation(r.explanation, r.explanationCode)}</div>
                    ) : r.detail && r.outcome !== "agreed" ? (
                      <div className="sub">
                        <Stored lang={lang} text={r.detail} />
                      </div>
                    ) : null}
                  </td>
                  <td data-label={t.explained}>
                    {isDifference(r.outcome) ? (r.explanation ? t.yes(t.explanation(r.explanation, r.explanationCode)) : t.no) : "–"}
                  </td>
                  <td data-label={t.differingPaths}>
                    {r.paths.length === 0 ? (
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
                    )}
                  </td>
                  <td data-label={t.tools} className="num">
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
      <table className="stack regions">
        <caption>{t.regionsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.region}</th>
            <th scope="col">{t.state}</th>
            <th scope="col">{t.lastAnswer}</th>
            <th scope="col">{t.hostsFailing}</th>
          </tr>
        </thead>
        <tbody>
          {regions.map((r) => (
            <tr key={r.id} data-region={r.id} data-up={r.up ? "yes" : "no"}>
              <td data-label={t.region}>
                <code>{r.id}</code>
              </td>
              <td data-label={t.state}>{downWords(r, t)}</td>
              <td data-label={t.lastAnswer}>{r.lastAnswerAt ? formatUtc(r.lastAnswerAt) : t.noneYet}</td>
              <td data-label={t.hostsFailing}>
                {r.hostShare === null ? t.noAnswerYet : t.hostShare(Math.round(r.hostShare * 100), r.hostsTried)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
