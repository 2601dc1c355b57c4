import Link from "next/link";
import { CHECK_IDS, CHECK_STATES, type CheckState } from "@/lib/checks/vocabulary";
import { CHECK_LABELS, SORT_LABELS, SORT_ORDER_WORDS, STATE_LABELS } from "@/lib/site/labels";
import { counted, WORDS } from "@/lib/site/plural";
import { SERVER_SORTS } from "@/lib/store/vocabulary";
import { getConfig } from "@/lib/config";
import { summaryCounts } from "@/lib/store/servers/counts";
import { listServers, SORT_DEFAULT_ORDER } from "@/lib/store/servers/list";
import { formatCount } from "@/lib/site/format";
import { indexHref, type IndexQuery } from "@/lib/site/query";
import { historyDays } from "@/lib/store/history";
import { historyFromDay } from "@/lib/site/history";
import { RenderStamp } from "./RenderStamp";
import { StateChip } from "./StateChip";
import { ServerTable } from "./index/ServerTable";
import { siteDb } from "../_lib/db";

const PAGE_SIZE = 50;

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
export function IndexView({ query }: { query: IndexQuery }) {
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
  const filtered = query.q !== "" || Object.keys(query.states).length > 0 || query.includeLeft || query.overall !== undefined;

  return (
    <>
      <h1>Remote MCP servers, as a careful client sees them</h1>
      <p className="lede">
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

      <section aria-labelledby="summary-h">
        <h2 id="summary-h">Summary: {counted(counts.servers, WORDS.server)} in the registry</h2>
        <table className="summary-table stack">
          <caption className="visually-hidden">Servers per check and state; each number links to that filter</caption>
          <thead>
            <tr>
              <th scope="col">Check</th>
              {CHECK_STATES.map((s) => (
                <th scope="col" key={s}>
                  <StateChip state={s} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr className="summary-overall">
              <th scope="row">Overall</th>
              {CHECK_STATES.map((s) => (
                <td key={s} data-label={STATE_LABELS.en[s]}>
                  <Link
                    href={indexHref({ overall: s })}
                    aria-label={`Overall ${STATE_LABELS.en[s]}: ${counted(counts.byOverall[s], WORDS.server)}`}
                  >
                    {formatCount(counts.byOverall[s])}
                  </Link>
                </td>
              ))}
            </tr>
            {CHECK_IDS.map((id) => (
              <tr key={id}>
                <th scope="row">{CHECK_LABELS.en[id]}</th>
                {CHECK_STATES.map((s) => (
                  <td key={s} data-label={STATE_LABELS.en[s]}>
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
      </section>

      <section aria-labelledby="servers-h">
        <h2 id="servers-h">Servers</h2>
        {/* Keyed by the query: client navigation (a sort header, a page link) reuses this tree, and the
            fields' defaults only apply to a form that mounts anew. */}
        <form key={indexHref(query)} method="get" action="/" className="filters" role="search" aria-label="Search and filter servers">
          <div className="field">
            <label htmlFor="q">Name contains</label>
            <input id="q" name="q" type="search" defaultValue={query.q} placeholder="io.github.example/server" />
          </div>
          <StateSelect name="overall" label="Overall" value={query.overall} />
          {CHECK_IDS.map((id) => (
            <StateSelect key={id} name={id} label={CHECK_LABELS.en[id]} value={query.states[id]} />
          ))}
          <div className="field">
            <label htmlFor="f-sort">Sort by</label>
            <select id="f-sort" name="sort" defaultValue={query.sort}>
              {SERVER_SORTS.map((s) => (
                <option key={s} value={s}>
                  {`${SORT_LABELS[s]} (${SORT_ORDER_WORDS[s][SORT_DEFAULT_ORDER[s]]})`}
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
          <button type="submit">Show servers</button>
          {filtered ? (
            <Link className="button secondary" href="/">
              Clear
            </Link>
          ) : null}
        </form>

        <p role="status">
          {list.total === 0
            ? "No server matches."
            : `${counted(list.total, filtered ? WORDS.serverMatch : WORDS.server)}; showing ${formatCount((list.page - 1) * list.pageSize + 1)}–${formatCount(Math.min(list.total, list.page * list.pageSize))}, ${SORT_LABELS[query.sort].toLowerCase()} ${SORT_ORDER_WORDS[query.sort][query.order]}.`}
        </p>

        {list.rows.length > 0 ? <ServerTable rows={list.rows} query={query} history={history} now={now} /> : null}

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
