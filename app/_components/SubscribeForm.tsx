import { getConfig } from "@/lib/config";
import type { Lang } from "@/lib/site/labels";
import { EVENT_LABELS, parseSubscribeFlash, subscribeFlashText } from "@/lib/site/notify-text";
import { encodeName } from "@/lib/site/paths";
import { FORM_KEY_META, issueFormToken, newFormKey } from "@/lib/site/reprobe-form";
import { metaOnce } from "@/lib/store/reprobe";
import { DEFAULT_NOTIFICATION_EVENTS, PUBLIC_NOTIFICATION_EVENTS, type SubscribeFlash } from "@/lib/vocabulary/notifications";
import { siteDb } from "../_lib/db";

const TEXT = {
  en: {
    title: "Get told when it changes",
    intro:
      "By email or a webhook, without an account. State changes and incidents by default; tool changes and observations if you ask. At most one message an hour per subscription while a server flaps; every message has a link to change or stop them.",
    emailOff: "Email is off on this site (no mail server is set up); a webhook works.",
    channel: "Send to",
    email: "Email",
    webhook: "Webhook URL",
    address: "Email address or webhook URL",
    events: "Tell me about",
    submit: "Subscribe",
    notes:
      "An email address gets one confirmation link first (valid 7 days) and nothing else until it is opened. A webhook must answer a test message with a 2xx within 10 seconds; Slack and Discord webhook URLs get their own message shape, any other URL gets JSON signed with a secret shown once. Addresses are never shown or published.",
  },
  zh: {
    title: "变化时通知我",
    intro:
      "通过邮件或 webhook，无需账号。默认通知状态变化和故障；也可选择工具变化和观察。服务端反复变化时，每个订阅每小时最多一条消息；每条消息都带有更改或停止通知的链接。",
    emailOff: "本站未开启邮件（没有配置邮件服务器）；webhook 可用。",
    channel: "发送到",
    email: "邮件",
    webhook: "Webhook URL",
    address: "邮箱地址或 webhook URL",
    events: "通知我",
    submit: "订阅",
    notes:
      "邮箱会先收到一封确认链接（7 天内有效），打开前不会收到其他邮件。Webhook 必须在 10 秒内以 2xx 回应测试消息；Slack 和 Discord 的 webhook URL 使用各自的消息格式，其他 URL 收到用密钥签名的 JSON（密钥只显示一次）。地址从不显示或公开。",
  },
} as const;

/** The "Get told when it changes" form: a plain form (no JavaScript) posting to /api/servers/<name>/subscriptions with the
 * page's form key, and the outcome of the last post. */
export function SubscribeForm(props: {
  name: string;
  lang: Lang;
  token: string;
  emailOn: boolean;
  flash: SubscribeFlash | null;
  hourlyCap: number;
}) {
  const t = TEXT[props.lang];
  const flash = props.flash ? subscribeFlashText(props.lang, props.flash, props.hourlyCap) : null;
  const defaults = new Set<string>(DEFAULT_NOTIFICATION_EVENTS);
  return (
    // Folded like the page's other long sections (its heading stays in the outline), open when a post's outcome is shown.
    <section id="subscribe" aria-labelledby="subscribe-h" className="fold">
      <details open={flash !== null}>
        <summary>
          <h2 id="subscribe-h">{t.title}</h2>
        </summary>
        <p>{t.intro}</p>
        {props.emailOn ? null : <p className="notice">{t.emailOff}</p>}
        <div role="status">{flash ? <p className={`notice ${flash.ok ? "ok" : "warn"}`}>{flash.text}</p> : null}</div>
        {props.hourlyCap === 0 ? null : (
          <form method="post" action={`/api/servers/${encodeName(props.name)}/subscriptions`} className="subscribe-form">
            <input type="hidden" name="token" value={props.token} />
            <input type="hidden" name="lang" value={props.lang} />
            <fieldset>
              <legend>{t.channel}</legend>
              <label>
                <input type="radio" name="channel" value="email" defaultChecked={props.emailOn} disabled={!props.emailOn} /> {t.email}
              </label>
              <label>
                <input type="radio" name="channel" value="webhook" defaultChecked={!props.emailOn} /> {t.webhook}
              </label>
            </fieldset>
            <label className="subscribe-address">
              {t.address}
              <input type="text" name="address" required maxLength={2048} autoComplete="email" inputMode="email" spellCheck={false} />
            </label>
            <fieldset>
              <legend>{t.events}</legend>
              {PUBLIC_NOTIFICATION_EVENTS.map((e) => (
                <label key={e}>
                  <input type="checkbox" name="events" value={e} defaultChecked={defaults.has(e)} /> {EVENT_LABELS[props.lang][e]}
                </label>
              ))}
            </fieldset>
            <button type="submit">{t.submit}</button>
          </form>
        )}
        <p className="sub">{t.notes}</p>
      </details>
    </section>
  );
}

/** The form with its form key and the outcome of the last post, read at render time. */
export function SubscribeSection({
  name,
  lang,
  query,
}: {
  name: string;
  lang: Lang;
  query: Record<string, string | string[] | undefined>;
}) {
  const config = getConfig();
  const raw = query.subscribe;
  return (
    <SubscribeForm
      name={name}
      lang={lang}
      token={issueFormToken(metaOnce(siteDb(), FORM_KEY_META, newFormKey), name, new Date())}
      emailOn={config.notifications.smtpUrl !== undefined}
      flash={parseSubscribeFlash(Array.isArray(raw) ? raw[0] : raw)}
      hourlyCap={config.notifications.subscribeHourlyCap}
    />
  );
}
