import Link from "next/link";
import { CHECK_IDS, CHECK_STATES, OBSERVATION_CODES, type CheckState } from "@/lib/vocabulary/checks";
import { CHECK_LABELS, STATE_LABELS, type Lang } from "@/lib/site/labels";
import { INDEX_TEXT } from "@/lib/site/list-text";
import { localePath } from "@/lib/site/chrome";
import { SERVER_SORTS } from "@/lib/vocabulary/store";
import { getConfig } from "@/lib/config";
import { summaryCounts } from "@/lib/store/servers/counts";
import { listServers } from "@/lib/store/servers/list";
import { formatCount } from "@/lib/site/format";
import { indexHref, type IndexQuery } from "@/lib/site/query";
import { faqPath } from "@/lib/site/paths";
import { historyDays } from "@/lib/store/history";
import { historyFromDay } from "@/lib/site/history";
import { observationCountsByName } from "@/lib/store/observations";
import { INITIALIZE_FIRST_STATES } from "@/lib/vocabulary/clients";
import { RenderStamp } from "./RenderStamp";
import { StateChip } from "./StateChip";
import { ServerTable } from "./index/ServerTable";
import { siteDb } from "../_lib/db";

const PAGE_SIZE = 50;

/** One state filter of the search form: "any state" or one of the four. */
function StateSelect({ name, label, value, lang }: { name: string; label: string; value: CheckState | undefined; lang: Lang }) {
  return (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name} defaultValue={value ?? ""}>
        <option value="">{INDEX_TEXT[lang].anyState}</option>
        {CHECK_STATES.map((s) => (
          <option key={s} value={s}>
            {STATE_LABELS[lang][s]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The index for one query: summary counts, the search form and one page of servers. */
export function IndexView({ query, lang }: { query: IndexQuery; lang: Lang }) {
  const at = (path: string) => localePath(lang, path);
  const t = INDEX_TEXT[lang];
  const db = siteDb();
  const counts = summaryCounts(db);
  const list = listServers(db, { ...query, pageSize: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const now = new Date();
  const history = historyDays(
    db,
    list.rows.map((r) => r.name),
    historyFromDay(now),
  );
  const observations = observationCountsByName(
    db,
    list.rows.map((r) => r.name),
  );
  // The column is there when the reader asks about observations or a row on this page has some, so a row without a
  // mark in it reads as "none", never as "not shown".
  const observationColumn = query.observation !== undefined || observations.size > 0;
  const filtered =
    query.q !== "" ||
    Object.keys(query.states).length > 0 ||
    query.includeLeft ||
    query.overall !== undefined ||
    query.observation !== undefined ||
    query.initializeFirst !== undefined ||
    query.reach !== undefined;
  // On a narrow screen the per-check and observation filters are folded unless one of them is in use (wide screens always show them).
  const checkFiltered =
    Object.keys(query.states).length > 0 || query.includeLeft || query.observation !== undefined || query.initializeFirst !== undefined;

  return (
    <>
      <h1 className="index-h1">{t.h1}</h1>
      <p className="lede index-lede">
        {t.lede}
        {lang === "en" ? " " : null}
        <Link href={faqPath(lang, "observed-unsigned")}>{t.verdictLink}</Link>
      </p>
      {getConfig().demo ? (
        <p className="notice" role="note">
          {t.demo[0]}
          <code>REGISTRY_URL</code>
          {t.demo[1]}
          <code>REGISTRY_URL</code>
          {t.demo[2]}
        </p>
      ) : null}

      {/* architecture.md §4's index at 1280×800: the summary and the search form side by side and compact, so the first
          server rows are on the first screen. */}
      <div className="index-top">
        <section aria-labelledby="summary-h" className="index-summary">
          <h2 id="summary-h">{t.summaryH(counts.servers)}</h2>
          <details className="fold-narrow" open={filtered}>
            <summary>
              {CHECK_STATES.map((s) => t.stateCount(counts.byOverall[s], s)).join(" · ")}
              {lang === "en" ? " " : null}
              <span className="sub">{t.summaryKind}</span>
            </summary>
            <p className="scroll-note sub" aria-hidden="true">
              {t.scrollNote}
            </p>
            <div className="summary-scroll" tabIndex={0} role="region" aria-label={t.summaryRegion}>
              <table className="summary-table">
                <caption className="visually-hidden">{t.summaryCaption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.state}</th>
                    <th scope="col">{t.overall}</th>
                    {CHECK_IDS.map((id) => (
                      <th scope="col" key={id}>
                        {CHECK_LABELS[lang][id]}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {CHECK_STATES.map((s) => (
                    <tr key={s}>
                      <th scope="row">
                        <StateChip state={s} lang={lang} />
                      </th>
                      <td className="summary-overall">
                        <Link href={at(indexHref({ overall: s }))} aria-label={t.overallCount(s, counts.byOverall[s])}>
                          {formatCount(counts.byOverall[s])}
                        </Link>
                      </td>
                      {CHECK_IDS.map((id) => (
                        <td key={id}>
                          <Link
                            href={at(indexHref({ states: { [id]: s } }))}
                            aria-label={t.checkCount(CHECK_LABELS[lang][id], s, counts.byCheck[id][s])}
                          >
                            {formatCount(counts.byCheck[id][s])}
                          </Link>
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </section>

        {/* Keyed by the query: client navigation (a sort header, a page link) reuses this tree, and the
            fields' defaults only apply to a form that mounts anew. */}
        <form key={indexHref(query)} method="get" action={at("/")} className="filters" role="search" aria-label={t.formLabel}>
          <div className="field field-q">
            <label htmlFor="q">{t.nameContains}</label>
            <input id="q" name="q" type="search" defaultValue={query.q} placeholder="io.github.example/server" />
          </div>
          <StateSelect name="overall" label={t.overall} value={query.overall} lang={lang} />
          <div className="field">
            <label htmlFor="f-sort">{t.sortBy}</label>
            <select id="f-sort" name="sort" defaultValue={query.sort}>
              {SERVER_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t.sortChoices[s]}
                </option>
              ))}
            </select>
          </div>
          <details className="fold-narrow more-filters" open={checkFiltered}>
            <summary>{t.moreFilters}</summary>
            <div className="more-fields">
              {CHECK_IDS.map((id) => (
                <StateSelect key={id} name={id} label={CHECK_LABELS[lang][id]} value={query.states[id]} lang={lang} />
              ))}
              <div className="field">
                <label htmlFor="f-observation">{t.observation}</label>
                <select id="f-observation" name="observation" defaultValue={query.observation ?? ""} aria-describedby="observation-help">
                  <option value="">{t.observationAny}</option>
                  <option value="any">{t.observationSome}</option>
                  {OBSERVATION_CODES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
                <span id="observation-help" className="visually-hidden">
                  {t.observationHelp}
                </span>
              </div>
              <div className="field">
                <label htmlFor="f-initializeFirst">{t.initializeFirst}</label>
                <select id="f-initializeFirst" name="initializeFirst" defaultValue={query.initializeFirst ?? ""}>
                  <option value="">{t.any}</option>
                  {INITIALIZE_FIRST_STATES.map((s) => (
                    <option key={s} value={s}>
                      {t.initializeFirstChoices[s]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field checkbox">
                <label>
                  <input type="checkbox" name="includeLeft" value="1" defaultChecked={query.includeLeft} /> {t.includeLeft}
                </label>
              </div>
            </div>
          </details>
          <div className="filters-actions">
            <button type="submit">{t.submit}</button>
            {filtered ? (
              <Link className="button secondary" href={at("/")}>
                {t.clear}
              </Link>
            ) : null}
          </div>
        </form>
      </div>

      <section aria-labelledby="servers-h">
        {query.observationUnknown ? (
          <p className="form-error" role="alert">
            {t.unknownObservation}
          </p>
        ) : null}
        <div className="servers-head">
          <h2 id="servers-h">{t.serversH}</h2>
          <p role="status">
            {list.total === 0
              ? t.noMatch
              : t.showing(
                  list.total,
                  filtered,
                  (list.page - 1) * list.pageSize + 1,
                  Math.min(list.total, list.page * list.pageSize),
                  query.sort,
                  query.order,
                )}
          </p>
        </div>

        {list.rows.length > 0 ? (
          <ServerTable
            rows={list.rows}
            query={query}
            history={history}
            now={now}
            observations={observationColumn ? observations : null}
            lang={lang}
          />
        ) : null}

        {pages > 1 ? (
          <nav className="pager" aria-label={t.pages}>
            {list.page > 1 ? (
              <Link rel="prev" href={at(indexHref({ ...query, page: list.page - 1 }))}>
                {t.previous}
              </Link>
            ) : null}
            <span className="current" aria-current="page">
              {t.pageOf(list.page, pages)}
            </span>
            {list.page < pages ? (
              <Link rel="next" href={at(indexHref({ ...query, page: list.page + 1 }))}>
                {t.next}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
      <RenderStamp note={t.stamp} lang={lang} />
    </>
  );
}
