import zlib from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations, screenshot, serverUrl } from "./helpers";
import { CENSUS_DAYS, CENSUS_GAP_DAYS, CENSUS_REBUILT_DAYS, SEED } from "./seed";

// Issue 31 against `npm start` over the seeded database in Chromium: the census over time (120 seeded days with three
// gaps and 20 rebuilt ones) in both languages, in dark mode and without JavaScript; the open-data downloads; the index's
// first screen; the Failed server page's one reason; the Verified server page's height.

const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const CHARTS = ["revisions", "eras", "transports", "auth", "overall", "refusals", "registry"];

/** How many days a chart draws a bar for: the distinct left edges of the rectangles in its series' paths. */
const barDays = (page: Page, chart: string) =>
  page
    .locator(`#${chart}-h + .chart-row svg path.seg`)
    .evaluateAll((paths) => new Set(paths.flatMap((p) => [...(p.getAttribute("d") ?? "").matchAll(/M([\d.]+) /g)].map((m) => m[1]))).size);

test.describe("the census over time", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("draws a chart and a table per count for 90 days, with gaps for days without a round, and says where the series is complete", async ({
    page,
  }) => {
    const res = await page.goto("/census");
    expect(res?.status()).toBe(200);
    for (const id of CHARTS) {
      const chart = page.locator(`section.census-chart[aria-labelledby=${id}-h]`);
      await expect(chart.locator("svg[role=img] title")).toHaveCount(1);
      await expect(chart.locator("table.census-table")).toHaveCount(1);
    }
    // 90 days, less the gaps among them; a gap draws nothing, not a zero bar.
    const inWindow = 90 - CENSUS_GAP_DAYS.filter((d) => d < 90).length;
    expect(await barDays(page, "revisions")).toBe(inWindow);
    const table = page.locator("section[aria-labelledby=revisions-h] table.census-table tbody tr");
    await expect(table).toHaveCount(inWindow);
    const tableDays = await table.locator("th").allTextContents();
    for (const gap of CENSUS_GAP_DAYS) expect(tableDays).not.toContain(dayAgo(gap));
    // The table's last row is today's, counted from the seeded servers: the same numbers as today's snapshot table.
    const snapshotModern = await page
      .locator("section[aria-labelledby=rev-h] tbody tr", { hasText: "2026-07-28" })
      .locator("td[data-label=Servers]")
      .innerText();
    const lastRow = table.last();
    await expect(lastRow.locator("th")).toHaveText(dayAgo(0));
    await expect(page.locator("section[aria-labelledby=revisions-h] thead th").nth(1)).toHaveText("2026-07-28");
    await expect(lastRow.locator("td").first()).toHaveText(snapshotModern);
    // The description a screen reader hears names the latest day and its shares.
    await expect(page.locator("#chart-eras-d")).toContainText(`Latest day ${dayAgo(0)}: Modern (server/discover)`);
    await expect(page.locator("#census-complete")).toContainText(
      `The series is complete from ${dayAgo(CENSUS_DAYS - CENSUS_REBUILT_DAYS - 1)}`,
    );
    await expect(page.locator("#census-complete")).toContainText(`Rows from ${dayAgo(CENSUS_DAYS - 1)} until then were rebuilt`);
    // Today's snapshot stays below.
    await expect(page.locator("section[aria-labelledby=rev-h]")).toContainText("Modern (2026-07-28");
    await expectNoAxeViolations(page);
    await screenshot(page, "census-1280");
  });

  test("the window is part of the URL: a year, all days, and a value that is not allowed is a 400 naming the allowed ones", async ({
    page,
    request,
  }) => {
    await page.goto("/census");
    await page.getByRole("navigation", { name: "Time window" }).getByRole("link", { name: "All days" }).click();
    // A client-side navigation commits the URL once the new page has rendered: slow on a loaded machine.
    await expect(page).toHaveURL(/\/census\?window=all$/, { timeout: 30_000 });
    await expect(page.getByRole("navigation", { name: "Time window" }).locator("[aria-current=page]")).toHaveText("All days");
    expect(await barDays(page, "revisions")).toBe(CENSUS_DAYS - CENSUS_GAP_DAYS.length);
    // Rebuilt days carry no transports: those bars are gaps too.
    expect(await barDays(page, "transports")).toBe(CENSUS_DAYS - CENSUS_GAP_DAYS.length - CENSUS_REBUILT_DAYS);
    await page.goto("/census?window=1y");
    expect(await barDays(page, "registry")).toBe(CENSUS_DAYS - CENSUS_GAP_DAYS.length);
    for (const bad of ["7d", "ALL", ""]) {
      const res = await request.get(`/census?window=${bad}`);
      expect(res.status(), bad).toBe(400);
      expect(await res.text()).toContain("window must be one of 90d, 1y, all");
    }
    expect((await request.get("/zh/census?window=2y")).status()).toBe(400);
  });

  test("works without JavaScript, in dark mode, and in Chinese", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto("/census");
      const light = await page
        .locator("section[aria-labelledby=eras-h] path.seg.t0")
        .first()
        .evaluate((r) => getComputedStyle(r).fill);
      await page.emulateMedia({ colorScheme: "dark" });
      const dark = await page
        .locator("section[aria-labelledby=eras-h] path.seg.t0")
        .first()
        .evaluate((r) => getComputedStyle(r).fill);
      expect(dark).not.toBe(light);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(21, 23, 26)");
      // The numbers open without a script, and the window links are plain links.
      await page.locator("section[aria-labelledby=auth-h] details summary").click();
      await expect(page.locator("section[aria-labelledby=auth-h] table.census-table")).toBeVisible();
      await screenshot(page, "census-1280-dark");
      await page.getByRole("link", { name: "1 year" }).click();
      await expect(page).toHaveURL(/window=1y/);

      await page.emulateMedia({ colorScheme: "light" });
      const res = await page.goto("/zh/census");
      expect(res?.status()).toBe(200);
      await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("全站统计");
      await expect(page.locator("section[aria-labelledby=eras-h] svg title")).toHaveText("新版握手与旧版握手");
      await expect(page.locator("#chart-eras-d")).toContainText(`最近一天 ${dayAgo(0)}`);
      await expect(page.getByRole("navigation", { name: "时间范围" }).getByRole("link", { name: "全部" })).toHaveAttribute(
        "href",
        "/zh/census?window=all",
      );
      await expect(page.getByRole("link", { name: "English" })).toHaveAttribute("href", "/census");
      await screenshot(page, "census-zh-1280");
      await page.emulateMedia({ colorScheme: "dark" });
      await screenshot(page, "census-zh-1280-dark");
    } finally {
      await context.close();
    }
  });

  test("screenshots at 390 px; nothing overflows the page", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/census");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "census-390");
  });
});

test.describe("open data", () => {
  const today = dayAgo(0);
  const file = `/data/servers-${today}.jsonl.gz`;

  test("/data lists the downloads with their schema and licence; the CSV and JSON hold the daily rows", async ({ page, request }) => {
    await page.goto("/data/");
    await expect(page).toHaveURL(/\/data$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Open data");
    await expect(page.locator("#licence")).toContainText("CC-BY-4.0");
    await expect(page.getByRole("link", { name: `servers-${today}.jsonl.gz` })).toHaveAttribute("href", file);
    await expect(page.getByRole("link", { name: `servers-${dayAgo(3)}.jsonl.gz` })).toBeVisible();
    await expect(page.locator("section[aria-labelledby=census-schema-h]")).toContainText("auth:<outcome>");
    const csv = await request.get("/data/census.csv");
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(CENSUS_DAYS - CENSUS_GAP_DAYS.length + 1);
    expect(lines[0]).toMatch(/^day,source,as_of,registry,probed,uncertain,needs_configuration,era:modern,/);
    const json = (await (await request.get("/data/census.json")).json()) as {
      license: { id: string };
      days: { day: string; registry: number }[];
    };
    expect(json.license.id).toBe("CC-BY-4.0");
    expect(json.days.at(-1)).toMatchObject({ day: today, registry: 134 });
  });

  test("a day's servers file is a file: gzip of one JSON object per line, ETag and 304, one range and 206, 404 and 400", async ({
    request,
  }) => {
    const res = await request.get(file);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("application/gzip");
    expect(res.headers()["accept-ranges"]).toBe("bytes");
    const body = await res.body();
    const lines = zlib.gunzipSync(body).toString("utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(134);
    const first = JSON.parse(lines[0]!) as { name: string; checks: Record<string, unknown> };
    expect(Object.keys(first.checks)).toEqual(["handshake", "protocol_version", "tools_list", "error_taxonomy", "auth_metadata"]);
    expect(lines.map((l) => (JSON.parse(l) as { name: string }).name)).toContain(SEED.modern);
    const etag = res.headers()["etag"]!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await request.get(file, { headers: { "if-none-match": etag } });
    expect(again.status()).toBe(304);
    expect((await again.body()).length).toBe(0);
    const part = await request.get(file, { headers: { range: "bytes=10-109" } });
    expect(part.status()).toBe(206);
    expect(part.headers()["content-range"]).toBe(`bytes 10-109/${body.length}`);
    expect(Buffer.compare(await part.body(), body.subarray(10, 110))).toBe(0);
    const tail = await request.get(file, { headers: { range: "bytes=-20" } });
    expect(Buffer.compare(await tail.body(), body.subarray(body.length - 20))).toBe(0);
    expect((await request.get(file, { headers: { range: `bytes=${body.length}-` } })).status()).toBe(416);
    const missing = await request.get(`/data/servers-${dayAgo(40)}.jsonl.gz`);
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error).toBe("not_found");
    for (const bad of ["servers-2026-13-01.jsonl.gz", "servers-2026-1-1.jsonl.gz", "servers-yesterday.jsonl.gz"]) {
      const r = await request.get(`/data/${bad}`);
      expect(r.status(), bad).toBe(400);
      expect((await r.json()).error).toBe("bad_request");
    }
  });
});

test.describe("the index's first screen", () => {
  test("at 1280×800 five server rows are on the first screen, below the summary and the filters", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await expect(page.getByRole("heading", { name: /Summary: 134 servers in the registry/ })).toBeInViewport();
    await expect(page.getByLabel("Name contains")).toBeInViewport();
    await expect(page.getByLabel("Auth metadata", { exact: true })).toBeInViewport();
    await expect(page.getByRole("link", { name: /^Auth metadata Verified: 1 server$/ })).toBeInViewport();
    const boxes = await page
      .locator("table.server-table tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().bottom));
    expect(boxes.filter((bottom) => bottom <= 800).length, "server rows whole on the first screen").toBeGreaterThanOrEqual(5);
    await page.screenshot({ path: "test-results/screenshots/index-first-screen-1280.png" });
  });

  test("at 390×844 the search and the first server row are on the first screen; the per-check parts fold", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await expect(page.getByLabel("Name contains")).toBeInViewport();
    const top = await page
      .locator("table.server-table tbody tr")
      .first()
      .evaluate((r) => r.getBoundingClientRect().top);
    expect(top).toBeLessThan(844);
    // Folded, not gone: the summary line gives the overall counts, and opening it shows the table.
    const summary = page.locator("section.index-summary details > summary");
    await expect(summary).toContainText("42 Verified · 24 Failed");
    await summary.click();
    await expect(page.getByRole("link", { name: /^Auth metadata Verified: 1 server$/ })).toBeVisible();
    await page.getByText("Filter by check, observation or client, or include servers that left the registry").click();
    await expect(page.getByLabel("Handshake", { exact: true })).toBeVisible();
    // A check filter in use keeps them open.
    await page.goto("/?handshake=failed");
    await expect(page.getByLabel("Handshake", { exact: true })).toHaveValue("failed");
    await expect(page.getByLabel("Handshake", { exact: true })).toBeVisible();
    await page.goto("/");
    await page.screenshot({ path: "test-results/screenshots/index-first-screen-390.png" });
  });
});

test.describe("the server page", () => {
  test("a Failed server says its reason once; the checks that share it refer to it", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const json = (await (await request.get(`/api/servers/${SEED.discover500}`)).json()) as { overallReason: string };
    const reason = json.overallReason;
    expect(reason).toMatch(/^server\/discover answered HTTP 500/);
    await page.goto(serverUrl(SEED.discover500));
    // What a reader sees (innerText): a check's card repeats its reason only when a link lands on it.
    const text = await page.locator("main").evaluate((m) => (m as HTMLElement).innerText);
    expect(text.split(reason).length - 1, "times the reason is on the page").toBe(1);
    expect(text).not.toContain("Same reason as the overall state");
    await expect(page.locator("section.glance .overall-why")).toContainText(reason);
    await expect(page.locator("section.glance .overall-why")).toContainText("The same reason holds for Protocol version and Tool list.");
    for (const id of ["handshake", "protocol_version", "tools_list"]) {
      await expect(page.locator(`#glance-${id} td.cell-why`)).toHaveText("");
      await expect(page.locator(`#check-${id} .reason`)).toBeHidden();
    }
    await page.goto(`${serverUrl(SEED.discover500)}#check-tools_list`);
    await expect(page.locator("#check-tools_list .reason")).toBeVisible();
    await expect(page.locator("#check-tools_list .reason")).toContainText(reason);
    await expect(page.locator("#glance-error_taxonomy")).toContainText("withheld");
  });

  test("a Verified server page is under 4,000 px at 1280 with its long sections folded, and a contents link opens one", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(serverUrl(SEED.modern));
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThanOrEqual(4000);
    await screenshot(page, "server-verified-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(serverUrl(SEED.modern));
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(6500);
    await screenshot(page, "server-verified-390");
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator("#evidence details").first()).not.toHaveAttribute("open");
    await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "Evidence" }).click();
    await expect(page.locator("#evidence > details")).toHaveAttribute("open", "");
    await expect(page.locator("#evidence article.exchange").first()).toBeVisible();
  });
});
