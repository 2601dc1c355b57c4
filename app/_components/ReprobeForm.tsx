import { getConfig } from "@/lib/config";
import { formatUtc } from "@/lib/site/format";
import { FORM_KEY_META, issueFormToken, newFormKey, parseReprobeFlash, type ReprobeFlash } from "@/lib/site/reprobe-form";
import { localePath } from "@/lib/site/chrome";
import type { Lang } from "@/lib/site/labels";
import { runPath } from "@/lib/site/paths";
import { REPROBE_TEXT } from "@/lib/site/server-text";
import { serverIdByName } from "@/lib/store/history";
import { metaOnce, reprobeStatus, type ReprobeStatus } from "@/lib/store/reprobe";
import { siteDb } from "../_lib/db";

function refusal(flash: ReprobeFlash, minMinutes: number, hourlyCap: number, lang: Lang): string {
  const t = REPROBE_TEXT[lang];
  const after = flash.retryAt ? t.tryAfter(formatUtc(flash.retryAt)) : "";
  switch (flash.outcome) {
    case "server_recent":
      return `${t.serverRecent(minMinutes)}${after}`;
    case "global_cap":
      return `${t.globalCap(hourlyCap)}${after}`;
    case "left_registry":
      return t.leftRegistry;
    case "form_expired":
      return t.formExpired;
  }
}

/** "Probe again now": a plain form (no JavaScript) posting to /api/reprobe, then the request's state. */
export function ReprobeForm(props: {
  name: string;
  token: string;
  status: ReprobeStatus | null;
  flash: ReprobeFlash | null;
  minMinutes: number;
  hourlyCap: number;
  leftRegistry: boolean;
  optedOut: boolean;
  lang?: Lang;
}) {
  const { status, flash } = props;
  const lang = props.lang ?? "en";
  const t = REPROBE_TEXT[lang];
  const refused = flash ? refusal(flash, props.minMinutes, props.hourlyCap, lang) : null;
  return (
    <section id="reprobe" aria-labelledby="reprobe-h">
      <h2 id="reprobe-h">{t.h}</h2>
      {props.leftRegistry ? (
        <p>{t.leftText}</p>
      ) : props.hourlyCap === 0 ? (
        <p>{t.off}</p>
      ) : (
        <>
          {props.optedOut ? <p>{t.optedOut}</p> : null}
          <p>{t.intro(props.minMinutes, props.hourlyCap)}</p>
          <form method="post" action="/api/reprobe" className="reprobe-form">
            <input type="hidden" name="server" value={props.name} />
            <input type="hidden" name="token" value={props.token} />
            {lang === "en" ? null : <input type="hidden" name="lang" value={lang} />}
            <button type="submit">{t.button}</button>
          </form>
        </>
      )}
      <div role="status" className="reprobe-status">
        {refused ? <p className="notice warn">{refused}</p> : null}
        {status ? (
          status.probe ? (
            <p>
              {t.requestedAt}
              <time dateTime={status.requestedAt}>{formatUtc(status.requestedAt)}</time>
              {t.probedSep}
              <strong>
                {t.probedAt}
                <time dateTime={status.probe.finishedAt}>{formatUtc(status.probe.finishedAt)}</time>
              </strong>
              {status.probe.requests === 0 ? t.noRequest : ""}
              {t.probedOpen}
              <a href={localePath(lang, runPath(status.probe.runId))}>{t.runN(status.probe.runId)}</a>
              {t.probedEnd}
            </p>
          ) : (
            <p>
              {t.requestedAt}
              <time dateTime={status.requestedAt}>{formatUtc(status.requestedAt)}</time>
              {t.queuedSep}
              <strong>{t.queued}</strong>
              {t.queuedEnd}
            </p>
          )
        ) : null}
      </div>
    </section>
  );
}

/** The form with its token and the server's latest request, read at render time. */
export function ReprobeSection({
  name,
  leftRegistry,
  optedOut,
  query,
  lang = "en",
}: {
  name: string;
  leftRegistry: boolean;
  optedOut: boolean;
  query: Record<string, string | string[] | undefined>;
  lang?: Lang;
}) {
  const db = siteDb();
  const config = getConfig();
  const id = serverIdByName(db, name);
  return (
    <ReprobeForm
      name={name}
      token={issueFormToken(metaOnce(db, FORM_KEY_META, newFormKey), name, new Date())}
      status={id === null ? null : reprobeStatus(db, id, { minMinutes: config.reprobeMinMinutes })}
      flash={parseReprobeFlash(query)}
      minMinutes={config.reprobeMinMinutes}
      hourlyCap={config.reprobeHourlyCap}
      leftRegistry={leftRegistry}
      optedOut={optedOut}
      lang={lang}
    />
  );
}
