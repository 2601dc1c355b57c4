import Link from "next/link";
import { formatUtc } from "@/lib/site/format";
import { localePath } from "@/lib/site/chrome";
import type { Lang } from "@/lib/site/labels";
import { INCIDENTS_TEXT } from "@/lib/site/list-text";
import { checkAnchor, runPath, serverPath } from "@/lib/site/paths";
import { formatIncidentDuration } from "@/lib/site/uptime";
import type { Incident } from "@/lib/store/incidents";
import { Ago } from "./Ago";
import { Breakable } from "./Breakable";
import { StackTable } from "./StackTable";

/** Incidents as a table, most recent first: when, how long, and the reason of the check that opened each. */
export function IncidentTable({ rows, showServer, lang = "en" }: { rows: Incident[]; showServer: boolean; lang?: Lang }) {
  const t = INCIDENTS_TEXT[lang];
  const at = (path: string) => localePath(lang, path);
  return (
    <StackTable
      className="incidents"
      columns={[
        showServer && {
          label: t.server,
          className: "server-name",
          cell: (i) => (
            <Link href={at(serverPath(i.serverName))}>
              <Breakable text={i.serverName} after="/." />
            </Link>
          ),
        },
        {
          label: t.started,
          cell: (i) => (
            <Link href={at(runPath(i.openedRunId))}>
              <time dateTime={i.startedAt}>{formatUtc(i.startedAt)}</time>
            </Link>
          ),
        },
        {
          label: t.ended,
          cell: (i) =>
            i.endedAt && i.closedRunId ? (
              <Link href={at(runPath(i.closedRunId))}>
                <time dateTime={i.endedAt}>{formatUtc(i.endedAt)}</time>
              </Link>
            ) : (
              <strong>{t.ongoing}</strong>
            ),
        },
        {
          label: t.duration,
          cell: (i) =>
            i.durationMs === null ? (
              // "Ongoing" is said once, in the Ended column.
              <>
                {t.opened}
                <Ago iso={i.startedAt} lang={lang} />
              </>
            ) : (
              formatIncidentDuration(i.durationMs, lang)
            ),
        },
        {
          label: t.openedBy,
          cell: (i) => (
            <>
              <Link href={at(`${serverPath(i.serverName)}#${checkAnchor(i.check)}`)}>{t.checkFailed(i.check)}</Link>
              {t.reasonAfter}
              {/* Stored reasons are English: marked so on a Chinese page. */}
              {lang === "en" ? i.reason : <span lang="en">{i.reason}</span>}
            </>
          ),
        },
      ]}
      rows={rows}
      rowKey={(i) => i.id}
      rowProps={(i) => ({ id: `incident-${i.id}`, className: i.endedAt ? undefined : "ongoing" })}
    />
  );
}
