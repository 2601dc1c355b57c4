// What goes out for one outbox row: the JSON body of the contract (signed), Slack's and Discord's shapes, or an email. Worded at
// send time from the stored facts (lib/site/notify-text.ts), so one message id always carries the same words.
import { localePath } from "../../site/chrome";
import type { Lang } from "../../site/labels";
import {
  changeEmailText,
  changeHeadline,
  confirmationEmail,
  foldedLine,
  type ChangeFacts,
  type MessageLinks,
} from "../../site/notify-text";
import { serverPath } from "../../site/paths";
import type { DueMessage } from "../../store/subscriptions";
import type { NotificationEvent, WebhookFlavor } from "../../vocabulary/notifications";
import type { Mail } from "./email";
import { signature } from "./webhook";

export const CONFIRM_VALID_DAYS = 7;

export const subscriptionPath = (token: string) => `/subscriptions/${token}`;
export const unsubscribePath = (token: string) => `/subscriptions/${token}/unsubscribe`;
export const confirmPath = (token: string) => `/subscriptions/confirm/${token}`;

export function linksOf(siteUrl: string, server: string, token: string): MessageLinks {
  const base = siteUrl.replace(/\/+$/, "");
  return {
    page: `${base}${serverPath(server)}`,
    manage: `${base}${subscriptionPath(token)}`,
    unsubscribe: `${base}${unsubscribePath(token)}`,
  };
}

/** The webhook body of the contract (architecture.md §10): `{id, type, server: {name, page}, from?, to?, reason, at}`, with the
 * count of changes folded into it and the manage and unsubscribe links beside. */
export interface WebhookBody {
  id: string;
  type: NotificationEvent | "test";
  server: { name: string; page: string };
  from?: string | null;
  to?: string | null;
  reason: string;
  at: string;
  more?: number;
  /** Absent on the test message: the subscription does not exist yet. */
  manage?: string;
  unsubscribe?: string;
}

export function webhookBody(
  id: string,
  type: WebhookBody["type"],
  server: string,
  f: ChangeFacts,
  folded: number,
  links: MessageLinks,
): WebhookBody {
  return {
    id,
    type,
    server: { name: server, page: links.page },
    ...(f.from !== undefined ? { from: f.from } : {}),
    ...(f.to !== undefined ? { to: f.to } : {}),
    reason: f.reason,
    at: f.at,
    ...(folded > 0 ? { more: folded } : {}),
    ...(links.manage ? { manage: links.manage, unsubscribe: links.unsubscribe } : {}),
  };
}

export interface WebhookRequest {
  body: string;
  headers: Record<string, string>;
}

/** The request a webhook gets for `body` in its flavor: signed JSON, or the chat service's own shape. */
export function webhookRequest(
  flavor: WebhookFlavor,
  secret: string | null,
  body: WebhookBody,
  lang: Lang,
  headline: string,
): WebhookRequest {
  const event = { "x-mcp-status-event": body.type, "x-mcp-status-message-id": body.id };
  if (flavor === "json") {
    const text = JSON.stringify(body);
    return { body: text, headers: { ...event, ...(secret ? { "x-mcp-status-signature": signature(secret, text) } : {}) } };
  }
  const more = foldedLine(lang, body.more ?? 0);
  const manage = body.manage ? [`${lang === "zh" ? "管理" : "Manage"}: ${body.manage}`] : [];
  const lines = [headline, body.reason, ...(more ? [more] : []), body.server.page, ...manage];
  if (flavor === "slack") return { body: JSON.stringify({ text: lines.join("\n") }), headers: event };
  return { body: JSON.stringify({ content: lines.join("\n").slice(0, 2000), allowed_mentions: { parse: [] } }), headers: event };
}

const langOf = (l: string): Lang => (l === "zh" ? "zh" : "en");

/** The webhook request for an outbox row. */
export function webhookRequestFor(m: DueMessage, siteUrl: string): WebhookRequest {
  const lang = langOf(m.lang);
  const facts = m.facts as unknown as ChangeFacts;
  const event = m.event!;
  const links = linksOf(siteUrl, m.server, m.token);
  return webhookRequest(
    m.flavor ?? "json",
    m.secret,
    webhookBody(m.messageId, event, m.server, facts, m.folded, links),
    lang,
    changeHeadline(lang, m.server, event, facts),
  );
}

/** The email for an outbox row: the confirmation link, or a change with its manage and one-click unsubscribe links. */
export function mailFor(m: DueMessage, siteUrl: string): Mail {
  const lang = langOf(m.lang);
  const links = linksOf(siteUrl, m.server, m.token);
  if (m.kind === "confirmation") {
    // In the subscriber's language: a link opened after the subscription was pruned still answers in it.
    const url = `${siteUrl.replace(/\/+$/, "")}${localePath(lang, confirmPath(m.token))}`;
    const c = confirmationEmail(lang, m.server, url, CONFIRM_VALID_DAYS);
    return { to: m.address, subject: c.subject, text: c.text, messageId: m.messageId };
  }
  const facts = m.facts as unknown as ChangeFacts;
  const event = m.event!;
  return {
    to: m.address,
    subject: `[mcp-status] ${changeHeadline(lang, m.server, event, facts)}`,
    text: changeEmailText(lang, m.server, event, facts, m.folded, links),
    messageId: m.messageId,
    headers: {
      "List-Unsubscribe": `<${links.unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "X-Mcp-Status-Event": event,
    },
  };
}
