import type { Db } from "@/db/client";
import { SubscribeBody, SubscribeForm, type ApiShape } from "@/lib/api/schemas";
import { clientAddress } from "@/lib/mcp/rate-limit";
import { subscribe, type SubscribeAnswer, type SubscribeDeps } from "@/lib/rounds/notify/subscribe";
import { HTML_LANG, localePath } from "@/lib/site/chrome";
import type { Lang } from "@/lib/site/labels";
import { MANAGE_TEXT, subscriberLang } from "@/lib/site/notify-text";
import { serverPath } from "@/lib/site/paths";
import { FORM_KEY_META, crossSitePost, newFormKey, verifyFormToken } from "@/lib/site/reprobe-form";
import { metaOnce } from "@/lib/store/reprobe";
import {
  confirmSubscription,
  deleteSubscriber,
  manageView,
  resumeSubscriber,
  rotateSecret,
  setEvents,
  unsubscribe,
} from "@/lib/store/subscriptions";
import { CONFIRM_VALID_DAYS, subscriptionPath } from "@/lib/rounds/notify/messages";
import { PUBLIC_NOTIFICATION_EVENTS, type SubscribeError } from "@/lib/vocabulary/notifications";
import { ownOrigins } from "./reprobe";
import { refuseWhileUnwritable, unwritableAnswer } from "./unwritable";

// POST /api/servers/<name>/subscriptions (architecture.md §10): JSON in, JSON out; or the server page's form, answered with a
// 303 back to the page (or, for a new webhook, a page that shows its secret once). Cross-site posts are refused either way.

export type SubscriptionRouteDeps = Omit<SubscribeDeps, "siteUrl"> & { publicBaseUrl?: string; siteUrl: string };

const noStore = { "cache-control": "no-store" };

const STATUS: Record<SubscribeError, number> = {
  invalid_address: 400,
  address_not_allowed: 400,
  webhook_test_failed: 400,
  unknown_event: 400,
  unknown_server: 404,
  rate_limited: 429,
  email_disabled: 503,
};

/** The JSON answer of a sign-up (also an owner's, architecture.md §11). */
export function subscriptionJsonAnswer(a: SubscribeAnswer): Response {
  if (a.ok && a.status === "confirmation_sent")
    return Response.json({ status: a.status } satisfies ApiShape<"SubscriptionPending">, { status: 202, headers: noStore });
  if (a.ok)
    return Response.json(
      { status: a.status, ...(a.secret ? { secret: a.secret } : {}), manage: a.manage } satisfies ApiShape<"SubscriptionActive">,
      { status: 201, headers: noStore },
    );
  const headers: Record<string, string> = { ...noStore, ...(a.retryAfterS !== undefined ? { "retry-after": String(a.retryAfterS) } : {}) };
  return Response.json({ error: a.error, message: a.message } satisfies ApiShape<"SubscribeError">, { status: STATUS[a.error], headers });
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The one answer that carries a webhook's secret: shown here once, never stored in a page or a link. */
function secretPage(lang: "en" | "zh", server: string, a: Extract<SubscribeAnswer, { status: "active" }>): Response {
  const zh = lang === "zh";
  const title = zh ? "Webhook 已订阅" : "Webhook subscribed";
  const secret = a.secret
    ? `<p>${zh ? "签名密钥（只显示这一次，请现在保存）：" : "Signing secret (shown this once: keep it now):"}</p><pre id="secret">${escape(a.secret)}</pre>
<p>${zh ? "每条消息都带有 <code>X-Mcp-Status-Signature: sha256=&lt;正文的 HMAC-SHA256&gt;</code>。" : "Every message carries <code>X-Mcp-Status-Signature: sha256=&lt;hex HMAC-SHA256 of the body&gt;</code> made with it."}</p>`
    : `<p>${zh ? "此 URL 收到的是聊天服务的消息格式，不带签名。" : "This URL gets the chat service's own message shape, unsigned."}</p>`;
  const html = `<!doctype html><html lang="${HTML_LANG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5"><main>
<h1>${title}</h1><p>${zh ? `测试消息已得到 2xx 回应：${escape(server)} 变化时会通知此 webhook。` : `The test message got a 2xx: this webhook is told when ${escape(server)} changes.`}</p>
${secret}
<p><a href="${escape(a.manage)}">${zh ? "管理此 webhook 的订阅" : "Manage this webhook's subscriptions"}</a> ${zh ? "（此链接就是凭证，请勿公开）" : "(the link is the key: keep it private)"}</p>
<p><a href="${escape(`${zh ? "/zh" : ""}${serverPath(server)}`)}">${zh ? "返回服务端页面" : "Back to the server page"}</a></p></main></body></html>`;
  return new Response(html, {
    status: 201,
    headers: { ...noStore, "content-type": "text/html; charset=utf-8", "referrer-policy": "same-origin" },
  });
}

/** The manage page's "new signing secret": the one answer that carries it. */
function rotatedPage(lang: "en" | "zh", secret: string, back: string): Response {
  const zh = lang === "zh";
  const title = zh ? "新的签名密钥" : "New signing secret";
  const html = `<!doctype html><html lang="${HTML_LANG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5"><main>
<h1>${title}</h1><p>${zh ? "签名密钥（只显示这一次，请现在保存）：" : "Signing secret (shown this once: keep it now):"}</p><pre id="secret">${escape(secret)}</pre>
<p>${zh ? "从下一条消息起，<code>X-Mcp-Status-Signature</code> 使用这个密钥计算；旧密钥已删除。" : "From the next message on, <code>X-Mcp-Status-Signature</code> is made with it; the old secret is deleted."}</p>
<p><a href="${escape(subscriptionPath(back))}">${zh ? "返回管理页面" : "Back to the manage page"}</a></p></main></body></html>`;
  return new Response(html, {
    status: 200,
    headers: { ...noStore, "content-type": "text/html; charset=utf-8", "referrer-policy": "same-origin" },
  });
}

/** Back to the server page the form was on (in its language), with the outcome. */
function backTo(server: string, outcome: string, retryAfterS?: number, lang: "en" | "zh" = "en"): Response {
  const page = `${lang === "zh" ? "/zh" : ""}${serverPath(server)}`;
  const headers: Record<string, string> = { ...noStore, location: `${page}?${new URLSearchParams({ subscribe: outcome })}#subscribe` };
  if (retryAfterS !== undefined) headers["retry-after"] = String(retryAfterS);
  return new Response(null, { status: 303, headers });
}

export async function postSubscription(request: Request, server: string, deps: SubscriptionRouteDeps): Promise<Response> {
  try {
    return await handle(request, server, deps);
  } catch (e) {
    const unwritable = unwritableAnswer(deps.db, e);
    if (unwritable) return unwritable;
    throw e;
  }
}

async function handle(request: Request, server: string, deps: SubscriptionRouteDeps): Promise<Response> {
  const cross = crossSitePost(request.headers, ownOrigins(request, deps.publicBaseUrl));
  if (cross)
    return Response.json(
      { error: "cross_site", message: `Refused: only this site's own pages may post here (${cross}).` },
      { status: 403, headers: noStore },
    );
  const refused = refuseWhileUnwritable(deps.db);
  if (refused) return refused;
  const client = clientAddress(request.headers);
  const isJson = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
  if (isJson) {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return Response.json(
        { error: "invalid_address", message: "Send a JSON object with email or webhook." },
        { status: 400, headers: noStore },
      );
    }
    const parsed = SubscribeBody.safeParse(body);
    if (!parsed.success)
      return Response.json(
        { error: "invalid_address", message: "Send a JSON object with email or webhook (strings) and events (a list)." },
        { status: 400, headers: noStore },
      );
    return subscriptionJsonAnswer(await subscribe(deps, { server, ...parsed.data, client, lang: "en" }));
  }
  let fields: FormData;
  try {
    fields = await request.formData();
  } catch {
    return new Response("Send the form as a form post.\n", { status: 400, headers: noStore });
  }
  const form = SubscribeForm.safeParse({ ...Object.fromEntries(fields), events: fields.getAll("events") });
  if (!form.success) return backTo(server, "invalid_address");
  const { channel, address, events, token } = form.data;
  const lang = form.data.lang ?? "en";
  if (!verifyFormToken(metaOnce(deps.db, FORM_KEY_META, newFormKey), server, token, new Date()))
    return backTo(server, "form_expired", undefined, lang);
  const a = await subscribe(deps, {
    server,
    ...(channel === "email" ? { email: address.trim() } : { webhook: address.trim() }),
    events: events && events.length ? events : undefined,
    client,
    lang,
  });
  if (a.ok && a.status === "active") return secretPage(lang, server, a);
  if (a.ok) return backTo(server, a.status, undefined, lang);
  if (a.error === "unknown_server") return new Response("No server by that registry name.\n", { status: 404, headers: noStore });
  return backTo(server, a.error, a.retryAfterS, lang);
}

// ---- the capability links: /subscriptions/confirm/<token>, /subscriptions/<token>/<action> ----------------------------

export const MANAGE_ACTIONS = ["unsubscribe", "events", "delete", "resume", "rotate"] as const;
type ManageAction = (typeof MANAGE_ACTIONS)[number];

const text = (status: number, body: string) =>
  new Response(`${body}\n`, { status, headers: { ...noStore, "content-type": "text/plain; charset=utf-8" } });
// same-origin, as the manage page: no-referrer would make the browser post that page's forms with Origin: null.
const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { ...noStore, location, "referrer-policy": "same-origin" } });

/** GET /subscriptions/confirm/<token> (a Chinese subscriber's: /zh/subscriptions/confirm/<token>): confirms on GET (as
 * Statuspage's links do), then shows the manage page in the subscriber's language. A link that names no subscription
 * answers 404 in the link's language (`lang`): nothing stored is left to tell it. */
export function getConfirm(token: string, deps: { db: Db; now: Date; lang?: Lang }): Response {
  const outcome = confirmSubscription(deps.db, token, deps.now, CONFIRM_VALID_DAYS * 24 * 3_600_000);
  if (outcome === "unknown") return unknownConfirmation(deps.lang ?? "en");
  const lang = subscriberLang(manageView(deps.db, token)?.lang);
  return seeOther(
    `${localePath(lang, subscriptionPath(token))}?${new URLSearchParams({ done: outcome === "expired" ? "expired" : "confirmed" })}`,
  );
}

function unknownConfirmation(lang: Lang): Response {
  const t = MANAGE_TEXT[lang].confirmUnknown;
  const html = `<!doctype html><html lang="${HTML_LANG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${t.title} · mcp-status</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5"><main>
<h1>${t.title}</h1><p>${t.text}</p><p>${t.again}</p><p><a href="${localePath(lang, "/")}">${t.home}</a></p></main></body></html>`;
  return new Response(html, {
    status: 404,
    headers: { ...noStore, "content-type": "text/html; charset=utf-8", "referrer-policy": "same-origin" },
  });
}

/** POST /subscriptions/<token>/<action>. `unsubscribe` is also RFC 8058's one-click target (a mail provider posts
 * `List-Unsubscribe=One-Click`, no Origin); the manage page's forms send `back` (the token it was opened with). */
export async function postManage(
  request: Request,
  token: string,
  action: string,
  deps: { db: Db; publicBaseUrl?: string },
): Promise<Response> {
  // The subscriber's stored language words the answer, read before the action can delete it (architecture.md §10).
  const lang = subscriberLang(manageView(deps.db, token)?.lang);
  const t = MANAGE_TEXT[lang].answers;
  if (!(MANAGE_ACTIONS as readonly string[]).includes(action)) return text(404, t.noAction);
  const cross = crossSitePost(request.headers, ownOrigins(request, deps.publicBaseUrl));
  if (cross) return text(403, t.crossSite(cross));
  const refused = refuseWhileUnwritable(deps.db);
  if (refused) return refused;
  let fields = new FormData();
  try {
    fields = await request.formData();
  } catch {
    // One-click posts may come with any body; the token is what counts.
  }
  const back = String(fields.get("back") ?? "");
  const done = (what: string, ok: boolean) => {
    if (!back) return ok ? text(200, what === "unsubscribed" ? t.unsubscribed : t.done) : text(404, t.unknown);
    const to = back && manageView(deps.db, back) ? back : token;
    return seeOther(`${localePath(lang, subscriptionPath(to))}?${new URLSearchParams({ done: ok ? what : "unknown" })}`);
  };
  switch (action as ManageAction) {
    case "unsubscribe":
      return done("unsubscribed", unsubscribe(deps.db, token));
    case "delete":
      return done("deleted", deleteSubscriber(deps.db, token));
    case "resume":
      return done("resumed", resumeSubscriber(deps.db, token));
    case "rotate": {
      // The new secret is answered once, never put in a link or a page that is kept; the old one stops signing at once.
      const secret = rotateSecret(deps.db, token);
      if (!secret) return done("rotate", false);
      if (!back) return Response.json({ secret }, { headers: noStore });
      return rotatedPage(manageView(deps.db, token)?.lang === "zh" ? "zh" : "en", secret, back);
    }
    case "events": {
      const wanted = fields.getAll("events").map(String);
      const known = PUBLIC_NOTIFICATION_EVENTS.filter((e) => wanted.includes(e));
      if (known.length === 0) return done("no_events", false);
      return done("events", setEvents(deps.db, token, known));
    }
  }
}
