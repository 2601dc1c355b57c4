import Link from "next/link";
import { formatUtc } from "@/lib/site/format";
import { CHECK_LABELS } from "@/lib/site/labels";
import { checkAnchor, runPath, serverPath } from "@/lib/site/paths";
import { formatIncidentDuration } from "@/lib/site/uptime";
import type { Incident } from "@/lib/store/incidents";
import { Ago } from "./Ago";
import { Breakable } from "./Breakable";

/** Incidents as a table, most recent first: when, how long, and the reason of the check that opened each. */
export function IncidentTable({ rows, showServer }: { rows: Incident[]; showServer: boolean }) {
  return (
    <table className="stack incidents">
      <thead>
        <tr>
          {showServer ? <th scope="col">Server</th> : null}
          <th scope="col">Started</th>
          <th scope="col">Ended</th>
          <th scope="col">Duration</th>
          <th scope="col">Opened by</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((i) => (
          <tr key={i.id} id={`incident-${i.id}`} className={i.endedAt ? undefined : "ongoing"}>
            {showServer ? (
              <td data-label="Server" className="server-name">
                <Link href={serverPath(i.serverName)}>
                  <Breakable text={i.serverName} after="/." />
                </Link>
              </td>
            ) : null}
            <td data-label="Started">
              <Link href={runPath(i.openedRunId)}>
                <time dateTime={i.startedAt}>{formatUtc(i.startedAt)}</time>
              </Link>
            </td>
            <td data-label="Ended">
              {i.endedAt && i.closedRunId ? (
                <Link href={runPath(i.closedRunId)}>
                  <time dateTime={i.endedAt}>{formatUtc(i.endedAt)}</time>
                </Link>
              ) : (
                <strong>Ongoing</strong>
              )}
            </td>
            <td data-label="Duration">
              {i.durationMs === null ? (
                // "Ongoing" is said once, in the Ended column.
                <>
                  opened <Ago iso={i.startedAt} />
                </>
              ) : (
                formatIncidentDuration(i.durationMs)
              )}
            </td>
            <td data-label="Opened by">
              <Link href={`${serverPath(i.serverName)}#${checkAnchor(i.check)}`}>{CHECK_LABELS.en[i.check]} Failed</Link>: {i.reason}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
