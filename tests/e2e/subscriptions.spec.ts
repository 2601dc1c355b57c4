// Subscriptions end to end (architecture.md §10): a real `npm start` of its own with its notifier process, a real SMTP server
// (smtp-server) and plain HTTP receivers on loopback started here, a loopback MCP server whose answers this spec turns from
// healthy to failing. Delivery intervals come down through the site's configuration (NOTIFY_*) so the spec stays fast.
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { closeDb, openDb, type Db } from "../../db/client";
import { createZooHandler } from "../../lib/demo/zoo";
import { freePort } from "../../lib/cli/ports";
import { applyRegistrySnapshot } from "../../lib/store/servers/registry";
import { startNext, type RunningNext } from "../fixtures/next-server";
import { startReceiver, startSmtp } from "../fixtures/receivers";
import { listedServer } from "../unit/store/listed";
import { SCREENSHOT_DIR } from "./env";
import { serverUrl } from "./helpers";
import { freshDbFile } from "./own-site";

const DB_FILE = path.resolve("test-results/subscriptions/site.db");
const NAME = "io.github.notify/flapping";
const EMAIL = "reader@mail.example";
const SECRET = "round-secret";
const METRICS_TOKEN = "metrics-secret";

test.describe.configure({ mode: "serial" });
test.use({ javaScriptEnabled: false });

let failing = false;
const zooHandler = createZooHandler("modern-healthy-paged");
const mcp = http.createServer((req, res) => {
  if (failing) {
    req.resume();
    res.writeHead(500, { "content-type": "text/plain" }).end("down for the test");
    return;
  }
  void zooHandler(req, res);
});

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let db: Db;
let site: RunningNext;
let port: number;
let env: Record<string, string>;

async function start(): Promise<RunningNext> {
  return startNext({ dbPath: DB_FILE, port, env });
}

/** Makes the server due and runs a round through the API, until it is done. */
async function round(origin: string): Promise<void> {
  db.$client.prepare("update servers set next_due_at = ? where name = ?").run(new Date(Date.now() - 1000).toISOString(), NAME);
  const res = await fetch(`${origin}/api/rounds`, { method: "POST", headers: { authorization: `Bearer ${SECRET}` } });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: number };
  await expect
    .poll(
      async () =>
        (
          (await (await fetch(`${origin}/api/rounds/${id}`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as {
            status: string;
          }
        ).status,
      {
        timeout: 60_000,
      },
    )
    .toBe("done");
}

const outboxPending = () => db.$client.prepare("select count(*) from outbox where state = 'pending'").pluck().get() as number;

async function subscribeWebhook(origin: string, url: string, events?: string[]) {
  const res = await fetch(`${origin}/api/servers/${NAME}/subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ webhook: url, ...(events ? { events } : {}) }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { status: string; secret: string; manage: string };
}

async function shoot(page: Page, name: string, selector: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .locator(selector)
      .first()
      .screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtp();
  await new Promise<void>((r) => mcp.listen(0, "127.0.0.1", r));
  freshDbFile(DB_FILE);
  db = openDb(DB_FILE);
  applyRegistrySnapshot(db, [listedServer(NAME, `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`)], new Date().toISOString());
  port = await freePort();
  env = {
    PROBE_ALLOW_PRIVATE_NETWORKS: "1",
    CRON_SECRET: SECRET,
    METRICS_TOKEN,
    CROSS_READ_SAMPLE: "0",
    SMTP_URL: smtp.url,
    MAIL_FROM: "mcp-status <status@status.example>",
    NOTIFY_POLL_MS: "200",
    NOTIFY_RETRY_BASE_MS: "400",
    NOTIFY_FOLD_MINUTES: "0",
    NOTIFY_LEASE_MS: "3000",
    // More sign-ups than the default 10 an hour from this one client: the Chinese flow adds its own.
    SUBSCRIBE_HOURLY_CAP: "50",
  };
  site = await start();
  await round(site.origin); // the first read: healthy, nothing to tell
});

test.afterEach(async ({}, info) => {
  if (info.status !== info.expectedStatus) console.log(`--- site output ---\n${site?.output().slice(-4000)}`);
});

test.afterAll(async () => {
  await site?.stop();
  closeDb(db);
  await smtp?.close();
  await new Promise((r) => mcp.close(r));
});

test("subscribe by email and webhook, confirm, then a state change: the email and the signed webhook arrive within a minute", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const origin = site.origin;
  await page.goto(`${origin}${serverUrl(NAME)}`);
  const form = page.locator("#subscribe");
  await expect(form.getByRole("heading", { name: "Get told when it changes" })).toBeVisible();
  // The form folds behind its heading like the page's other long sections.
  await expect(form.getByLabel("Email address or webhook URL")).toBeHidden();
  await form.getByRole("heading", { name: "Get told when it changes" }).click();
  await shoot(page, "subscribe-form-en", "#subscribe");
  await form.getByLabel("Email address or webhook URL").fill(EMAIL);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\?subscribe=confirmation_sent#subscribe$/);
  await expect(page.locator("#subscribe [role=status]")).toContainText("A confirmation email is on its way");

  const [confirm] = await smtp.until(1);
  expect(confirm!.to).toEqual([EMAIL]);
  const link = /https?:\/\/\S+\/subscriptions\/confirm\/[A-Za-z0-9_-]+/.exec(confirm!.text)![0];
  await page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
  await expect(page.locator("[role=status]")).toContainText("Confirmed");
  await expect(page.locator("main")).toContainText(NAME);
  await shoot(page, "subscriptions-manage-en", "main");

  const rx = await startReceiver([200]);
  try {
    const hook = await subscribeWebhook(origin, rx.url);
    expect(hook.secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(rx.hits).toHaveLength(1);

    failing = true;
    const changedAt = Date.now();
    await round(origin);
    // state_changed and incident_opened come from one run: one message each, the incident folded into the state change.
    const mails = await smtp.until(2);
    const hits = await rx.until(2);
    const within = Date.now() - changedAt;
    expect(within).toBeLessThan(60_000);
    const change = hits.find((h) => h.headers["x-mcp-status-event"] === "state_changed")!;
    expect(change.headers["x-mcp-status-signature"]).toBe(`sha256=${createHmac("sha256", hook.secret).update(change.body).digest("hex")}`);
    expect(JSON.parse(change.body)).toMatchObject({
      type: "state_changed",
      server: { name: NAME },
      from: "verified",
      to: "failed",
      more: 1,
    });
    expect(mails[1]!.subject).toContain(`${NAME} is now Failed`);
    expect(mails[1]!.text).toContain("And 1 more change");
    test.info().annotations.push({ type: "delivered", description: `email and webhook ${within} ms after the change` });

    // No address in any public answer: pages in both languages, JSON, feeds, open data, sitemaps, metrics, status.
    const publicUrls = [
      serverUrl(NAME),
      `/zh${serverUrl(NAME)}`,
      `/api/servers/${NAME}`,
      "/api/servers",
      "/changes/feed.xml",
      `/changes/feed.xml?server=${encodeURIComponent(NAME)}`,
      "/changes/states.xml",
      "/incidents/feed.xml",
      "/coverage/feed.xml",
      "/api/status",
      "/",
      "/zh",
      "/changes",
      "/incidents",
      "/coverage",
      "/census",
      "/data",
      "/data/census.json",
      "/data/census.csv",
      "/sitemap.xml",
      "/metrics",
    ];
    for (const u of publicUrls) {
      const res = await fetch(`${origin}${u}`, u === "/metrics" ? { headers: { authorization: `Bearer ${METRICS_TOKEN}` } } : {});
      expect(res.status, u).toBe(200);
      const body = await res.text();
      expect(body, u).not.toContain(EMAIL);
      expect(body, u).not.toContain(new URL(rx.url).host);
    }
    // The site's own MCP endpoint: each tool's answer about this server.
    const tools: [string, Record<string, unknown>][] = [
      ["get_server_status", { name: NAME }],
      ["search_servers", { query: "notify" }],
      ["recent_changes", { name: NAME }],
    ];
    for (const [i, [name, args]] of tools.entries()) {
      const res = await fetch(`${origin}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": name,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: i + 1,
          method: "tools/call",
          params: {
            name,
            arguments: args,
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
          },
        }),
      });
      expect(res.status, name).toBe(200);
      const body = await res.text();
      expect(body, name).toContain(NAME);
      expect(body, name).not.toContain(EMAIL);
      expect(body, name).not.toContain(new URL(rx.url).host);
    }
    const manage = await (await fetch(hook.manage.replace(/^https?:\/\/[^/]+/, origin))).text();
    expect(manage).not.toContain(new URL(rx.url).host);
    expect(site.output()).not.toContain(EMAIL);
    expect(site.output()).not.toContain(new URL(rx.url).host);
  } finally {
    await rx.close();
  }
});

test("one-click unsubscribe: nothing more is sent, and the address is deleted", async () => {
  const origin = site.origin;
  const last = smtp.mails[smtp.mails.length - 1]!;
  const head = last.raw.split("\r\n\r\n")[0]!.replace(/\r\n\s+/g, " ");
  const target = /^List-Unsubscribe: <([^>]+)>/m.exec(head)![1]!;
  const res = await fetch(target.replace(/^https?:\/\/[^/]+/, origin), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("Unsubscribed: nothing more is sent for this subscription.\n");
  expect(db.$client.prepare("select count(*) from subscribers where channel = 'email'").pluck().get()).toBe(0);
  const before = smtp.mails.length;
  failing = false;
  await round(origin);
  await expect.poll(outboxPending, { timeout: 20_000 }).toBe(0);
  expect(smtp.mails).toHaveLength(before);
});

test("the manage page's own forms work in Chromium: events, resume, new secret, unsubscribe, delete everything", async ({ page }) => {
  test.setTimeout(90_000);
  // The page must let the browser post its forms with its Origin (not `null`): the cross-site check refuses anything else.
  const origin = site.origin;
  const rx = await startReceiver([200]);
  try {
    const hook = await subscribeWebhook(origin, rx.url);
    const manage = hook.manage.replace(/^https?:\/\/[^/]+/, origin);
    const token = new URL(manage).pathname.split("/").pop()!;
    const row = () =>
      db.$client
        .prepare(
          "select s.events, s.secret, b.paused_at from subscriptions s join subscribers b on b.id = s.subscriber_id where s.token = ?",
        )
        .get(token) as { events: string; secret: string; paused_at: string | null } | undefined;
    await page.goto(manage);
    const section = page.getByRole("region", { name: NAME });

    await section.getByLabel("Incidents opened").uncheck();
    await section.getByLabel("Tool changes").check();
    await section.getByRole("button", { name: "Save events" }).click();
    await expect(page).toHaveURL(/\?done=events$/);
    await expect(page.locator("[role=status]")).toHaveText("Saved.");
    await expect(section.getByLabel("Tool changes")).toBeChecked();
    await expect(section.getByLabel("Incidents opened")).not.toBeChecked();
    expect(JSON.parse(row()!.events).sort()).toEqual(["incident_resolved", "state_changed", "tools_changed"]);

    // A webhook paused after 3 days of failures: its manage page takes it up again.
    const at = new Date().toISOString();
    db.$client
      .prepare(
        "update subscribers set paused_at = ?, failing_since = ? where id = (select subscriber_id from subscriptions where token = ?)",
      )
      .run(at, at, token);
    await page.goto(manage);
    await page.getByRole("button", { name: "Resume deliveries" }).click();
    await expect(page.locator("[role=status]")).toHaveText("Deliveries resumed.");
    expect(row()!.paused_at).toBeNull();

    await section.getByRole("button", { name: "New signing secret" }).click();
    await expect(page.getByRole("heading", { name: "New signing secret" })).toBeVisible();
    const secret = (await page.locator("#secret").textContent())!.trim();
    expect(secret).not.toBe(hook.secret);
    expect(row()!.secret).toBe(secret);
    await page.getByRole("link", { name: "Back to the manage page" }).click();
    await expect(page.getByRole("heading", { name: "Your subscriptions" })).toBeVisible();

    await section.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.locator("[role=status]")).toContainText("Unsubscribed");
    expect(row()).toBeUndefined();

    const again = await subscribeWebhook(origin, rx.url);
    const againUrl = again.manage.replace(/^https?:\/\/[^/]+/, origin);
    const subscriber = db.$client
      .prepare("select subscriber_id from subscriptions where token = ?")
      .pluck()
      .get(new URL(againUrl).pathname.split("/").pop());
    await page.goto(againUrl);
    await page.getByRole("button", { name: "Delete everything" }).click();
    await expect(page.locator("[role=status]")).toContainText("Deleted: every subscription");
    expect(db.$client.prepare("select count(*) from subscribers where id = ?").pluck().get(subscriber)).toBe(0);
  } finally {
    await rx.close();
  }
});

/** The manage page's own words in English, none of which may show on a Chinese one. */
const MANAGE_ENGLISH = ["Your subscriptions", "Events", "Save events", "Unsubscribe", "Delete everything", "Resume deliveries"];

/** A Chinese manage page: its language, its heading and title, no English of its own, links under /zh, 390 px wide at 390 px. */
async function expectChineseManagePage(page: Page) {
  await expect(page).toHaveURL(/\/zh\/subscriptions\/[A-Za-z0-9_-]+(\?|$)/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
  await expect(page.locator("main h1")).toHaveText("你的订阅");
  await expect(page).toHaveTitle(/^你的订阅/);
  const words = await page
    .locator("main")
    .locator("h1, h2, legend, label, button")
    .evaluateAll((es) => es.map((e) => e.textContent?.trim() ?? ""));
  for (const w of MANAGE_ENGLISH) expect(words, w).not.toContain(w);
  const hrefs = await page.locator("main a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
  expect(hrefs.filter((h) => !h.startsWith("/zh/"))).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the Chinese flow: confirm, manage, unsubscribe and delete answer in Chinese under /zh, as do the plain-text answers", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const origin = site.origin;
  const ZH_EMAIL = "zh-reader@mail.example";
  const before = smtp.mails.length;
  await page.goto(`${origin}/zh${serverUrl(NAME)}`);
  const form = page.locator("#subscribe");
  await form.getByRole("heading", { name: "变化时通知我" }).click();
  await shoot(page, "subscribe-form-zh", "#subscribe");
  await form.getByLabel("邮箱地址或 webhook URL").fill(ZH_EMAIL);
  await form.getByRole("button", { name: "订阅" }).click();
  await expect(page).toHaveURL(/\/zh\/servers\/.*\?subscribe=confirmation_sent#subscribe$/);

  // The confirmation link lands on the Chinese manage page: the subscriber's stored language picks it.
  const mails = await smtp.until(before + 1);
  const confirm = mails[before]!;
  expect(confirm.to).toEqual([ZH_EMAIL]);
  const link = /https?:\/\/\S+\/subscriptions\/confirm\/[A-Za-z0-9_-]+/.exec(confirm.text)![0];
  expect(new URL(link).pathname).toMatch(/^\/zh\/subscriptions\/confirm\/[A-Za-z0-9_-]+$/);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
  await expectChineseManagePage(page);
  await expect(page.locator("[role=status]")).toContainText("已确认");
  await expect(page.getByRole("region", { name: NAME }).getByRole("link", { name: NAME })).toHaveAttribute("href", `/zh${serverUrl(NAME)}`);
  const token = new URL(page.url()).pathname.split("/").pop()!;
  await shoot(page, "subscriptions-manage-zh", "main");

  // The manage link of an email is the root URL: for a Chinese subscriber it leads to the Chinese page.
  await page.goto(`${origin}/subscriptions/${token}`);
  await expectChineseManagePage(page);

  // Plain-text answers (a script or a mail provider posting without the page) are worded in the stored language.
  const noAction = await fetch(`${origin}/subscriptions/${token}/nope`, { method: "POST" });
  expect(noAction.status).toBe(404);
  expect(await noAction.text()).toBe("没有这个操作。\n");
  const resumed = await fetch(`${origin}/subscriptions/${token}/resume`, { method: "POST" });
  expect(resumed.status).toBe(200);
  expect(await resumed.text()).toMatch(/^\p{Script=Han}.*。\n$/u);

  await page.getByRole("button", { name: "保存事件" }).click();
  await expectChineseManagePage(page);
  await expect(page.locator("[role=status]")).toHaveText("已保存。");

  // A webhook through the Chinese form: the secret page, then its manage page; unsubscribing its only subscription
  // deletes the subscriber, and the answer page is still Chinese (the URL's language, nothing stored is left).
  const rx = await startReceiver([200]);
  try {
    await page.goto(`${origin}/zh${serverUrl(NAME)}`);
    await form.getByRole("heading", { name: "变化时通知我" }).click();
    await form.getByLabel("Webhook URL", { exact: true }).check();
    await form.getByLabel("邮箱地址或 webhook URL").fill(rx.url);
    await form.getByRole("button", { name: "订阅" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhook 已订阅");
    const manage = (await page.getByRole("link", { name: "管理此 webhook 的订阅" }).getAttribute("href"))!;
    await page.goto(manage.replace(/^https?:\/\/[^/]+/, origin));
    await expectChineseManagePage(page);
    await page.getByRole("button", { name: "退订" }).click();
    await expectChineseManagePage(page);
    await expect(page).toHaveURL(/\?done=unsubscribed$/);
    await expect(page.locator("[role=status] p")).toHaveText(/^已退订/);
  } finally {
    await rx.close();
  }

  await page.goto(`${origin}/subscriptions/${token}`);
  await page.getByRole("button", { name: "全部删除" }).click();
  await expectChineseManagePage(page);
  await expect(page).toHaveURL(/\?done=deleted$/);
  await expect(page.locator("[role=status] p")).toHaveText(/^已删除/);
  expect(db.$client.prepare("select count(*) from subscribers where lang = 'zh'").pluck().get()).toBe(0);

  // The confirmation link once its subscription is gone: a 404 in the link's language, Chinese under /zh.
  const gone = await page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
  expect(gone!.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("没有这个订阅");
  await expect(page.locator("main")).toContainText("此链接没有对应的订阅");
  await expect(page.getByRole("link", { name: "所有服务端" })).toHaveAttribute("href", "/zh");
  const rootGone = await page.goto(`${origin}${new URL(link).pathname.slice(3)}`);
  expect(rootGone!.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No such subscription");
});

test("a receiver answering 503 twice, then 200: one message, three tries, one message id", async () => {
  const rx = await startReceiver([200, 503, 503, 200]);
  try {
    await subscribeWebhook(site.origin, rx.url, ["state_changed"]);
    failing = true;
    await round(site.origin);
    const hits = await rx.until(4);
    const ids = hits.slice(1).map((h) => (JSON.parse(h.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(hits.slice(1).map((h) => h.headers["x-mcp-status-message-id"]))).toEqual(new Set(ids));
    await expect.poll(outboxPending, { timeout: 10_000 }).toBe(0);
    expect(rx.hits).toHaveLength(4);
  } finally {
    await rx.close();
  }
});

test("kill -9 of the site between the change and the delivery: delivered after the restart", async () => {
  test.setTimeout(150_000);
  // The receiver holds the first try open: the site is killed while it waits for the answer.
  const rx = await startReceiver((n) => (n === 1 ? "hang" : 200));
  try {
    await subscribeWebhook(site.origin, rx.url, ["state_changed"]);
    failing = false;
    await round(site.origin);
    const [, first] = await rx.until(2);
    process.kill(-site.pid, "SIGKILL");
    await expect
      .poll(
        () =>
          fetch(`${site.origin}/api/health`).then(
            () => "up",
            () => "down",
          ),
        { timeout: 10_000 },
      )
      .toBe("down");
    site = await start();
    const hits = await rx.until(3);
    expect(JSON.parse(hits[2]!.body).id).toBe(JSON.parse(first!.body).id);
    await expect.poll(outboxPending, { timeout: 10_000 }).toBe(0);
  } finally {
    await rx.close();
  }
});
