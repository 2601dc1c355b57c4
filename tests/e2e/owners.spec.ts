// Owners end to end (architecture.md §11): a real `npm start` of its own with SECRETS_KEY, a loopback registry listing a server
// that needs X-Api-Key and a credential gate that takes a short-lived JWT, and a webhook receiver standing for the owner.
// Claim (422, then 200), configure, a round: the owner's view is Verified while the public state stays Not checked; the key
// starts being refused → owner_configuration_refused; a JWT near its exp → owner_token_expiring. Then the raw SQLite file, its
// WAL, every answer and the site's log are searched for both values; and a restart with another key still serves.
import fs from "node:fs";
import path from "node:path";
import { createHmac, randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { closeDb, openDb, type Db } from "../../db/client";
import { entry, startFixtureRegistry, type FixtureRegistry } from "../../lib/demo/loopback-registry";
import { OWNER_REGISTRY_HEADERS, startOwnerServer, testJwt, type RunningOwnerServer } from "../../lib/demo/zoo/owners";
import { freePort } from "../../lib/cli/ports";
import { startNext, type RunningNext } from "../fixtures/next-server";
import { startReceiver } from "../fixtures/receivers";
import { SCREENSHOT_DIR } from "./env";
import { serverUrl } from "./helpers";
import { freshDbFile } from "./own-site";

const DB_FILE = path.resolve("test-results/owners/site.db");
const KEYED = "io.github.owners/keyed";
const GATE = "io.github.owners/jwt-gate";
const TENANT = "io.github.owners/tenant";
const TENANT_HOST = "io.github.owners/tenant-host";
// A two-character URL variable: the string search of the header redaction would leave it alone.
const TENANT_VALUE = "e~";
const ROUND_SECRET = "owners-round-secret";
const API_KEY = `ak-${randomBytes(12).toString("hex")}`;
const JWT = testJwt(Math.floor(Date.now() / 1000) + 48 * 3600, `owner-${randomBytes(4).toString("hex")}`);

test.describe.configure({ mode: "serial" });
test.use({ javaScriptEnabled: false });

async function shoot(page: Page, name: string, selector = "main", fits = true) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .locator(selector)
      .first()
      .screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`) });
    // Nothing wider than the screen at either width (the owners' pages; the server page's other sections are not ours).
    if (fits) expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

let keyed: RunningOwnerServer;
let gate: RunningOwnerServer;
let tenant: RunningOwnerServer;
let registry: FixtureRegistry;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let db: Db;
let site: RunningNext;
let port: number;
let env: Record<string, string>;
const answers: string[] = [];
let keyedManage = "";
/** The manage page's path of the claim made through the pages. */
let pagesManage = "";

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${site.origin}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  answers.push(text);
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

async function round(): Promise<void> {
  db.$client.prepare("update servers set next_due_at = ?").run(new Date(Date.now() - 1000).toISOString());
  const started = await call("POST", "/api/rounds", undefined, { authorization: `Bearer ${ROUND_SECRET}` });
  expect(started.status).toBe(202);
  const id = started.json().id as number;
  await expect
    .poll(async () => (await call("GET", `/api/rounds/${id}`, undefined, { authorization: `Bearer ${ROUND_SECRET}` })).json().status, {
      timeout: 60_000,
    })
    .toBe("done");
}

/** Claims a server, proving it on its fixture; returns the manage token. */
async function claimAndVerify(name: string, server: RunningOwnerServer): Promise<string> {
  const c = await call("POST", `/api/servers/${name}/claims`, {});
  expect(c.status).toBe(201);
  const { claim, proof } = c.json() as { claim: string; proof: { url: string; body: string } };
  expect(proof.url).toBe(`${server.origin}/.well-known/mcp-status-claim`);
  const before = await call("POST", `/api/claims/${claim}/verify`);
  expect(before.status).toBe(422);
  expect(before.json()).toMatchObject({ error: "proof_not_found", fetched: { status: 404 } });
  server.state.proof = proof.body;
  const after = await call("POST", `/api/claims/${claim}/verify`);
  expect(after.status).toBe(200);
  return (after.json().manage as string).split("/").pop()!;
}

const events = () => receiver.hits.map((h) => h.headers["x-mcp-status-event"]);

test.beforeAll(async () => {
  test.setTimeout(150_000);
  keyed = await startOwnerServer("owner-key", { state: { key: API_KEY } });
  gate = await startOwnerServer("owner-jwt-gate", { host: "127.0.0.5", otherHost: "127.0.0.6" });
  tenant = await startOwnerServer("owner-tenant", { host: "127.0.0.13", otherHost: "127.0.0.14", state: { tenant: TENANT_VALUE } });
  registry = await startFixtureRegistry([
    entry(TENANT_HOST, [{ type: "streamable-http", url: "https://{tenant}.example.invalid/mcp", variables: { tenant: {} } }]),
    entry(TENANT, [
      {
        type: "streamable-http",
        url: `${tenant.origin}/{tenant}/mcp`,
        variables: { tenant: { description: "Your tenant", isRequired: true } },
      },
    ]),
    entry(KEYED, [{ type: "streamable-http", url: keyed.url, headers: OWNER_REGISTRY_HEADERS["owner-key"] }]),
    entry(GATE, [{ type: "streamable-http", url: gate.url, headers: OWNER_REGISTRY_HEADERS["owner-jwt-gate"] }]),
  ]);
  receiver = await startReceiver([200]);
  freshDbFile(DB_FILE);
  db = openDb(DB_FILE);
  port = await freePort();
  env = {
    PROBE_ALLOW_PRIVATE_NETWORKS: "1",
    REGISTRY_URL: registry.url,
    CRON_SECRET: ROUND_SECRET,
    CROSS_READ_SAMPLE: "0",
    SECRETS_KEY: randomBytes(32).toString("base64"),
    NOTIFY_POLL_MS: "200",
    NOTIFY_RETRY_BASE_MS: "400",
    NOTIFY_FOLD_MINUTES: "0",
  };
  site = await startNext({ dbPath: DB_FILE, port, env });
  await round();
});

test.afterEach(async ({}, info) => {
  if (info.status !== info.expectedStatus) console.log(`--- site output ---\n${site?.output().slice(-4000)}`);
});

test.afterAll(async () => {
  await site?.stop();
  if (db) closeDb(db);
  await receiver?.close();
  await registry?.close();
  await keyed?.close();
  await gate?.close();
  await tenant?.close();
});

test("claim (422, then 200), configure, a round: the owner's view is Verified while the public state stays Not checked", async () => {
  test.setTimeout(120_000);
  const before = (await call("GET", `/api/servers/${KEYED}`)).json();
  expect(before).toMatchObject({ overall: "not_checked", ownerView: null });
  keyedManage = await claimAndVerify(KEYED, keyed);
  const sub = await call("POST", `/api/owners/${keyedManage}/subscriptions`, { webhook: receiver.url });
  expect(sub.status).toBe(201);
  const put = await call("PUT", `/api/owners/${keyedManage}/configuration`, { headers: { "X-Api-Key": API_KEY } });
  expect(put.status).toBe(204);
  expect(put.text).toBe("");
  expect((await call("PUT", `/api/owners/${keyedManage}/configuration`, { headers: { "X-Unlisted": "v" } })).status).toBe(400);
  expect((await call("PUT", `/api/owners/${keyedManage}/configuration`, { headers: { "X-Api-Key": "a\r\nb" } })).status).toBe(400);

  await round();
  const after = (await call("GET", `/api/servers/${KEYED}`)).json() as {
    overall: string;
    ownerView: { state: string; summary: string; outcome: string; tools: number; checks: Record<string, { state: string }> };
  };
  expect(after.overall).toBe("not_checked");
  expect(after.ownerView).toMatchObject({ state: "verified", outcome: "up" });
  expect(after.ownerView.summary).toMatch(/^With the owner's key: Verified, \d+ tools?\.$/);
  expect(after.ownerView.checks.tools_list!.state).toBe("verified");
  const badge = await call("GET", `/badge/${KEYED}?view=owner`);
  expect(badge.text).toContain("verified");
  expect((await call("GET", `/badge/${KEYED}`)).text).toContain("not checked");
  expect(keyed.log.some((r) => r.headers["x-api-key"] === API_KEY)).toBe(true);
});

test("the key starts being refused: the owner's webhook gets owner_configuration_refused, the public state does not move", async () => {
  test.setTimeout(120_000);
  keyed.state.key = "a-key-the-owner-rotated-elsewhere";
  await round();
  await expect.poll(events, { timeout: 60_000 }).toContain("owner_configuration_refused");
  const hit = receiver.hits.find((h) => h.headers["x-mcp-status-event"] === "owner_configuration_refused")!;
  expect(JSON.parse(hit.body)).toMatchObject({ type: "owner_configuration_refused", server: { name: KEYED } });
  const view = (await call("GET", `/api/servers/${KEYED}`)).json() as { overall: string; ownerView: { state: string; outcome: string } };
  expect(view.overall).toBe("not_checked");
  expect(view.ownerView).toMatchObject({ state: "not_checked", outcome: "refused" });
  // The 401 pointed at a metadata host elsewhere: asked, never with the key.
  expect(keyed.other.log.length).toBeGreaterThan(0);
  expect(JSON.stringify(keyed.other.log)).not.toContain(API_KEY);
});

test("a JWT within 72 h of its exp: owner_token_expiring; with it the gate lets the owner's view in", async () => {
  test.setTimeout(120_000);
  const manage = await claimAndVerify(GATE, gate);
  expect((await call("POST", `/api/owners/${manage}/subscriptions`, { webhook: receiver.url })).status).toBe(201);
  expect((await call("PUT", `/api/owners/${manage}/configuration`, { headers: { Authorization: `Bearer ${JWT}` } })).status).toBe(204);
  await expect.poll(events, { timeout: 60_000 }).toContain("owner_token_expiring");
  await round();
  const view = (await call("GET", `/api/servers/${GATE}`)).json() as { overall: string; ownerView: { state: string } };
  expect(view.overall).toBe("not_checked");
  expect(view.ownerView.state).toBe("verified");
});

test("a URL variable set on the manage page: the owner's view is Verified on the filled URL, the public reach stays no_address", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const before = (await call("GET", `/api/servers/${TENANT}`)).json() as { configuration: { reach: string } };
  expect(before.configuration.reach).toBe("no_address");
  expect(tenant.log.filter((r) => r.path.endsWith("/mcp"))).toHaveLength(0);
  const manage = await claimAndVerify(TENANT, tenant);
  await page.goto(`${site.origin}/owners/${manage}`);
  await expect(page.locator("main")).toContainText("URL variables the site fills in");
  await page.getByLabel("{tenant}").fill("a/b");
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.locator("[role=status]")).toContainText("may not contain whitespace, / ? # @");
  await page.getByLabel("{tenant}").fill(TENANT_VALUE);
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.locator("[role=status]")).toContainText("Saved");
  await expect(page.locator("main")).toContainText("{tenant}: set on");
  await round();
  await page.reload();
  await expect(page.locator("#owner-view")).toContainText("With the owner's key: Verified");
  const after = (await call("GET", `/api/servers/${TENANT}`)).json() as {
    overall: string;
    configuration: { reach: string };
    ownerView: { state: string; outcome: string };
  };
  expect(after.configuration.reach).toBe("no_address");
  expect(after.ownerView).toMatchObject({ state: "verified", outcome: "up" });
  expect(tenant.log.some((r) => r.path === `/${TENANT_VALUE}/mcp`)).toBe(true);
  await page.goto(`${site.origin}${serverUrl(TENANT)}`);
  await expect(page.locator("#owner-view")).toContainText("With the owner's key: Verified");
  const html = await page.content();
  expect(html).not.toContain(`/${TENANT_VALUE}/`);
  answers.push(html);
  // A listing whose host is the variable has no one origin to prove: no claim button, the reason instead; the API says 422.
  await page.goto(`${site.origin}${serverUrl(TENANT_HOST)}`);
  const section = page.locator("#owner");
  await section.getByRole("heading", { name: "Is this your server?" }).click();
  await expect(section).toContainText("The host of this server's URL is a URL variable");
  await expect(section.getByRole("button", { name: "Claim this listing" })).toHaveCount(0);
  const refused = await call("POST", `/api/servers/${TENANT_HOST}/claims`, {});
  expect(refused.status).toBe(422);
  expect(refused.json()).toMatchObject({ error: "variable_host" });
});

test("neither value is in the raw SQLite file, its WAL, any answer, any page, or the site's log output", async () => {
  const pages = [
    serverUrl(KEYED),
    serverUrl(GATE),
    serverUrl(TENANT),
    `/api/servers/${KEYED}`,
    `/api/servers/${GATE}`,
    `/api/servers/${TENANT}`,
    "/",
    "/changes/feed.xml",
    "/api/status",
  ];
  for (const u of pages) await call("GET", u);
  // The URL variable as it would sit in a URL; bare, it is looked for only where no page's own text could hold it.
  const needles = [API_KEY, JWT, JWT.split(".")[1]!, `/${TENANT_VALUE}/`];
  for (const file of [DB_FILE, `${DB_FILE}-wal`]) {
    if (!fs.existsSync(file)) continue;
    const raw = fs.readFileSync(file);
    for (const n of [...needles, TENANT_VALUE]) expect(raw.includes(Buffer.from(n)), `${path.basename(file)} holds a value`).toBe(false);
  }
  const all = answers.join("\n");
  for (const n of needles) expect(all).not.toContain(n);
  for (const h of receiver.hits) for (const n of needles) expect(h.body).not.toContain(n);
  for (const n of [...needles, TENANT_VALUE]) expect(site.output()).not.toContain(n);
});

test("restarted with another SECRETS_KEY: pages answer, and the owner's view says its configuration cannot be read", async () => {
  test.setTimeout(150_000);
  keyed.state.key = API_KEY;
  await site.stop();
  site = await startNext({ dbPath: DB_FILE, port, env: { ...env, SECRETS_KEY: randomBytes(32).toString("base64") } });
  expect((await call("GET", serverUrl(KEYED))).status).toBe(200);
  await round();
  const view = (await call("GET", `/api/servers/${KEYED}`)).json() as {
    ownerView: { outcome: string; checks: { handshake: { reason: string } } };
  };
  expect(view.ownerView.outcome).toBe("unreadable");
  expect(view.ownerView.checks.handshake.reason).toContain("cannot be read");
  expect(site.output()).not.toMatch(/\b500\b.*owners|TypeError|Unhandled/);
});

test("through the pages: Is this your server?, the claim page, verify, the manage page, a key set; the owner's view on the server page", async ({
  page,
}) => {
  test.setTimeout(150_000);
  keyed.state.proof = undefined;
  await page.goto(`${site.origin}${serverUrl(KEYED)}`);
  const section = page.locator("#owner");
  await section.getByRole("heading", { name: "Is this your server?" }).click();
  await section.getByRole("button", { name: "Claim this listing" }).click();
  await expect(page).toHaveURL(/\/claims\/[A-Za-z0-9_-]+$/);
  await expect(page.locator("h1")).toHaveText("Claim a listing");
  const body = (await page.locator(".copy-field pre").nth(1).innerText()).trim();
  expect(body).toMatch(/^mcp-status-claim=/);
  await shoot(page, "owners-claim-en");
  await page.getByRole("button", { name: "Verify now" }).click();
  await expect(page.locator("[role=status]")).toContainText("did not answer with the file (HTTP 404)");
  keyed.state.proof = body;
  await page.getByRole("button", { name: "Verify now" }).click();
  await expect(page).toHaveURL(/\/owners\/[A-Za-z0-9_-]+\?done=verified$/);
  pagesManage = new URL(page.url()).pathname;
  await expect(page.locator("[role=status]")).toContainText("Verified");
  await page.getByLabel("x-api-key").fill(API_KEY);
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.locator("[role=status]")).toContainText("Saved");
  await expect(page.locator("main")).toContainText("x-api-key: set on");
  expect(await page.content()).not.toContain(API_KEY);
  await round();
  await page.reload();
  await expect(page.locator("#owner-view")).toContainText("With the owner's key: Verified");
  await shoot(page, "owners-manage-en");
  await page.goto(`${site.origin}${serverUrl(KEYED)}`);
  await expect(page.locator("#owner-view")).toContainText("With the owner's key: Verified");
  await expect(page.locator(".overall").first()).toContainText("Not checked");
  await shoot(page, "owners-server-view-en", "#owner-view", false);
  await shoot(page, "owners-server-page-en", "main", false);
  expect(await page.content()).not.toContain(API_KEY);
});

test("a webhook added on the manage page: its signing secret is shown once, signs the messages, and is never shown again", async ({
  page,
}) => {
  test.setTimeout(150_000);
  expect(pagesManage).toMatch(/^\/owners\//);
  const hook = await startReceiver([200]);
  try {
    await page.goto(`${site.origin}${pagesManage}`);
    await page.getByLabel("Webhook URL or email address").fill(hook.url);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("h1")).toHaveText("Webhook subscribed");
    await expect(page.locator("main")).toContainText("Signing secret (shown this once: keep it now):");
    const secret = (await page.locator("#secret").innerText()).trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const signed = (h: { headers: Record<string, unknown>; body: string }) =>
      h.headers["x-mcp-status-signature"] === `sha256=${createHmac("sha256", secret).update(h.body).digest("hex")}`;
    // The test message that confirmed the webhook is signed with it…
    expect(hook.hits.length).toBe(1);
    expect(signed(hook.hits[0]!)).toBe(true);
    // …and so is a real owner event: the key starts being refused.
    keyed.state.key = "a-key-the-owner-rotated-once-more";
    await round();
    const refused = () => hook.hits.find((h) => h.headers["x-mcp-status-event"] === "owner_configuration_refused");
    await expect.poll(() => refused() !== undefined, { timeout: 60_000 }).toBe(true);
    expect(signed(refused()!)).toBe(true);
    expect(signed({ ...refused()!, body: `${refused()!.body} ` })).toBe(false);
    // Back on the manage page (and reloaded), the secret is nowhere.
    await page.getByRole("link", { name: "Back to the manage page" }).click();
    await expect(page.locator("h1")).toHaveText("Manage your listing");
    await expect(page.locator("main")).toContainText("1 confirmed subscription.");
    await page.reload();
    expect(await page.content()).not.toContain(secret);
    expect((await call("GET", pagesManage)).text).not.toContain(secret);
  } finally {
    keyed.state.key = API_KEY;
    await hook.close();
  }
});

test("the claim and manage pages in Chinese", async ({ page }) => {
  test.setTimeout(120_000);
  const c = await call("POST", `/api/servers/${GATE}/claims`, { lang: "zh" });
  expect(c.status).toBe(201);
  const { claim, proof } = c.json() as { claim: string; proof: { body: string } };
  await page.goto(`${site.origin}/claims/${claim}`);
  await expect(page.locator("h1")).toHaveText("认领条目");
  await shoot(page, "owners-claim-zh");
  gate.state.proof = proof.body;
  await page.getByRole("button", { name: "立即验证" }).click();
  await expect(page).toHaveURL(/\/owners\//);
  await expect(page.locator("h1")).toHaveText("管理你的条目");
  await expect(page.locator("#owner-view")).toContainText("使用所有者的密钥");
  await shoot(page, "owners-manage-zh");
  await page.goto(`${site.origin}/zh/faq/owners`);
  await expect(page.locator("h1")).toContainText("所有者");
  await page.goto(`${site.origin}/faq/owners`);
  await expect(page.locator("h1")).toContainText("Owners");
});
