import Link from "next/link";
import { formatUtc } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { EVENT_LABELS } from "@/lib/site/notify-text";
import { serverPath } from "@/lib/site/paths";
import type { ManageView } from "@/lib/store/subscriptions";
import { PUBLIC_NOTIFICATION_EVENTS } from "@/lib/vocabulary/notifications";

const TEXT = {
  en: {
    title: "Your subscriptions",
    whoEmail: "These messages go to the email address this link was sent to. It is not shown here or anywhere on the site.",
    whoWebhook: (shape: string) => `These messages go to one webhook (${shape}). Its URL is not shown here or anywhere on the site.`,
    shapes: { json: "signed JSON", slack: "Slack's message shape", discord: "Discord's message shape" },
    keep: "This page's address is the key to these subscriptions: anyone with it can change them. Keep it private.",
    paused: (since: string, at: string) =>
      `Deliveries to this webhook have failed since ${since}, so on ${at} they were paused: nothing is sent until you resume them.`,
    failing: (since: string) => `Deliveries to this webhook have failed since ${since}; after 3 days of failures they are paused.`,
    resume: "Resume deliveries",
    server: "Server",
    state: "State",
    waiting: "Awaiting confirmation: open the link in the confirmation email.",
    active: (at: string) => `Active since ${at}.`,
    last: (at: string) => `Last message ${at}.`,
    events: "Events",
    save: "Save events",
    unsubscribe: "Unsubscribe",
    rotate: "New signing secret",
    rotateText:
      "Replaces the secret that signs messages for this server; the new one is shown once, and the old one stops working at once.",
    deleteTitle: "Delete everything",
    deleteText: "Removes every subscription above and deletes the address; nothing more is sent to it.",
    deleteButton: "Delete everything",
    done: {
      confirmed: "Confirmed: changes of this server will be sent here.",
      already_confirmed: "This subscription was already confirmed.",
      expired: "This confirmation link is older than 7 days. Subscribe again from the server page.",
      unsubscribed: "Unsubscribed: nothing more is sent for that server.",
      events: "Saved.",
      resumed: "Deliveries resumed.",
      no_events: "Choose at least one event, or unsubscribe.",
      rotate: "A new signing secret was made.",
      unknown: "That subscription no longer exists.",
    } as Record<string, string>,
  },
  zh: {
    title: "你的订阅",
    whoEmail: "这些消息发送到收到此链接的邮箱。本页和本站任何地方都不会显示该地址。",
    whoWebhook: (shape: string) => `这些消息发送到一个 webhook（${shape}）。本页和本站任何地方都不会显示其 URL。`,
    shapes: { json: "签名 JSON", slack: "Slack 消息格式", discord: "Discord 消息格式" },
    keep: "本页地址就是这些订阅的钥匙：任何拿到它的人都能更改它们。请勿公开。",
    paused: (since: string, at: string) => `自 ${since} 起向此 webhook 的投递一直失败，因此已于 ${at} 暂停：恢复前不会发送任何消息。`,
    failing: (since: string) => `自 ${since} 起向此 webhook 的投递一直失败；连续失败 3 天后将暂停。`,
    resume: "恢复投递",
    server: "服务器",
    state: "状态",
    waiting: "等待确认：请打开确认邮件中的链接。",
    active: (at: string) => `自 ${at} 起生效。`,
    last: (at: string) => `上一条消息：${at}。`,
    events: "事件",
    save: "保存事件",
    unsubscribe: "退订",
    rotate: "换新的签名密钥",
    rotateText: "替换为此服务器的消息签名的密钥；新密钥只显示一次，旧密钥立即失效。",
    deleteTitle: "全部删除",
    deleteText: "删除以上所有订阅并删除该地址；之后不会再发送任何消息。",
    deleteButton: "全部删除",
    done: {
      confirmed: "已确认：此服务器的变化将发送到这里。",
      already_confirmed: "此订阅已经确认过。",
      expired: "此确认链接已超过 7 天。请从服务器页面重新订阅。",
      unsubscribed: "已退订：该服务器不会再发送消息。",
      events: "已保存。",
      resumed: "已恢复投递。",
      no_events: "请至少选择一个事件，或者退订。",
      rotate: "已生成新的签名密钥。",
      unknown: "该订阅已不存在。",
    } as Record<string, string>,
  },
} as const;

/** The manage page (a capability URL): the subscriber by channel and shape, never its address, and every subscription it
 * holds, each with its events and an unsubscribe button; a paused webhook says why; one button deletes everything. */
export function ManageSubscriptions({ view, token, lang, done }: { view: ManageView; token: string; lang: Lang; done: string | null }) {
  const t = TEXT[lang];
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
            <Link href={serverPath(s.server)}>{s.server}</Link>
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
