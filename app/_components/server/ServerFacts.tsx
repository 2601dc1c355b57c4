import { formatDuration, formatUtc } from "@/lib/site/format";
import { overallState } from "@/lib/site/states";
import type { ServerDetail } from "@/lib/store/servers";
import { Ago } from "../Ago";
import { StateChip } from "../StateChip";

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
      {schedule.consecutiveFailures > 0 ? ` · ${schedule.consecutiveFailures} failed probes in a row` : ""}
    </>
  );
}

/** The server at a glance: overall state, where it is, what it speaks, and when it was and will be probed. */
export function ServerFacts({ detail }: { detail: ServerDetail }) {
  return (
    <dl className="facts">
      <dt>Overall</dt>
      <dd>
        <StateChip state={overallState(detail.states)} />
      </dd>
      <dt>Remote URL</dt>
      <dd>{detail.remoteUrl ? <code>{detail.remoteUrl}</code> : "none listed"}</dd>
      <dt>Transport</dt>
      <dd>{detail.transport ?? "–"}</dd>
      <dt>Registry status</dt>
      <dd>
        {detail.leftRegistryAt ? `left the registry ${formatUtc(detail.leftRegistryAt)}` : detail.registryStatus}
        {detail.version ? ` · version ${detail.version}` : ""}
      </dd>
      <dt>Era · revision</dt>
      <dd>
        {detail.era ?? "–"}
        {detail.protocolVersion ? ` · ${detail.protocolVersion}` : ""}
      </dd>
      <dt>Last probed</dt>
      <dd>
        {detail.lastProbedAt ? (
          <>
            <Ago iso={detail.lastProbedAt} withUtc />
            {detail.latestRun ? `, ${detail.latestRun.requests} requests in ${formatDuration(detail.latestRun.durationMs)}` : ""}
          </>
        ) : (
          "not yet"
        )}
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
