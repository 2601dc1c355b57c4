import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { percentile } from "../../lib/site/history";
import { E2E_DB, SCREENSHOT_DIR } from "./env";
import { SEED } from "./seed";
import { collectConsoleErrors, expectNoAxeViolations, parseAtom, screenshot, serverUrl } from "./helpers";

// History strip, response times, the latency badge and the state-change feeds, against the seeded site
// (90 days of day rows; four timed runs a day for the last 30 days on the weather server).

const enc = (name: string) => name.split("/").map(encodeURIComponent).join("/");

/** Handshake times of the weather server's runs since `fromIso`, read straight from the seeded file. */
function seededHandshakes(fromIso: string): number[] {
  const db = new Database(E2E_DB, { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(
          "select r.handshake_ms as ms from runs r join servers s on s.id = r.server_id where s.name = ? and r.started_at >= ? and r.handshake_ms is not null",
        )
        .all(SEED.modern, fromIso) as { ms: number }[]
    ).map((r) => r.ms);
  } finally {
    db.close();
  }
}

test("the server page shows 90 day bars with a tooltip each, a legend and a table with links to the day's run", async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto(serverUrl(SEED.modern));
  const history = page.locator("#history");
  await expect(history.getByRole("heading", { level: 2 })).toHaveText("History, last 90 days");
  const bars = history.locator("svg.strip rect");
  await expect(bars).toHaveCount(90);
  await expect(history.locator("svg.strip rect.day-failed")).toHaveCount(1);
  await expect(history.locator("svg.strip rect.day-observed_risk")).toHaveCount(1);
  // Days 60–89 ago with d % 9 == 0 had no probe: 63, 72, 81 → three short bars.
  await expect(history.locator("svg.strip rect.day-none")).toHaveCount(3);
  const today = new Date().toISOString().slice(0, 10);
  const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  await expect(bars.last().locator("title")).toHaveText(`${today}: Verified (worst of 4 probes); click to open the day's last run`);
  await expect(history.locator("svg.strip rect.day-failed title")).toHaveText(
    `${twoDaysAgo}: Failed (worst of 4 probes); click to open the day's last run`,
  );
  await expect(history).toContainText("Last 90 UTC days: 1 day Failed, 1 day Observed risk, 85 days Verified, 3 days without a probe.");
  for (const label of ["Failed", "Observed risk", "Not checked", "Verified", "No probe that day"]) {
    await expect(history.locator(".legend")).toContainText(label);
  }

  await history.getByText("The days with a probe, as a table (87)").click();
  const row = history.locator("table.history-table tbody tr", { hasText: twoDaysAgo });
  await expect(row).toContainText("Failed");
  await expect(history.locator("table.history-table tbody tr", { hasText: "no longer kept" }).first()).toBeVisible();
  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Probe of ${SEED.modern}`);
  await expect(page.locator("dl.facts")).toContainText("Handshake time");
  await expect(page.locator("dl.facts")).toContainText(/\d+ ms/);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: SEED.modern }).click();
  await expect(page).toHaveURL(new RegExp(`${serverUrl(SEED.modern)}$`));
  expect(errors).toEqual([]);
});

test("response times: p50 and p95 over 24 hours and 30 days match the stored runs, with a chart", async ({ page }) => {
  await page.goto(serverUrl(SEED.modern));
  const section = page.locator("#response-time");
  // Folded under its heading (the page stays short); the heading opens it.
  await section.locator("summary").click();
  const now = Date.now();
  const day = seededHandshakes(new Date(now - 86_400_000).toISOString());
  const month = seededHandshakes(new Date(now - 30 * 86_400_000).toISOString());
  expect(day.length).toBeGreaterThanOrEqual(4);
  const row = section.locator("table.latency-table tr", { has: page.locator("th", { hasText: "Handshake" }) });
  const fmt = (v: number | null) => `${v!.toLocaleString("en-US")} ms`;
  await expect(row.locator("td").nth(0)).toHaveText(`${fmt(percentile(day, 50))} / ${fmt(percentile(day, 95))} (${day.length})`);
  await expect(row.locator("td").nth(1)).toHaveText(`${fmt(percentile(month, 50))} / ${fmt(percentile(month, 95))} (${month.length})`);
  await expect(section.locator("svg.chart.latency path.series.handshake")).toHaveAttribute("d", /^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+){20,}$/);
  await expect(section.getByRole("img", { name: "Daily median response time, last 30 days" })).toBeVisible();

  const api = await (await page.request.get(`/api/servers/${enc(SEED.modern)}`)).json();
  expect(api.history).toHaveLength(90);
  expect(api.history[89]).toMatchObject({ state: "verified", probes: 4 });
  expect(api.responseTimes.last24h.handshake).toEqual({ p50: percentile(day, 50), p95: percentile(day, 95), samples: day.length });
  expect(api.responseTimes.last30d.handshake.samples).toBe(month.length);
  expect(api.checks.handshake.state).toBe("verified");
});

test("the shields endpoint answers the handshake p95 with ?metric=latency", async ({ request }) => {
  const day = seededHandshakes(new Date(Date.now() - 86_400_000).toISOString());
  const res = await request.get(`/api/badge/${enc(SEED.modern)}?metric=latency`);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body).toMatchObject({
    schemaVersion: 1,
    label: "MCP handshake p95",
    message: `${percentile(day, 95)!.toLocaleString("en-US")} ms (24 h)`,
  });
  expect(body.color).toMatch(/^[0-9a-f]{6}$/);
  const none = await (await request.get(`/api/badge/${enc(SEED.gated)}?metric=latency`)).json();
  expect(none.message).toBe("no measurement");
  expect((await request.get(`/api/badge/${enc(SEED.modern)}?metric=speed`)).status()).toBe(400);
  expect((await request.get(`/api/badge/nobody/none?metric=latency`)).status()).toBe(404);
  const svg = await request.get(`/badge/${enc(SEED.modern)}?metric=latency`);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");
  expect(await svg.text()).toContain("handshake p95");
});

test("state changes: the Atom feeds parse, newest first, and the server page links them", async ({ page, request }) => {
  await page.goto(serverUrl(SEED.modern));
  const alt = page.locator('link[rel=alternate][type="application/atom+xml"]');
  await expect(alt).toHaveCount(2);
  const selfFeed = `/changes/states.xml?server=${encodeURIComponent(SEED.modern)}`;
  await expect(page.locator(`link[rel=alternate][href="${selfFeed}"]`)).toHaveAttribute("title", `State changes: ${SEED.modern}`);
  await expect(page.getByRole("link", { name: /Subscribe to this server's state changes/ })).toHaveAttribute("href", selfFeed);

  const one = await request.get(selfFeed);
  expect(one.status()).toBe(200);
  expect(one.headers()["content-type"]).toContain("application/atom+xml");
  const feed = await parseAtom(page, await one.text());
  expect(feed.error).toBeNull();
  expect(feed.root).toBe("feed");
  expect(feed.ns).toBe("http://www.w3.org/2005/Atom");
  // Five first results three days ago, then the handshake's failure and recovery.
  expect(feed.entries).toHaveLength(7);
  expect(feed.entries[0]!.title).toBe(`${SEED.modern}: Handshake Failed → Verified`);
  expect(feed.entries[0]!.link).toMatch(/\/servers\/io\.github\.acme\/weather#check-handshake$/);
  expect(feed.entries[1]!.title).toBe(`${SEED.modern}: Handshake Verified → Failed`);
  expect(feed.entries[1]!.summary).toContain("Connection timed out after 10000 ms");
  expect(feed.entries.slice(2).every((e) => e.title.includes("first result"))).toBe(true);
  for (let i = 1; i < feed.entries.length; i++) expect(feed.entries[i - 1]!.updated >= feed.entries[i]!.updated).toBe(true);

  const all = await parseAtom(page, await (await request.get("/changes/states.xml")).text());
  expect(all.error).toBeNull();
  expect(all.entries).toHaveLength(100);
  expect(all.entries[0]!.title).toContain(SEED.modern);
  // Hostile names stay text inside the XML.
  const hostile = await parseAtom(page, await (await request.get(`/changes/states.xml?server=${encodeURIComponent(SEED.hostile)}`)).text());
  expect(hostile.error).toBeNull();
  expect(hostile.entries[0]!.title.startsWith(SEED.hostile)).toBe(true);
  expect((await request.get("/changes/states.xml?server=nobody%2Fnothing")).status()).toBe(404);
});

test("index rows carry a compact 90-day strip with its sentence", async ({ page }) => {
  await page.goto(`/?q=${encodeURIComponent("acme/weather")}`);
  const cell = page.locator("table.server-table tbody tr").first().locator("td[data-label='Last probed']");
  await expect(cell.locator("svg.strip-compact path")).toHaveCount(4);
  await expect(cell.locator(".visually-hidden")).toHaveText(
    "Last 90 UTC days: 1 day Failed, 1 day Observed risk, 85 days Verified, 3 days without a probe.",
  );
  await expect(cell.locator(".strip-cell")).toHaveAttribute("title", /^Last 90 UTC days: 1 day Failed/);
});

/** The page from its top to the end of the probe-again section: header, facts, history, response time, form. */
async function shootTop(page: Page, name: string): Promise<void> {
  const box = await page.locator("#reprobe").boundingBox();
  const width = page.viewportSize()!.width;
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.ceil(box!.y + box!.height + 16) },
  });
}

test("screenshots of the server page with its history on desktop and phone; axe finds nothing", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(serverUrl(SEED.modern));
  await expectNoAxeViolations(page);
  await shootTop(page, "server-history-desktop");
  await screenshot(page, "server-history-desktop-full");
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(serverUrl(SEED.modern));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
  await shootTop(page, "server-history-phone");
});
