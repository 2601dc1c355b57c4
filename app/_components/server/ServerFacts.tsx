import { formatUtc } from "@/lib/site/format";
import { formatDurationIn } from "@/lib/site/format-zh";
import { NOT_CHECKED_CAUSE_LABELS, type Lang } from "@/lib/site/labels";
import { counted, WORDS } from "@/lib/site/plural";
import { SERVER_TEXT } from "@/lib/site/server-text";
import type { ServerDetail } from "@/lib/store/servers/detail";
import { Ago } from "../Ago";
import { Stored } from "../Stored";

function NextProbe({ detail, lang }: { detail: ServerDetail; lang: Lang }) {
  const { schedule } = detail;
  const t = SERVER_TEXT[lang];
  return (
    <>
      {detail.leftRegistryAt ? (
        t.nextNone
      ) : schedule.nextDueAt ? (
        <>
          <Ago iso={schedule.nextDueAt} withUtc lang={lang} />
          {schedule.scheduleReason ? (
            lang === "en" ? (
              `: ${schedule.scheduleReason}`
            ) : (
              <>
                {t.scheduleSep}
                <Stored lang={lang}>{schedule.scheduleReason}</Stored>
              </>
            )
          ) : (
            ""
          )}
        </>
      ) : (
        t.nextWithRound
      )}
      {schedule.consecutiveFailures > 0 ? `${t.failuresSep}${counted(schedule.consecutiveFailures, WORDS.failedProbeInARow, lang)}` : ""}
    </>
  );
}

/** When the server was last probed; a server judged without a request (opted out, needs configuration) says so
 * rather than "not yet" beside the days its history shows. */
function LastProbed({ detail, lang }: { detail: ServerDetail; lang: Lang }) {
  const run = detail.latestRun;
  const t = SERVER_TEXT[lang];
  if (detail.lastProbedAt) {
    return (
      <>
        <Ago iso={detail.lastProbedAt} withUtc lang={lang} />
        {run ? t.probedWith(counted(run.requests, WORDS.request, lang), formatDurationIn(lang, run.durationMs)) : ""}
      </>
    );
  }
  if (run) {
    const kind = detail.overall === "not_checked" && detail.overallCause ? NOT_CHECKED_CAUSE_LABELS[lang][detail.overallCause] : null;
    return (
      <>
        {t.noRequestSent(kind)}
        <Ago iso={run.startedAt} withUtc lang={lang} />
      </>
    );
  }
  return <>{t.notYet}</>;
}

/** Listed, withdrawn by its owner in the registry (deprecated or deleted: no longer probed), or gone from the listing. */
function RegistryStanding({ detail, lang }: { detail: ServerDetail; lang: Lang }) {
  const since = detail.leftRegistryAt ? formatUtc(detail.leftRegistryAt) : null;
  const t = SERVER_TEXT[lang];
  switch (detail.registryStatus) {
    case "active":
      return <>{since ? t.leftSince(since) : t.active}</>;
    case "deprecated":
    case "deleted":
      return <>{t.withdrawn(detail.registryStatus, since)}</>;
    case "left":
      return <>{since ? t.leftSince(since) : t.left}</>;
  }
}

/** Where the server is, what it speaks, and when it was and will be probed. */
export function ServerFacts({ detail, lang = "en" }: { detail: ServerDetail; lang?: Lang }) {
  const t = SERVER_TEXT[lang];
  return (
    <dl className="facts" id="server-facts">
      <dt>{t.dtRemote}</dt>
      <dd>{detail.remoteUrl ? <code>{detail.remoteUrl}</code> : t.noneListed}</dd>
      <dt>{t.dtTransport}</dt>
      <dd>{detail.transport ?? "–"}</dd>
      <dt>{t.dtRegistry}</dt>
      <dd>
        <RegistryStanding detail={detail} lang={lang} />
        {detail.version ? t.version(detail.version) : ""}
        {detail.registryStatusMessage ? (
          <>
            {t.ownerWrote}
            <q className="owner-words" id="registry-status-message" lang={lang === "en" ? undefined : "en"}>
              {detail.registryStatusMessage}
            </q>
          </>
        ) : null}
      </dd>
      <dt>{t.dtEra}</dt>
      <dd>
        {detail.era ?? "–"}
        {detail.protocolVersion ? ` · ${detail.protocolVersion}` : ""}
      </dd>
      <dt>{t.dtLastProbed}</dt>
      <dd>
        <LastProbed detail={detail} lang={lang} />
      </dd>
      <dt>{t.dtLastRead}</dt>
      <dd>{detail.lastSuccessAt ? <Ago iso={detail.lastSuccessAt} withUtc lang={lang} /> : t.neverRead}</dd>
      <dt>{t.dtNextProbe}</dt>
      <dd>
        <NextProbe detail={detail} lang={lang} />
      </dd>
    </dl>
  );
}
