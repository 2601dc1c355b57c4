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
    incident_opened: "故障开启",
    incident_resolved: "故障结束",
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
      return zh ? `${server}：故障开启，发现类检查未通过` : `${server}: incident opened, discovery checks failed`;
    case "incident_resolved":
      return zh ? `${server}：故障结束，发现类检查恢复正常` : `${server}: incident resolved, discovery checks pass again`;
    case "tools_changed": {
      const t = f.tools ?? { added: 0, removed: 0, changed: 0 };
      return zh
        ? `${server}：工具变化（新增 ${t.added}，移除 ${t.removed}，修改 ${t.changed}）`
        : `${server}: tools changed (${t.added} added, ${t.removed} removed, ${t.changed} changed)`;
    }
    case "observations_changed":
      return zh ? `${server}：工具定义的观察有变化` : `${server}: observations on its tool definitions changed`;
    case "owner_configuration_refused":
      return zh ? `${server}：服务端拒绝了所有者的配置` : `${server}: the server refused the owner's configuration`;
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
      return t("No server by that name.", "没有这个名称的服务端。");
    case "rate_limited":
      return t(
        `Too many sign-ups: at most ${hourlyCap} an hour from one address, and 3 confirmation emails a day to one email address. Try again later.`,
        `注册过多：每个来源地址每小时最多 ${hourlyCap} 次，每个邮箱每天最多 3 封确认邮件。请稍后再试。`,
      );
    case "email_disabled":
      return t("Email is off on this site; a webhook still works.", "本站未开启邮件；webhook 仍然可用。");
  }
}

export const MANAGE_TEXT = {
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
    /** The page once the subscriber is gone (its last subscription removed, or everything deleted): no view to read. */
    gone: {
      deleted: "Deleted: every subscription of this address and the address itself are gone; nothing more is sent.",
      unsubscribed: "Unsubscribed: nothing more is sent for that server, and an address left with no subscription is deleted.",
    } as Record<string, string>,
    /** The plain-text answers of a manage link posted without its page (a mail provider's one-click unsubscribe, a script). */
    answers: {
      unsubscribed: "Unsubscribed: nothing more is sent for this subscription.",
      done: "Done.",
      unknown: "No subscription by this link.",
      noAction: "No such action.",
      crossSite: (why: string) => `Refused: only this site's own pages may post here (${why}).`,
    },
    /** A confirmation link that names no subscription (never confirmed within 7 days and pruned, or removed). */
    confirmUnknown: {
      title: "No such subscription",
      text: "No subscription by this link: it was never confirmed within 7 days, or it was removed.",
      again: "To be told of a server's changes, subscribe again from its page.",
      home: "All servers",
    },
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
    server: "服务端",
    state: "状态",
    waiting: "等待确认：请打开确认邮件中的链接。",
    active: (at: string) => `自 ${at} 起生效。`,
    last: (at: string) => `上一条消息：${at}。`,
    events: "事件",
    save: "保存事件",
    unsubscribe: "退订",
    rotate: "换新的签名密钥",
    rotateText: "替换为此服务端的消息签名的密钥；新密钥只显示一次，旧密钥立即失效。",
    deleteTitle: "全部删除",
    deleteText: "删除以上所有订阅并删除该地址；之后不会再发送任何消息。",
    deleteButton: "全部删除",
    done: {
      confirmed: "已确认：此服务端的变化将发送到这里。",
      already_confirmed: "此订阅已经确认过。",
      expired: "此确认链接已超过 7 天。请从服务端页面重新订阅。",
      unsubscribed: "已退订：该服务端不会再发送消息。",
      events: "已保存。",
      resumed: "已恢复投递。",
      no_events: "请至少选择一个事件，或者退订。",
      rotate: "已生成新的签名密钥。",
      unknown: "该订阅已不存在。",
    } as Record<string, string>,
    gone: {
      deleted: "已删除：此地址的所有订阅以及地址本身都已删除；不会再发送任何消息。",
      unsubscribed: "已退订：该服务端不会再发送消息；没有剩余订阅的地址会被删除。",
    } as Record<string, string>,
    answers: {
      unsubscribed: "已退订：此订阅不会再发送任何消息。",
      done: "完成。",
      unknown: "此链接没有对应的订阅。",
      noAction: "没有这个操作。",
      crossSite: (why: string) => `已拒绝：只有本站自己的页面可以提交到这里（${why}）。`,
    },
    confirmUnknown: {
      title: "没有这个订阅",
      text: "此链接没有对应的订阅：它未在 7 天内确认，或者已被删除。",
      again: "如需在服务端变化时收到通知，请在它的页面上重新订阅。",
      home: "所有服务端",
    },
  },
} as const;

/** A subscriber's stored language as a page language: anything but "zh" reads as English. */
export const subscriberLang = (stored: string | null | undefined): Lang => (stored === "zh" ? "zh" : "en");
