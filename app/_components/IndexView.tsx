import Link from "next/link";
import { CHECK_IDS, CHECK_STATES } from "@/lib/checks/vocabulary";
import { CHECK_LABELS, STATE_LABELS } from "@/lib/site/labels";
import { getConfig } from "@/lib/config";
import { listServers, summaryCounts } from "@/lib/store/servers";
import { formatCount, formatUtc } from "@/lib/site/format";
import { serverPath } from "@/lib/site/paths";
import { indexHref, type IndexQuery } from "@/lib/site/query";
import { Ago } from "./Ago";
import { HistoryStripCompact } from "./HistoryStrip";
import { historyDays } from "@/lib/store/history";
import { historyFromDay, stripDays } from "@/lib/site/history";
import { RenderStamp } from "./RenderStamp";
import { StateChip } from "./StateChip";
import { siteDb } from "../_lib/db";

const PAGE_SIZE = 50;

/** The index for one query: summary counts, the search form and one page of servers. */
export function IndexView({ query }: { query: IndexQuery }) {
  const db = siteDb();
  const counts = summaryCounts(db);
  const list = listServers(db, {
    q: query.q,
    states: query.states,
    page: query.page,
    pageSize: PAGE_SIZE,
    includeLeft: query.includeLeft,
  });
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const now = new Date();
  const history = historyDays(db, list.rows.map((r) => r.name), historyFromDay(now));
  const filtered = query.q !== "" || Object.keys(query.states).length > 0 || query.includeLeft;

  return (
    <>
      <h1>Remote MCP servers, as a careful client sees them</h1>
      <p className="lede">
        Every remote server in the official MCP registry, probed anonymously. Each check is Verified, Failed, Observed risk or
        Not checked, always with a one-sentence reason and the HTTP exchanges behind it.{" "}
        <Link href="/faq/observed-unsigned">What a verdict here is, and is not.</Link>
      </p>
      {getConfig().demo ? (
        <p className="notice" role="note">
          Demo mode: no <code>REGISTRY_URL</code> is set, so these servers are the built-in fixture fleet on loopback, each
          behaving one way on purpose, probed by the real probe. Set <code>REGISTRY_URL</code> to read a real registry.
        </p>
      ) : null}

      <section aria-labelledby="summary-h">
        <h2 id="summary-h">Summary: {formatCount(counts.servers)} servers in the registry</h2>
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
            {CHECK_IDS.map((id) => (
              <tr key={id}>
                <th scope="row">{CHECK_LABELS.en[id]}</th>
                {CHECK_STATES.map((s) => (
                  <td key={s} data-label={STATE_LABELS.en[s]}>
                    <Link href={indexHref({ states: { [id]: s } })} aria-label={`${CHECK_LABELS.en[id]} ${STATE_LABELS.en[s]}: ${counts.byCheck[id][s]} servers`}>
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
        <form method="get" action="/" className="filters" role="search" aria-label="Search and filter servers">
          <div className="field">
            <label htmlFor="q">Name contains</label>
            <input id="q" name="q" type="search" defaultValue={query.q} placeholder="io.github.example/server" />
          </div>
          {CHECK_IDS.map((id) => (
            <div className="field" key={id}>
              <label htmlFor={`f-${id}`}>{CHECK_LABELS.en[id]}</label>
              <select id={`f-${id}`} name={id} defaultValue={query.states[id] ?? ""}>
                <option value="">Any state</option>
                {CHECK_STATES.map((s) => (
                  <option key={s} value={s}>
                    {STATE_LABELS.en[s]}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <div className="field checkbox">
            <label>
              <input type="checkbox" name="includeLeft" value="1" defaultChecked={query.includeLeft} /> Include servers that left the registry
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
            : `${formatCount(list.total)} ${list.total === 1 ? "server" : "servers"}${filtered ? " match" : ""}; showing ${formatCount((list.page - 1) * list.pageSize + 1)}–${formatCount(Math.min(list.total, list.page * list.pageSize))}.`}
        </p>

        {list.rows.length > 0 ? (
          <table className="stack server-table">
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Host</th>
                <th scope="col">Era · revision</th>
                {CHECK_IDS.map((id) => (
                  <th scope="col" key={id}>
                    {CHECK_LABELS.en[id]}
                  </th>
                ))}
                <th scope="col">Last probed</th>
                <th scope="col">Last 90 days</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((row) => (
                <tr key={row.name}>
                  <td data-label="Server">
                    <Link className="server-name" href={serverPath(row.name)}>
                      {row.name}
                    </Link>
                    {row.title && row.title !== row.name ? <div className="sub">{row.title}</div> : null}
                    {row.leftRegistryAt ? <div className="sub">Left the registry {formatUtc(row.leftRegistryAt)}</div> : null}
                  </td>
                  <td data-label="Host">
                    <span className="sub">{row.host ?? "–"}</span>
                  </td>
                  <td data-label="Era · revision">
                    {row.era ? row.era : "–"}
                    {row.protocolVersion ? <div className="sub">{row.protocolVersion}</div> : null}
                  </td>
                  {CHECK_IDS.map((id) => (
                    <td key={id} data-label={CHECK_LABELS.en[id]}>
                      <StateChip state={row.states[id]} />
                    </td>
                  ))}
                  <td data-label="Last probed">
                    {row.lastProbedAt ? <Ago iso={row.lastProbedAt} /> : "not yet"}
                  </td>
                  <td data-label="Last 90 days">
                    <HistoryStripCompact days={stripDays(history.get(row.name) ?? [], now)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
