import { formatDuration, formatUtc } from "@/lib/site/format";
import { NOT_CHECKED_CAUSE_LABELS } from "@/lib/site/labels";
import { counted, WORDS } from "@/lib/site/plural";
import type { ServerDetail } from "@/lib/store/servers/detail";
import { Ago } from "../Ago";

function NextProbe({ detail }: { detail: ServerDetail }) {
  const { schedule } = detail;
  return (
    <>
      {detail.leftRegistryAt ? (
        "none (left the registry)"
      ) : schedule.nextDueAt ? (
        <>
          <Ago iso={schedule.nextDueAt} withUtc />
          {schedule.scheduleReason ? `: ${schedule.scheduleReason}` : ""}
        </>
      ) : (
        "with the next round"
      )}
      {schedule.consecutiveFailures > 0 ? ` · ${counted(schedule.consecutiveFailures, WORDS.failedProbeInARow)}` : ""}
    </>
  );
}

/** When the server was last probed; a server judged without a request (opted out, needs configuration) says so
 * rather than "not yet" beside the days its history shows. */
function LastProbed({ detail }: { detail: ServerDetail }) {
  const run = detail.latestRun;
  if (detail.lastProbedAt) {
    return (
      <>
        <Ago iso={detail.lastProbedAt} withUtc />
        {run ? `, ${counted(run.requests, WORDS.request)} in ${formatDuration(run.durationMs)}` : ""}
      </>
    );
  }
  if (run) {
    const kind = detail.overall === "not_checked" && detail.overallCause ? ` (${NOT_CHECKED_CAUSE_LABELS.en[detail.overallCause]})` : "";
    return (
      <>
        no request sent{kind}; last judged <Ago iso={run.startedAt} withUtc />
      </>
    );
  }
  return <>not yet</>;
}

/** Listed, withdrawn by its owner in the registry (deprecated or deleted: no longer probed), or gone from the listing. */
function RegistryStanding({ detail }: { detail: ServerDetail }) {
  const since = detail.leftRegistryAt ? formatUtc(detail.leftRegistryAt) : null;
  switch (detail.registryStatus) {
    case "active":
      return <>{since ? `left the registry ${since}` : "active"}</>;
    case "deprecated":
    case "deleted":
      return <>{`${detail.registryStatus} by its owner${since ? `, not probed since ${since}` : ""}`}</>;
    case "left":
      return <>{since ? `left the registry ${since}` : "left the registry"}</>;
  }
}

/** Where the server is, what it speaks, and when it was and will be probed. */
export function ServerFacts({ detail }: { detail: ServerDetail }) {
  return (
    <dl className="facts" id="server-facts">
      <dt>Remote URL</dt>
      <dd>{detail.remoteUrl ? <code>{detail.remoteUrl}</code> : "none listed"}</dd>
      <dt>Transport</dt>
      <dd>{detail.transport ?? "–"}</dd>
      <dt>Registry status</dt>
      <dd>
        <RegistryStanding detail={detail} />
        {detail.version ? ` · version ${detail.version}` : ""}
        {detail.registryStatusMessage ? (
          <>
            {" · its owner wrote: "}
            <q className="owner-words" id="registry-status-message">
              {detail.registryStatusMessage}
            </q>
          </>
        ) : null}
      </dd>
      <dt>Era · revision</dt>
      <dd>
        {detail.era ?? "–"}
        {detail.protocolVersion ? ` · ${detail.protocolVersion}` : ""}
      </dd>
      <dt>Last probed</dt>
      <dd>
        <LastProbed detail={detail} />
      </dd>
      <dt>Last complete read</dt>
      <dd>{detail.lastSuccessAt ? <Ago iso={detail.lastSuccessAt} withUtc /> : "never: the tool list has not been read to its end yet"}</dd>
      <dt>Next probe</dt>
      <dd>
        <NextProbe detail={detail} />
      </dd>
    </dl>
  );
}
