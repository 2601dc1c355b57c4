import Link from "next/link";
import { CHECK_IDS, CHECK_STATES, OBSERVATION_CODES, type CheckState } from "@/lib/vocabulary/checks";
import { CHECK_LABELS, SORT_LABELS, SORT_ORDER_WORDS, STATE_LABELS, type Lang } from "@/lib/site/labels";
import { localePath } from "@/lib/site/chrome";
import { counted, WORDS } from "@/lib/site/plural";
import { SERVER_SORTS } from "@/lib/vocabulary/store";
import { getConfig } from "@/lib/config";
import { summaryCounts } from "@/lib/store/servers/counts";
import { listServers } from "@/lib/store/servers/list";
import { formatCount } from "@/lib/site/format";
import { indexHref, UNKNOWN_OBSERVATION_FILTER, type IndexQuery } from "@/lib/site/query";
import { historyDays } from "@/lib/store/history";
import { historyFromDay } from "@/lib/site/history";
import { observationCountsByName } from "@/lib/store/observations";
import { INITIALIZE_FIRST_STATES } from "@/lib/vocabulary/clients";
import { RenderStamp } from "./RenderStamp";
import { StateChip } from "./StateChip";
import { ServerTable } from "./index/ServerTable";
import { siteDb } from "../_lib/db";

const PAGE_SIZE = 50;

/** The sort's choices, short enough for a quarter of the panel: the column headers say the rest. */
const SORT_CHOICES: Record<(typeof SERVER_SORTS)[number], string> = {
  name: "Name, A to Z",
  overall: "Worst first",
  last_probed: "Newest probe",
};

/** The clients filter's choices (architecture.md §2.10), worded as what the list then holds. */
const INITIALIZE_FIRST_OPTIONS: Record<(typeof INITIALIZE_FIRST_STATES)[number], string> = {
  yes: "can connect",
  no: "cannot connect",
  unknown: "not known",
};

/** One state filter of the search form: "any state" or one of the four. */
function StateSelect({ name, label, value }: { name: string; label: string; value: CheckState | undefined }) {
  return (
    <div className="field">
      <label htmlFor={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name} defaultValue={value ?? ""}>
        <option value="">Any state</option>
        {CHECK_STATES.map((s) => (
          <option key={s} value={s}>
            {STATE_LABELS.en[s]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The index for one query: summary counts, the search form and one page of servers. */
export function IndexView({ query, lang }: { query: IndexQuery; lang: Lang }) {
  const at = (path: string) => localePath(lang, path);
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
      <h1 className="index-h1">Remote MCP servers, as a careful client sees them</h1>
      <p className="lede index-lede">
        Every remote server in the official MCP registry, probed anonymously. Each check is Verified, Failed, Observed risk or Not checked,
        always with a one-sentence reason and the HTTP exchanges behind it.{" "}
        <Link href="/faq/observed-unsigned">What a verdict here is, and is not.</Link>
      </p>
      {getConfig().demo ? (
        <p className="notice" role="note">
          Demo mode: no <code>REGISTRY_URL</code> is set, so these servers are the built-in fixture fleet on loopback, each behaving one way
          on purpose, probed by the real probe. Set <code>REGISTRY_URL</code> to read a real registry.
        </p>
      ) : null}

      {/* architecture.md §4's index at 1280×800: the summary and the search form side by side and compact, so the first
          server rows are on the first screen. */}
      <div className="index-top">
        <section aria-labelledby="summary-h" className="index-summary">
          <h2 id="summary-h">Summary: {counted(counts.servers, WORDS.server)} in the registry</h2>
          <details className="fold-narrow" open={filtered}>
            <summary>
              {CHECK_STATES.map((s) => `${formatCount(counts.byOverall[s])} ${STATE_LABELS.en[s]}`).join(" · ")}{" "}
              <span className="sub">(overall; per check)</span>
            </summary>
            <p className="scroll-note sub" aria-hidden="true">
              Six columns: scroll the table sideways for every check →
            </p>
            <div className="summary-scroll" tabIndex={0} role="region" aria-label="Summary by state and check">
              <table className="summary-table">
                <caption className="visually-hidden">Servers per state, overall and per check; each number links to that filter</caption>
                <thead>
                  <tr>
                    <th scope="col">State</th>
                    <th scope="col">Overall</th>
                    {CHECK_IDS.map((id) => (
                      <th scope="col" key={id}>
                        {CHECK_LABELS.en[id]}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {CHECK_STATES.map((s) => (
                    <tr key={s}>
                      <th scope="row">
                        <StateChip state={s} />
                      </th>
                      <td className="summary-overall">
                        <Link
                          href={indexHref({ overall: s })}
                          aria-label={`Overall ${STATE_LABELS.en[s]}: ${counted(counts.byOverall[s], WORDS.server)}`}
                        >
                          {formatCount(counts.byOverall[s])}
                        </Link>
                      </td>
                      {CHECK_IDS.map((id) => (
                        <td key={id}>
                          <Link
                            href={indexHref({ states: { [id]: s } })}
                            aria-label={`${CHECK_LABELS.en[id]} ${STATE_LABELS.en[s]}: ${counted(counts.byCheck[id][s], WORDS.server)}`}
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
        <form key={indexHref(query)} method="get" action={at("/")} className="filters" role="search" aria-label="Search and filter servers">
          <div className="field field-q">
            <label htmlFor="q">Name contains</label>
            <input id="q" name="q" type="search" defaultValue={query.q} placeholder="io.github.example/server" />
          </div>
          <StateSelect name="overall" label="Overall" value={query.overall} />
          <div className="field">
            <label htmlFor="f-sort">Sort by</label>
            <select id="f-sort" name="sort" defaultValue={query.sort}>
              {SERVER_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_CHOICES[s]}
                </option>
              ))}
            </select>
          </div>
          <details className="fold-narrow more-filters" open={checkFiltered}>
            <summary>Filter by check, observation or client, or include servers that left the registry</summary>
            <div className="more-fields">
              {CHECK_IDS.map((id) => (
                <StateSelect key={id} name={id} label={CHECK_LABELS.en[id]} value={query.states[id]} />
              ))}
              <div className="field">
                <label htmlFor="f-observation">Observation</label>
                <select id="f-observation" name="observation" defaultValue={query.observation ?? ""} aria-describedby="observation-help">
                  <option value="">any or none</option>
                  <option value="any">at least one</option>
                  {OBSERVATION_CODES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
                <span id="observation-help" className="visually-hidden">
                  Facts about the tool definitions of the latest complete read, never verdicts.
                </span>
              </div>
              <div className="field">
                <label htmlFor="f-initializeFirst">Initialize-first clients</label>
                <select id="f-initializeFirst" name="initializeFirst" defaultValue={query.initializeFirst ?? ""}>
                  <option value="">Any</option>
                  {INITIALIZE_FIRST_STATES.map((s) => (
                    <option key={s} value={s}>
                      {INITIALIZE_FIRST_OPTIONS[s]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field checkbox">
                <label>
                  <input type="checkbox" name="includeLeft" value="1" defaultChecked={query.includeLeft} /> Include servers that left the
                  registry
                </label>
              </div>
            </div>
          </details>
          <div className="filters-actions">
            <button type="submit">Show servers</button>
            {filtered ? (
              <Link className="button secondary" href={at("/")}>
                Clear
              </Link>
            ) : null}
          </div>
        </form>
      </div>

      <section aria-labelledby="servers-h">
        {query.observationUnknown ? (
          <p className="form-error" role="alert">
            {UNKNOWN_OBSERVATION_FILTER}
          </p>
        ) : null}
        <div className="servers-head">
          <h2 id="servers-h">Servers</h2>
          <p role="status">
            {list.total === 0
              ? "No server matches."
              : `${counted(list.total, filtered ? WORDS.serverMatch : WORDS.server)}; showing ${formatCount((list.page - 1) * list.pageSize + 1)}–${formatCount(Math.min(list.total, list.page * list.pageSize))}, ${SORT_LABELS[query.sort].toLowerCase()} ${SORT_ORDER_WORDS[query.sort][query.order]}.`}
          </p>
        </div>

        {list.rows.length > 0 ? (
          <ServerTable rows={list.rows} query={query} history={history} now={now} observations={observationColumn ? observations : null} />
        ) : null}

        {pages > 1 ? (
          <nav className="pager" aria-label="Pages">
            {list.page > 1 ? (
              <Link rel="prev" href={indexHref({ ...query, page: list.page - 1 })}>
                ← Previous
              </Link>
            ) : null}
            <span className="current" aria-current="page">
              Page {list.page} of {pages}
            </span>
            {list.page < pages ? (
              <Link rel="next" href={indexHref({ ...query, page: list.page + 1 })}>
                Next →
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
      <RenderStamp note="this list is rendered again when a round finishes." />
    </>
  );
}
