// "Probe again now", end to end: a real `npm start` of its own (loopback probing allowed, a small hourly
// cap), real loopback MCP servers, Chromium posting the plain form with JavaScript off. The shared e2e
// server's seed stays as the other specs expect it.
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { closeDb, openDb, type Db } from "../../db/client";
import { addOptOut } from "../../lib/store/optouts";
import { applyRegistrySnapshot } from "../../lib/store/servers/registry";
import { startZooServer, type RunningZooServer } from "../../lib/demo/zoo";
import { listedServer } from "../unit/store/listed";
import { SCREENSHOT_DIR } from "./env";
import { serverUrl } from "./helpers";
import { freshDbFile, startOwnSite, type OwnSite } from "./own-site";

const DB_FILE = path.resolve("test-results/reprobe/reprobe-site.db");
const HOURLY_CAP = 4;
const NAMES = {
  healthy: "io.github.fix/healthy",
  optedOut: "io.github.fix/opted-out",
  second: "io.github.fix/second",
  third: "io.github.fix/third",
  fourth: "io.github.fix/fourth",
  left: "io.github.fix/left",
} as const;

test.describe.configure({ mode: "serial" });
test.use({ javaScriptEnabled: false });

interface Site extends OwnSite {
  db: Db;
  zoo: RunningZooServer;
  recorder: http.Server;
  /** Every request the opted-out host received. */
  hits: string[];
}
let site: Site | undefined;

async function startSite(): Promise<Site> {
  const zoo = await startZooServer("modern-healthy-paged");
  const hits: string[] = [];
  const recorder = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((r) => recorder.listen(0, "127.0.0.1", r));
  const recorderUrl = `http://127.0.0.1:${(recorder.address() as net.AddressInfo).port}/mcp`;

  freshDbFile(DB_FILE);
  const db = openDb(DB_FILE);
  // Port 9 (discard) refuses at once: those servers fail fast when probed.
  const refused = "http://127.0.0.1:9/mcp";
  const now = new Date().toISOString();
  applyRegistrySnapshot(
    db,
    [
      listedServer(NAMES.healthy, zoo.url),
      listedServer(NAMES.optedOut, recorderUrl),
      listedServer(NAMES.second, refused),
      listedServer(NAMES.third, refused),
      listedServer(NAMES.fourth, refused),
      listedServer(NAMES.left, refused),
    ],
    now,
  );
  db.$client.prepare("update servers set left_registry_at = ?, registry_status = 'left' where name = ?").run(now, NAMES.left);
  addOptOut(db, { host: new URL(recorderUrl).host, reason: "the operator asked by email", source: "operator", since: now });

  const own = await startOwnSite(DB_FILE, {
    PROBE_ALLOW_PRIVATE_NETWORKS: "1",
    REPROBE_MIN_MINUTES: "15",
    REPROBE_HOURLY_CAP: String(HOURLY_CAP),
  });
  return { ...own, db, zoo, recorder, hits };
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  site = await startSite();
});

test.afterAll(async () => {
  if (!site) return;
  const s = site;
  site = undefined;
  await s.stop();
  closeDb(s.db);
  await s.zoo.close();
  await new Promise((r) => s.recorder.close(r));
});

const count = (sql: string, ...args: unknown[]) => (site!.db.$client.prepare(sql).get(...args) as { n: number }).n;
const requestsFor = (name: string) =>
  count("select count(*) as n from reprobe_requests r join servers s on s.id = r.server_id where s.name = ?", name);
const runsFor = (name: string) => count("select count(*) as n from runs r join servers s on s.id = r.server_id where s.name = ?", name);

async function post(page: Page, name: string): Promise<string> {
  await page.goto(`${site!.origin}${serverUrl(name)}`);
  await page.getByRole("button", { name: "Probe again now" }).click();
  await expect(page).toHaveURL(/\?reprobe=/);
  return (await page.locator("#reprobe [role=status]").innerText()).trim();
}

/** Reloads the page until the request shows as probed. */
async function untilProbed(page: Page, name: string): Promise<string> {
  const until = Date.now() + 30_000;
  for (;;) {
    await page.goto(`${site!.origin}${serverUrl(name)}`);
    const text = await page.locator("#reprobe [role=status]").innerText();
    if (text.includes("probed at") || Date.now() > until) return text;
    await page.waitForTimeout(300);
  }
}

test("an opted-out host is never contacted through the form: the request is answered from the opt-out", async ({ page }) => {
  const s = site!;
  expect(await post(page, NAMES.optedOut)).toMatch(/queued|probed at/);
  const status = await untilProbed(page, NAMES.optedOut);
  expect(status).toMatch(/probed at \d{4}-\d\d-\d\d \d\d:\d\d UTC without a request/);
  await expect(page.locator("#check-handshake")).toContainText("Not checked");
  // The reason is the overall state's: said once in the overall line, and the check's row leaves it out.
  await expect(page.locator("section.glance .overall-why")).toContainText("asked not to be probed");
  await expect(page.locator("#glance-handshake td.cell-why")).toHaveText("");
  expect(runsFor(NAMES.optedOut)).toBe(1);
  expect(s.hits).toEqual([]);
});

test("five posts for one server: one probe queued and run, four refused with the reason; the page shows the new result", async ({
  page,
}) => {
  const s = site!;
  const answers: string[] = [];
  for (let i = 0; i < 5; i++) answers.push(await post(page, NAMES.healthy));
  expect(answers[0]).toMatch(/queued|probed at/);
  for (const a of answers.slice(1)) {
    expect(a).toMatch(
      /Not queued: this server may be probed on request at most once every 15 minutes\. Try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
    );
  }
  expect(requestsFor(NAMES.healthy)).toBe(1);
  expect(await untilProbed(page, NAMES.healthy)).toContain("probed at");
  // Exactly one probe reached the server: one handshake, one run.
  expect(s.zoo.log.filter((r) => r.jsonrpcMethod === "server/discover")).toHaveLength(1);
  expect(runsFor(NAMES.healthy)).toBe(1);
  // The page after the re-probe shows the probe's own verdicts (not a cached "not probed yet").
  await expect(page.locator("#check-handshake h3")).toContainText("Verified");
  await expect(page.locator("#check-tools_list h3")).toContainText("Verified");
  await expect(page.locator("#history svg.strip rect").last()).toHaveClass(/day-verified/);
  await expect(page.locator("#response-time table")).toContainText("(1)");
  await page.locator("#reprobe").screenshot({ path: path.join(SCREENSHOT_DIR, "server-reprobe-probed.png") });
});

test("the hourly cap holds across servers and says when to try again", async ({ page }) => {
  expect(await post(page, NAMES.second)).toMatch(/queued|probed at/);
  expect(await post(page, NAMES.third)).toMatch(/queued|probed at/);
  expect(await post(page, NAMES.fourth)).toMatch(
    new RegExp(
      `Not queued: the site takes at most ${HOURLY_CAP} requests an hour across all servers, and that many came in the last hour\\. Try again after .+ UTC\\.`,
    ),
  );
  expect(requestsFor(NAMES.fourth)).toBe(0);
  expect(count("select count(*) as n from reprobe_requests")).toBe(HOURLY_CAP);
});

test("posts from another site are refused, and a server that left the registry cannot be asked for", async ({ page }) => {
  const s = site!;
  await page.goto(`${s.origin}${serverUrl(NAMES.fourth)}`);
  const token = await page.locator("#reprobe input[name=token]").getAttribute("value");
  // A page that is not this site posts the same form (with a valid token) from the browser.
  await page.goto("about:blank");
  await page.setContent(
    `<form method="post" action="${s.origin}/api/reprobe"><input name="server" value="${NAMES.fourth}"><input name="token" value="${token}"><button>go</button></form>`,
  );
  const [res] = await Promise.all([page.waitForResponse(`${s.origin}/api/reprobe`), page.getByRole("button", { name: "go" }).click()]);
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain("only accepts posts from this site's own pages");

  const forged = await page.request.post(`${s.origin}/api/reprobe`, {
    form: { server: NAMES.fourth, token: token! },
    headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(requestsFor(NAMES.fourth)).toBe(0);

  await page.goto(`${s.origin}${serverUrl(NAMES.left)}`);
  await expect(page.locator("#reprobe")).toContainText("left the registry, so it cannot be probed on request");
  await expect(page.getByRole("button", { name: "Probe again now" })).toHaveCount(0);
});
