import type { CheckState } from "../vocabulary/checks";
import { SUBSCRIBE_FLASH_OUTCOMES, type NotificationEvent, type SubscribeFlash } from "../vocabulary/notifications";
import { STATE_LABELS, type Lang } from "./labels";

// The words of the messages subscribers get (architecture.md §10), in both languages, from the facts stored with each change.
// One sentence names what changed; the reason sentence is the check's own, as the server page shows it.

/** The facts a round stores with a change (the outbox's `facts`), as the JSON body carries them. */
export interface ChangeFacts {
  from?: CheckState | null;
  to?: CheckState | null;
  reason: string;
  at: string;
  /** tools_changed: how many tools were added, removed, changed. */
  tools?: { added: number; removed: number; changed: number };
  /** observations_changed: the codes of the latest complete read. */
  codes?: string[];
}

export const EVENT_LABELS: Record<Lang, Record<NotificationEvent, string>> = {
  en: {
    state_changed: "State changes",
    incident_opened: "Incidents opened",
    incident_resolved: "Incidents resolved",
    tools_changed: "Tool changes",
    observations_changed: "Observations on tool definitions",
    owner_configuration_refused: "The owner's configuration refused",
    owner_token_expiring: "The owner's token expiring",
  },
  zh: {
    state_changed: "状态变化",
    incident_opened: "事件开始",
    incident_resolved: "事件结束",
    tools_changed: "工具变化",
    observations_changed: "工具定义的观察",
    owner_configuration_refused: "所有者配置被拒绝",
    owner_token_expiring: "所有者令牌即将过期",
  },
};

const state = (lang: Lang, s: CheckState | null | undefined) => (s ? STATE_LABELS[lang][s] : lang === "zh" ? "无" : "none");

/** One line naming the server and what changed: an email's subject, a chat message's first line. */
export function changeHeadline(lang: Lang, server: string, event: NotificationEvent, f: ChangeFacts): string {
  const zh = lang === "zh";
  switch (event) {
    case "state_changed":
      return zh
        ? `${server}：${state(lang, f.from)} → ${state(lang, f.to)}`
        : `${server} is now ${state(lang, f.to)} (was ${state(lang, f.from)})`;
    case "incident_opened":
      return zh ? `${server}：事件开始，发现检查未通过` : `${server}: incident opened, discovery checks failed`;
    case "incident_resolved":
      return zh ? `${server}：事件结束，发现检查恢复` : `${server}: incident resolved, discovery checks pass again`;
    case "tools_changed": {
      const t = f.tools ?? { added: 0, removed: 0, changed: 0 };
      return zh
        ? `${server}：工具变化（新增 ${t.added}，移除 ${t.removed}，修改 ${t.changed}）`
        : `${server}: tools changed (${t.added} added, ${t.removed} removed, ${t.changed} changed)`;
    }
    case "observations_changed":
      return zh ? `${server}：工具定义的观察有变化` : `${server}: observations on its tool definitions changed`;
    case "owner_configuration_refused":
      return zh ? `${server}：服务器拒绝了所有者的配置` : `${server}: the server refused the owner's configuration`;
    case "owner_token_expiring":
      return zh ? `${server}：所有者的令牌即将过期` : `${server}: the owner's token expires soon`;
  }
}

/** "and N more changes", for a message that stands for several (the flap rule). */
export function foldedLine(lang: Lang, n: number): string | null {
  if (n <= 0) return null;
  if (lang === "zh") return `另有 ${n} 项变化已合并到本消息（每个订阅每小时最多一条消息）。`;
  return `And ${n} more ${n === 1 ? "change" : "changes"} since the last message (at most one message an hour per subscription).`;
}

export interface MessageLinks {
  page: string;
  manage: string;
  unsubscribe: string;
}

/** The plain-text body of a change email. */
export function changeEmailText(
  lang: Lang,
  server: string,
  event: NotificationEvent,
  f: ChangeFacts,
  folded: number,
  links: MessageLinks,
): string {
  const zh = lang === "zh";
  const more = foldedLine(lang, folded);
  return [
    changeHeadline(lang, server, event, f),
    "",
    f.reason,
    ...(more ? ["", more] : []),
    "",
    `${zh ? "报告" : "Report"}: ${links.page}`,
    "",
    "--",
    zh ? `管理或更改这些消息：${links.manage}` : `Manage or change these messages: ${links.manage}`,
    zh ? `退订：${links.unsubscribe}` : `Unsubscribe: ${links.unsubscribe}`,
  ].join("\n");
}

/** The confirmation email: a link and nothing else; nothing more is sent until it is opened. */
export function confirmationEmail(lang: Lang, server: string, confirmUrl: string, validDays: number): { subject: string; text: string } {
  if (lang === "zh")
    return {
      subject: `请确认：${server} 的变化通知`,
      text: [
        `有人（希望是你）请求在 ${server} 的状态变化时通知此地址。`,
        "",
        `确认请打开（${validDays} 天内有效）：`,
        confirmUrl,
        "",
        "如果不是你，请忽略此邮件：不确认就不会再收到任何邮件，未确认的地址会在 7 天后删除。",
      ].join("\n"),
    };
  return {
    subject: `Confirm: messages when ${server} changes`,
    text: [
      `Someone (we hope you) asked for this address to be told when ${server} changes.`,
      "",
      `To confirm, open this link (valid for ${validDays} days):`,
      confirmUrl,
      "",
      "If it was not you, ignore this email: nothing more is sent without a confirmation, and the address is deleted after 7 days.",
    ].join("\n"),
  };
}

/** The sentence of the test message a webhook must answer before it is subscribed. */
export function testMessageReason(server: string): string {
  return `Test message: this URL was subscribed to changes of ${server} on mcp-status; answer with a 2xx to confirm it.`;
}

/** The outcome a server page shows after its form's post (?subscribe=…); anything else shows nothing. */
export function parseSubscribeFlash(value: string | undefined): SubscribeFlash | null {
  return SUBSCRIBE_FLASH_OUTCOMES.find((o) => o === value) ?? null;
}

/** What the form says after a post, in the page's language; `ok` for the one outcome that is not a refusal. */
export function subscribeFlashText(lang: Lang, flash: SubscribeFlash, hourlyCap: number): { ok: boolean; text: string } {
  const zh = lang === "zh";
  const t = (en: string, cn: string) => ({ ok: false, text: zh ? cn : en });
  switch (flash) {
    case "confirmation_sent":
      return {
        ok: true,
        text: zh
          ? "确认邮件已发出：请打开其中的链接（7 天内有效）。确认之前不会再发送任何邮件。"
          : "A confirmation email is on its way: open its link (valid for 7 days). Nothing else is sent before you do.",
      };
    case "form_expired":
      return t(
        "The form was too old or not from this page. Reload the page and try again.",
        "表单已过期或不是来自本页。请刷新页面后重试。",
      );
    case "invalid_address":
      return t("That is not an email address or an http(s) webhook URL.", "这不是有效的邮箱地址或 http(s) webhook URL。");
    case "address_not_allowed":
      return t(
        "That webhook points at a private or loopback address, which this site does not send to. No request was made.",
        "该 webhook 指向私有或回环地址，本站不会向其发送。没有发出任何请求。",
      );
    case "webhook_test_failed":
      return t(
        "The webhook did not answer the test message with a 2xx within 10 seconds, so it was not subscribed.",
        "该 webhook 没有在 10 秒内以 2xx 回应测试消息，因此未订阅。",
      );
    case "unknown_event":
      return t("Choose events from the list.", "请从列表中选择事件。");
    case "unknown_server":
      return t("No server by that name.", "没有这个名称的服务器。");
    case "rate_limited":
      return t(
        `Too many sign-ups: at most ${hourlyCap} an hour from one address, and 3 confirmation emails a day to one email address. Try again later.`,
        `注册过多：每个来源地址每小时最多 ${hourlyCap} 次，每个邮箱每天最多 3 封确认邮件。请稍后再试。`,
      );
    case "email_disabled":
      return t("Email is off on this site; a webhook still works.", "本站未开启邮件；webhook 仍然可用。");
  }
}
