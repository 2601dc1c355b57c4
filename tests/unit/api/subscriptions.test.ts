import { afterEach, describe, expect, test } from "vitest";
import { getConfirm, postManage, postSubscription, type SubscriptionRouteDeps } from "@/app/api/_lib/subscriptions";
import { createAddressPolicy } from "@/lib/probe";
import { FORM_KEY_META, issueFormToken, newFormKey } from "@/lib/site/reprobe-form";
import { metaOnce } from "@/lib/store/reprobe";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { mailFor } from "@/lib/rounds/notify/messages";
import { MANAGE_TEXT } from "@/lib/site/notify-text";
import { manageView, takeDueMessages } from "@/lib/store/subscriptions";
import { startReceiver } from "../../fixtures/receivers";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// The route logic of POST /api/servers/<name>/subscriptions and the capability links, with real Requests, a real database and a
// real receiver on loopback.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function world(o: Partial<SubscriptionRouteDeps> = {}) {
  const t = tempDb();
  cleanups.push(t.cleanup);
  applyRegistrySnapshot(t.db, [listedServer("io.example/a", "https://a.example/mcp")], new Date().toISOString());
  const deps: SubscriptionRouteDeps = {
    db: t.db,
    policy: createAddressPolicy({ allowPrivate: true }),
    emailOn: true,
    hourlyCap: 2,
    siteUrl: "http://127.0.0.1:3000",
    ...o,
  };
  const json = (body: unknown, headers: Record<string, string> = {}) =>
    postSubscription(
      new Request("http://127.0.0.1:3000/api/servers/io.example/a/subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7", ...headers },
        body: JSON.stringify(body),
      }),
      "io.example/a",
      deps,
    );
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    postSubscription(
      new Request("http://127.0.0.1:3000/api/servers/io.example/a/subscriptions", {
        method: "POST",
        headers: { "x-forwarded-for": "203.0.113.8", origin: "http://127.0.0.1:3000", ...headers },
        body: new URLSearchParams(fields),
      }),
      "io.example/a",
      deps,
    );
  const formToken = () => issueFormToken(metaOnce(t.db, FORM_KEY_META, newFormKey), "io.example/a", new Date());
  return { db: t.db, json, form, formToken };
}

describe("POST /api/servers/<name>/subscriptions", () => {
  test("an email: 202 confirmation_sent; the hourly cap per client address then answers 429 with Retry-After", async () => {
    const w = world();
    expect((await w.json({ email: "a@example.com" })).status).toBe(202);
    expect(await (await w.json({ email: "b@example.com" })).json()).toEqual({ status: "confirmation_sent" });
    const third = await w.json({ email: "c@example.com" });
    expect(third.status).toBe(429);
    expect((await third.json()) as unknown).toMatchObject({ error: "rate_limited" });
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(3000);
    // Another client address has its own count.
    expect((await w.json({ email: "c@example.com" }, { "x-forwarded-for": "203.0.113.99" })).status).toBe(202);
  });

  test.each([
    [{ email: "nope" }, 400, "invalid_address"],
    [{ webhook: "javascript:alert(1)" }, 400, "invalid_address"],
    [{ email: "a@example.com", webhook: "https://x.example/" }, 400, "invalid_address"],
    [{ email: "a@example.com", events: ["all"] }, 400, "unknown_event"],
    [{ webhook: "http://10.0.0.1/hook" }, 400, "address_not_allowed"],
  ])("%j → %i %s", async (body, status, error) => {
    const w = world({ policy: createAddressPolicy({ allowPrivate: false }) });
    const res = await w.json(body);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error });
  });

  test("without SMTP_URL an email gets 503 email_disabled; an unknown server 404", async () => {
    const w = world({ emailOn: false });
    const res = await w.json({ email: "a@example.com" });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: "email_disabled" });
    const none = await postSubscription(
      new Request("http://127.0.0.1:3000/api/servers/x/y/subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"webhook":"https://x.example/"}',
      }),
      "x/y",
      { db: w.db, policy: createAddressPolicy({ allowPrivate: false }), emailOn: false, hourlyCap: 5, siteUrl: "http://127.0.0.1:3000" },
    );
    expect(none.status).toBe(404);
  });

  test("a cross-site post is refused, form or JSON, and nothing is stored", async () => {
    const w = world();
    expect((await w.json({ email: "a@example.com" }, { origin: "https://evil.example" })).status).toBe(403);
    expect(
      (await w.form({ channel: "email", address: "a@example.com", token: w.formToken() }, { "sec-fetch-site": "cross-site" })).status,
    ).toBe(403);
    expect(w.db.$client.prepare("select count(*) from subscriptions").pluck().get()).toBe(0);
  });

  test("the form: an old form key goes back to the page as form_expired; a good one as confirmation_sent", async () => {
    const w = world();
    const stale = await w.form({ channel: "email", address: "a@example.com", token: "1.xyz" });
    expect(stale.status).toBe(303);
    expect(stale.headers.get("location")).toBe("/servers/io.example/a?subscribe=form_expired#subscribe");
    const ok = await w.form({ channel: "email", address: "a@example.com", token: w.formToken() });
    expect(ok.headers.get("location")).toBe("/servers/io.example/a?subscribe=confirmation_sent#subscribe");
    // The Chinese page's form goes back to the Chinese page.
    const zh = await w.form({ channel: "email", address: "b@example.com", token: w.formToken(), lang: "zh" });
    expect(zh.headers.get("location")).toBe("/zh/servers/io.example/a?subscribe=confirmation_sent#subscribe");
  });

  test("a webhook from the form: the answer page shows the secret once and the manage link; the manage page never shows it", async () => {
    const w = world();
    const rx = await startReceiver([200]);
    cleanups.push(rx.close);
    const res = await w.form({ channel: "webhook", address: rx.url, token: w.formToken(), events: "tools_changed" });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const secret = /<pre id="secret">([^<]+)<\/pre>/.exec(html)![1]!;
    const token = /\/subscriptions\/([A-Za-z0-9_-]+)"/.exec(html)![1]!;
    const view = manageView(w.db, token)!;
    expect(view.subscriptions.map((s) => s.events)).toEqual([["tools_changed"]]);
    expect(JSON.stringify(view)).not.toContain(secret);
    expect(JSON.stringify(view)).not.toContain(rx.url);
  });
});

describe("the capability links", () => {
  test("confirm on GET, then one-click unsubscribe (no Origin, RFC 8058 body) deletes the address", async () => {
    const w = world();
    await w.json({ email: "a@example.com" });
    const token = w.db.$client.prepare("select token from subscriptions").pluck().get() as string;
    const confirmed = getConfirm(token, { db: w.db, now: new Date() });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe(`/subscriptions/${token}?done=confirmed`);
    expect(getConfirm("nope", { db: w.db, now: new Date() }).status).toBe(404);
    const res = await postManage(
      new Request(`http://127.0.0.1:3000/subscriptions/${token}/unsubscribe`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      }),
      token,
      "unsubscribe",
      { db: w.db },
    );
    expect(res.status).toBe(200);
    expect(w.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
  });

  test.each([
    ["en", "Unsubscribed: nothing more is sent for this subscription.\n"],
    ["zh", "已退订：此订阅不会再发送任何消息。\n"],
  ])("one-click unsubscribe answers the unsubscribed sentence in the subscriber's language (%s)", async (lang, answer) => {
    const w = world();
    await w.form({ channel: "email", address: "one-click@example.com", token: w.formToken(), lang });
    const token = w.db.$client.prepare("select token from subscriptions").pluck().get() as string;
    expect(getConfirm(token, { db: w.db, now: new Date() }).status).toBe(303);
    const oneClick = () =>
      postManage(
        new Request(`http://127.0.0.1:3000/subscriptions/${token}/unsubscribe`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        }),
        token,
        "unsubscribe",
        { db: w.db },
      );
    const res = await oneClick();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe(answer);
    // Posted again, the link names nothing: no stored language is left, so the answer is the site's default.
    const again = await oneClick();
    expect(again.status).toBe(404);
    expect(await again.text()).toBe("No subscription by this link.\n");
  });

  test.each([
    ["en", "en", "/"],
    ["zh", "zh-Hans", "/zh"],
  ] as const)("a confirmation link that names no subscription answers 404 in the link's language (%s)", async (lang, htmlLang, home) => {
    const w = world();
    const res = getConfirm("gone-long-ago", { db: w.db, now: new Date(), lang });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const t = MANAGE_TEXT[lang].confirmUnknown;
    expect(html).toContain(`<html lang="${htmlLang}">`);
    expect(/<h1>([^<]*)<\/h1>/.exec(html)![1]).toBe(lang === "zh" ? "没有这个订阅" : "No such subscription");
    expect(html).toContain(`<p>${t.text}</p>`);
    expect(html).toContain(`<a href="${home}">`);
    if (lang === "zh") expect(html).not.toMatch(/No subscription|subscribe again/);
  });

  test("a Chinese subscriber's confirmation email links to /zh and leads to the Chinese manage page; an English one to the root", async () => {
    const w = world();
    await w.form({ channel: "email", address: "zh-link@example.com", token: w.formToken(), lang: "zh" });
    await w.json({ email: "en-link@example.com" });
    const mails = takeDueMessages(w.db, new Date(), { limit: 10, leaseMs: 60_000 }).map((m) => mailFor(m, "http://127.0.0.1:3000/"));
    const links = new Map(mails.map((m) => [m.to, /http:\/\/127\.0\.0\.1:3000(\/\S+)/.exec(m.text)![1]!]));
    const zhToken = w.db.$client
      .prepare("select s.token from subscriptions s join subscribers b on b.id = s.subscriber_id where b.lang = 'zh'")
      .pluck()
      .get() as string;
    expect(links.get("zh-link@example.com")).toBe(`/zh/subscriptions/confirm/${zhToken}`);
    expect(links.get("en-link@example.com")).toMatch(/^\/subscriptions\/confirm\/[A-Za-z0-9_-]+$/);
    // The link confirms; the manage page it leads to is the Chinese one.
    const ok = getConfirm(zhToken, { db: w.db, now: new Date(), lang: "zh" });
    expect(ok.headers.get("location")).toBe(`/zh/subscriptions/${zhToken}?done=confirmed`);
  });

  test("a confirmation link older than 7 days does not confirm", async () => {
    const w = world();
    await w.json({ email: "a@example.com" });
    const token = w.db.$client.prepare("select token from subscriptions").pluck().get() as string;
    const res = getConfirm(token, { db: w.db, now: new Date(Date.now() + 8 * 24 * 3_600_000) });
    expect(res.headers.get("location")).toBe(`/subscriptions/${token}?done=expired`);
    expect(w.db.$client.prepare("select confirmed_at from subscriptions").pluck().get()).toBeNull();
  });
});
