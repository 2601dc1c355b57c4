import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { subscriptionPath } from "@/lib/rounds/notify/messages";
import { localePath } from "@/lib/site/chrome";
import { formatUtc } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { EVENT_LABELS, MANAGE_TEXT, subscriberLang } from "@/lib/site/notify-text";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { serverPath } from "@/lib/site/paths";
import { manageView, type ManageView } from "@/lib/store/subscriptions";
import { PUBLIC_NOTIFICATION_EVENTS } from "@/lib/vocabulary/notifications";
import { siteDb } from "../_lib/db";

/** The manage page (a capability URL): the subscriber by channel and shape, never its address, and every subscription it
 * holds, each with its events and an unsubscribe button; a paused webhook says why; one button deletes everything. */
export function ManageSubscriptions({ view, token, lang, done }: { view: ManageView; token: string; lang: Lang; done: string | null }) {
  const t = MANAGE_TEXT[lang];
  const doneText = done ? t.done[done] : undefined;
  return (
    <>
      <h1>{t.title}</h1>
      <p>{view.channel === "email" ? t.whoEmail : t.whoWebhook(t.shapes[view.flavor ?? "json"])}</p>
      <p className="sub">{t.keep}</p>
      <div role="status">
        {doneText ? (
          <p className={`notice ${done === "no_events" || done === "expired" || done === "unknown" ? "warn" : "ok"}`}>{doneText}</p>
        ) : null}
      </div>
      {view.pausedAt ? (
        <div className="notice bad">
          <p>{t.paused(formatUtc(view.failingSince ?? view.pausedAt), formatUtc(view.pausedAt))}</p>
          <form method="post" action={`/subscriptions/${token}/resume`}>
            <input type="hidden" name="back" value={token} />
            <button type="submit">{t.resume}</button>
          </form>
        </div>
      ) : view.failingSince ? (
        <p className="notice warn">{t.failing(formatUtc(view.failingSince))}</p>
      ) : null}
      {view.subscriptions.map((s) => (
        <section key={s.token} className="subscription" aria-label={s.server}>
          <h2>
            <Link href={localePath(lang, serverPath(s.server))}>{s.server}</Link>
          </h2>
          <p>
            {s.confirmedAt ? t.active(formatUtc(s.confirmedAt)) : t.waiting}
            {s.lastSentAt ? ` ${t.last(formatUtc(s.lastSentAt))}` : ""}
          </p>
          <form method="post" action={`/subscriptions/${s.token}/events`} className="subscribe-form">
            <input type="hidden" name="back" value={token} />
            <fieldset>
              <legend>{t.events}</legend>
              {PUBLIC_NOTIFICATION_EVENTS.map((e) => (
                <label key={e}>
                  <input type="checkbox" name="events" value={e} defaultChecked={s.events.includes(e)} /> {EVENT_LABELS[lang][e]}
                </label>
              ))}
            </fieldset>
            <button type="submit">{t.save}</button>
          </form>
          <form method="post" action={`/subscriptions/${s.token}/unsubscribe`}>
            <input type="hidden" name="back" value={token} />
            <button type="submit" className="button secondary">
              {t.unsubscribe}
            </button>
          </form>
          {view.channel === "webhook" && (view.flavor ?? "json") === "json" && s.confirmedAt ? (
            <form method="post" action={`/subscriptions/${s.token}/rotate`}>
              <input type="hidden" name="back" value={token} />
              <p className="sub">{t.rotateText}</p>
              <button type="submit" className="button secondary">
                {t.rotate}
              </button>
            </form>
          ) : null}
        </section>
      ))}
      <section aria-labelledby="delete-h">
        <h2 id="delete-h">{t.deleteTitle}</h2>
        <p>{t.deleteText}</p>
        <form method="post" action={`/subscriptions/${token}/delete`}>
          <input type="hidden" name="back" value={token} />
          <button type="submit" className="button secondary">
            {t.deleteButton}
          </button>
        </form>
      </section>
    </>
  );
}

/** GET /subscriptions/<token> and /zh/subscriptions/<token>: the subscriber's stored language picks the page's, and a link
 * opened in the other language is sent to its own (so the page, its menu and <html lang> agree); once the subscriber is gone
 * there is nothing stored, and the URL's language words the answer. */
export async function ManagePage({ token, urlLang, query }: { token: string; urlLang: Lang; query: SearchParams }) {
  const done = firstParam(query, "done") ?? null;
  const view = manageView(siteDb(), token);
  if (!view) {
    const gone = done ? MANAGE_TEXT[urlLang].gone[done] : undefined;
    if (gone)
      return (
        <div role="status">
          <h1>{MANAGE_TEXT[urlLang].title}</h1>
          <p className="notice ok">{gone}</p>
        </div>
      );
    notFound();
  }
  const lang = subscriberLang(view.lang);
  if (lang !== urlLang) redirect(`${localePath(lang, subscriptionPath(token))}${done ? `?${new URLSearchParams({ done })}` : ""}`);
  return <ManageSubscriptions view={view} token={token} lang={lang} done={done} />;
}

/** The page's <title> in the subscriber's language (else the URL's); never indexed, and no Referer leaves the site. */
export function manageMetadata(token: string, urlLang: Lang): Metadata {
  const view = manageView(siteDb(), token);
  const lang = view ? subscriberLang(view.lang) : urlLang;
  return { title: MANAGE_TEXT[lang].title, robots: { index: false, follow: false }, referrer: "same-origin" };
}
