import Link from "next/link";
import type { ReactNode } from "react";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { formatUtc } from "@/lib/site/format";
import { stripDays } from "@/lib/site/history";
import { CHECK_LABELS, NOT_CHECKED_CAUSE_LABELS, type Lang } from "@/lib/site/labels";
import { localePath } from "@/lib/site/chrome";
import { INDEX_TEXT } from "@/lib/site/list-text";
import { serverPath } from "@/lib/site/paths";
import { indexHref, type IndexQuery } from "@/lib/site/query";
import type { HistoryDay } from "@/lib/store/history";
import { SORT_DEFAULT_ORDER, type ServerSummary } from "@/lib/store/servers/list";
import type { ServerSort } from "@/lib/vocabulary/store";
import { Ago } from "../Ago";
import { HistoryStripCompact } from "../HistoryStrip";
import { StateChip } from "../StateChip";
import { Breakable } from "../Breakable";
import { StackTable, type StackColumn } from "../StackTable";
import { ObservationCodes, observationTotal, type ObservationCount } from "../ObservationCodes";

/** A column whose header sorts by it: the first click in the sort's natural order, the next one reversed. */
function sortColumn(
  sort: ServerSort,
  label: string,
  head: string,
  query: IndexQuery,
  lang: Lang,
  cell: (row: ServerSummary) => ReactNode,
  className: string,
): StackColumn<ServerSummary> {
  const active = query.sort === sort;
  const order = active ? (query.order === "asc" ? "desc" : "asc") : SORT_DEFAULT_ORDER[sort];
  return {
    label,
    // A plain link, a whole document load: in two full e2e runs, client navigation to another sort kept showing the
    // previous rows (cause not found), and a sorted table needs no client state.
    head: (
      <a href={localePath(lang, indexHref({ ...query, sort, order, page: 1 }))}>
        {head}
        {active ? <span aria-hidden="true">{query.order === "asc" ? " ▴" : " ▾"}</span> : null}
        <span className="visually-hidden">{INDEX_TEXT[lang].sortHint(sort, order)}</span>
      </a>
    ),
    headProps: { "aria-sort": active ? (query.order === "asc" ? "ascending" : "descending") : undefined },
    cellProps: () => ({ className }),
    cell,
  };
}

/** Why a server that was judged has no probe time: nothing was sent to it (opted out, needs configuration). */
function LastProbed({ row, lang }: { row: ServerSummary; lang: Lang }) {
  if (row.lastProbedAt) return <Ago iso={row.lastProbedAt} />;
  if (row.overall === "not_checked" && row.overallCause)
    return <>{INDEX_TEXT[lang].noRequestSent(NOT_CHECKED_CAUSE_LABELS[lang][row.overallCause])}</>;
  return <>{INDEX_TEXT[lang].notYet}</>;
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

/** The observations column's cell: how many, and which codes (architecture.md §2.9); empty when the read had none. */
function ObservationCell({ name, items, lang }: { name: string; items: readonly ObservationCount[]; lang: Lang }) {
  const t = INDEX_TEXT[lang];
  if (items.length === 0) return <span className="visually-hidden">{t.none}</span>;
  return (
    <>
      <Link href={`${localePath(lang, serverPath(name))}#observations-line`} className="obs-total">
        {observationTotal(items)}
        <span className="visually-hidden">{t.observationsAfterCount}</span>
      </Link>{" "}
      <span className="obs-codes" title={items.map((o) => (o.count > 1 ? `${o.code} ×${o.count}` : o.code)).join(", ")}>
        <ObservationCodes items={items} />
      </span>
    </>
  );
}

/** One page of the server index: name, overall state, the five checks, the last probe and 90 days; and the observations
 * when the reader filters by them or a row has some (`observations`, null for no column). On a narrow screen a row is
 * the name and the overall state only (and its observations), so the first servers show on the first screen. */
export function ServerTable({
  rows,
  query,
  history,
  now,
  observations = null,
  lang,
}: {
  rows: ServerSummary[];
  query: IndexQuery;
  history: Map<string, HistoryDay[]>;
  now: Date;
  observations?: Map<string, ObservationCount[]> | null;
  lang: Lang;
}) {
  const t = INDEX_TEXT[lang];
  return (
    <StackTable
      className={observations ? "server-table with-obs" : "server-table"}
      colgroup={
        <colgroup>
          <col className="col-server" />
          <col className="col-state" />
          {CHECK_IDS.map((id) => (
            <col key={id} className="col-state col-check" />
          ))}
          {observations ? <col className="col-obs" /> : null}
          <col className="col-probed" />
        </colgroup>
      }
      columns={[
        sortColumn(
          "name",
          t.server,
          t.server,
          query,
          lang,
          (row) => (
            <>
              <Link className="server-name" href={localePath(lang, serverPath(row.name))}>
                <Breakable text={row.name} after="/." />
              </Link>
              <ServerSub row={row} />
              {row.leftRegistryAt ? <div className="sub">{t.leftRegistry(formatUtc(row.leftRegistryAt))}</div> : null}
            </>
          ),
          "cell-server",
        ),
        sortColumn(
          "overall",
          t.overall,
          t.overall,
          query,
          lang,
          (row) => <StateChip state={row.overall} cause={row.overallCause} lang={lang} />,
          "cell-overall",
        ),
        ...CHECK_IDS.map((id): StackColumn<ServerSummary> => ({
          label: CHECK_LABELS[lang][id],
          headProps: { className: "th-check" },
          cellProps: () => ({ className: "cell-check" }),
          cell: (row) => <StateChip state={row.states[id]} cause={row.notCheckedCauses[id]} lang={lang} />,
        })),
        observations && {
          label: t.observations,
          head: t.observationsHead,
          cellProps: (row) => ({ className: (observations.get(row.name) ?? []).length === 0 ? "cell-obs cell-obs-none" : "cell-obs" }),
          cell: (row) => <ObservationCell name={row.name} items={observations.get(row.name) ?? []} lang={lang} />,
        },
        sortColumn(
          "last_probed",
          t.lastProbed,
          t.lastProbedHead,
          query,
          lang,
          (row) => (
            <>
              <LastProbed row={row} lang={lang} />
              <HistoryStripCompact days={stripDays(history.get(row.name) ?? [], now)} />
            </>
          ),
          "cell-probed",
        ),
      ]}
      rows={rows}
      rowKey={(row) => row.name}
    />
  );
}
