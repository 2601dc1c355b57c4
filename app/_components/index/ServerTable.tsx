import Link from "next/link";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { formatUtc } from "@/lib/site/format";
import { stripDays } from "@/lib/site/history";
import { CHECK_LABELS, NOT_CHECKED_CAUSE_LABELS, SORT_ORDER_WORDS } from "@/lib/site/labels";
import { serverPath } from "@/lib/site/paths";
import { indexHref, type IndexQuery } from "@/lib/site/query";
import type { HistoryDay } from "@/lib/store/history";
import { SORT_DEFAULT_ORDER, type ServerSummary } from "@/lib/store/servers/list";
import type { ServerSort } from "@/lib/vocabulary/store";
import { Ago } from "../Ago";
import { HistoryStripCompact } from "../HistoryStrip";
import { StateChip } from "../StateChip";

/** A column header that sorts by it: the first click in the sort's natural order, the next one reversed. */
function SortHeader({ sort, query, children, className }: { sort: ServerSort; query: IndexQuery; children: string; className?: string }) {
  const active = query.sort === sort;
  const order = active ? (query.order === "asc" ? "desc" : "asc") : SORT_DEFAULT_ORDER[sort];
  const ariaSort = active ? (query.order === "asc" ? "ascending" : "descending") : undefined;
  return (
    <th scope="col" aria-sort={ariaSort} className={className}>
      <Link href={indexHref({ ...query, sort, order, page: 1 })}>
        {children}
        {active ? <span aria-hidden="true">{query.order === "asc" ? " ▴" : " ▾"}</span> : null}
        <span className="visually-hidden"> (sort {SORT_ORDER_WORDS[sort][order]})</span>
      </Link>
    </th>
  );
}

/** Why a server that was judged has no probe time: nothing was sent to it (opted out, needs configuration). */
function LastProbed({ row }: { row: ServerSummary }) {
  if (row.lastProbedAt) return <Ago iso={row.lastProbedAt} />;
  if (row.overall === "not_checked" && row.overallCause) return <>no request sent ({NOT_CHECKED_CAUSE_LABELS.en[row.overallCause]})</>;
  return <>not yet</>;
}

/** Title, host, era and revision on one line under the name (cut with an ellipsis; the whole line as tooltip), so a
 * long name can take three lines and the row still stays short. */
function ServerSub({ row }: { row: ServerSummary }) {
  const line = [
    row.title && row.title !== row.name ? row.title : null,
    row.host,
    row.era && row.era !== "unknown" ? row.era : null,
    row.protocolVersion,
  ]
    .filter(Boolean)
    .join(" · ");
  return line ? (
    <div className="sub one-line" title={line}>
      {line}
    </div>
  ) : null;
}

/** One page of the server index: name, overall state, the five checks, the last probe and 90 days. */
export function ServerTable({
  rows,
  query,
  history,
  now,
}: {
  rows: ServerSummary[];
  query: IndexQuery;
  history: Map<string, HistoryDay[]>;
  now: Date;
}) {
  return (
    <table className="stack server-table">
      <colgroup>
        <col className="col-server" />
        <col className="col-state" />
        {CHECK_IDS.map((id) => (
          <col key={id} className="col-state" />
        ))}
        <col className="col-probed" />
      </colgroup>
      <thead>
        <tr>
          <SortHeader sort="name" query={query}>
            Server
          </SortHeader>
          <SortHeader sort="overall" query={query}>
            Overall
          </SortHeader>
          {CHECK_IDS.map((id) => (
            <th scope="col" key={id}>
              {CHECK_LABELS.en[id]}
            </th>
          ))}
          <SortHeader sort="last_probed" query={query}>
            Last probed · 90 days
          </SortHeader>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <td data-label="Server" className="cell-server">
              <Link className="server-name" href={serverPath(row.name)}>
                {row.name}
              </Link>
              <ServerSub row={row} />
              {row.leftRegistryAt ? <div className="sub">Left the registry {formatUtc(row.leftRegistryAt)}</div> : null}
            </td>
            <td data-label="Overall" className="cell-overall">
              <StateChip state={row.overall} cause={row.overallCause} />
            </td>
            {CHECK_IDS.map((id) => (
              <td key={id} data-label={CHECK_LABELS.en[id]}>
                <StateChip state={row.states[id]} cause={row.notCheckedCauses[id]} />
              </td>
            ))}
            <td data-label="Last probed" className="cell-probed">
              <LastProbed row={row} />
              <HistoryStripCompact days={stripDays(history.get(row.name) ?? [], now)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
