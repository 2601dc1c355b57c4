import { expect, test, type Page } from "@playwright/test";
import { SEED } from "./seed";
import { serverUrl } from "./helpers";

// A reader's pass over the site (issue #42): small screens, long names, the index's first screen, text said once.

const SERVER_PAGES = (
  [
    "allStates",
    "modern",
    "gated",
    "legacy",
    "down",
    "left",
    "hostile",
    "optedOut",
    "multiRemote",
    "hinted",
    "certSoon",
    "longName",
    "poisoned",
    "discover500",
    "regional",
  ] as const
).map((k) => serverUrl(SEED[k]));

const PAGES = [
  "/",
  "/?overall=not_checked",
  "/?observations=any",
  "/?overall=failed&initializeFirst=no&includeLeft=1",
  ...SERVER_PAGES,
  "/changes",
  "/incidents",
  "/coverage",
  "/census",
  "/zh/census",
  "/data",
  "/faq",
  "/faq/handshake",
  "/zh/faq/handshake",
  "/runs/2",
];

/** page.goto, again after the Retry-After second when the front sheds load with a 503 (its render queue is full on a
 * loaded machine); any other status is the page's own. */
async function open(page: Page, path: string) {
  for (let i = 0; ; i++) {
    const res = await page.goto(path);
    if (res?.status() !== 503 || i === 4) return res;
    await page.waitForTimeout(1_000 * Number(res.headers()["retry-after"] ?? 1));
  }
}

/** The document's width and the first few elements that reach past the viewport's right edge. */
async function overflow(page: Page) {
  return page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.closest("[class*=scroll]"))
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent ?? "").slice(0, 50)}`),
  }));
}

test("no document is wider than 390 px at 390 px", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const failures: string[] = [];
  for (const path of PAGES) {
    const res = await open(page, path);
    expect(res?.status(), path).toBe(200);
    const o = await overflow(page);
    if (o.width > 390) failures.push(`${path}: ${o.width} px (${o.wide.join(" | ")})`);
  }
  expect(failures).toEqual([]);
});

/** The heights of the index's rows, tallest first. */
const rowHeights = (page: Page) =>
  page
    .locator(".server-table tbody tr")
    .evaluateAll((rows) => rows.map((r) => Math.round(r.getBoundingClientRect().height)).sort((a, b) => b - a));

test("no index row is taller than 120 px at 1280 px, with or without the observations column", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const path of [
    "/",
    "/?page=2",
    "/?page=3",
    "/?observations=any",
    "/?overall=not_checked",
    "/?q=northwind",
    "/?includeLeft=1&sort=overall",
  ]) {
    await open(page, path);
    const heights = await rowHeights(page);
    expect(heights.length, `${path} lists servers`).toBeGreaterThan(0);
    expect(heights[0], `${path}: the tallest row`).toBeLessThanOrEqual(120);
  }
});

test("at 390×844 a server row is its name and overall state, and the first servers are above the fold", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, "/");
  const rows = page.locator(".server-table tbody tr");
  const first = rows.first();
  await expect(first.locator(".cell-server a")).toBeVisible();
  await expect(first.locator(".cell-overall .chip")).toBeVisible();
  for (const cell of await first.locator("td.cell-check, td.cell-probed").all()) await expect(cell).toBeHidden();
  const bottoms = await rows.evaluateAll((rs) => rs.slice(0, 6).map((r) => r.getBoundingClientRect().bottom));
  const above = bottoms.filter((b) => b <= 844).length;
  expect(above, `rows ending above the fold (bottoms ${bottoms.map(Math.round).join(", ")})`).toBeGreaterThanOrEqual(3);
  expect(Math.max(...(await rowHeights(page)))).toBeLessThanOrEqual(90);
});

test("at 390 px the summary table says that it scrolls sideways, and does", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, "/");
  await page.locator(".index-summary details > summary").click();
  await expect(page.locator(".scroll-note")).toBeVisible();
  const box = page.locator(".summary-scroll");
  const { scrollWidth, clientWidth } = await box.evaluate((e) => ({ scrollWidth: e.scrollWidth, clientWidth: e.clientWidth }));
  expect(scrollWidth).toBeGreaterThan(clientWidth);
  await box.evaluate((e) => e.scrollBy(1000, 0));
  expect(await box.evaluate((e) => e.scrollLeft)).toBeGreaterThan(0);
});

test("the credential-required chip stays inside a 390 px screen and the reason does not repeat it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, serverUrl(SEED.gated));
  const chip = page.locator(".overall-state .chip");
  await expect(chip).toContainText("credential required");
  const box = (await chip.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await expect(page.locator(".overall-why")).not.toContainText("Credential required:");
});

test("with a filter set, the filter panel holds its Clear button and shows the whole sort choice", async ({ page }) => {
  for (const width of [1280, 1024, 800, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page, "/?overall=failed&sort=overall");
    const form = (await page.locator("form.filters").boundingBox())!;
    const clear = (await page.getByRole("link", { name: "Clear" }).boundingBox())!;
    expect(clear.x + clear.width, `${width}: Clear inside the panel`).toBeLessThanOrEqual(form.x + form.width);
    expect(clear.y + clear.height, `${width}: Clear inside the panel`).toBeLessThanOrEqual(form.y + form.height);
    // The select is at least as wide as its choice's text plus its arrow.
    const fits = await page.locator("#f-sort").evaluate((el) => {
      const select = el as HTMLSelectElement;
      const style = getComputedStyle(select);
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = ctx.measureText(select.selectedOptions[0]!.text).width;
      return { text: Math.ceil(text), inner: select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16 };
    });
    expect(fits.inner, `${width}: "Sort by" shows its whole choice`).toBeGreaterThanOrEqual(fits.text);
  }
});

test("the clients filter is in the form and filters the list", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, "/");
  await page.getByLabel("Initialize-first clients").selectOption("no");
  await page.getByRole("button", { name: "Show servers" }).click();
  await expect(page).toHaveURL(/[?&]initializeFirst=no\b/);
  if ((await page.locator("form.filters").count()) === 0) await open(page, page.url());
  await expect(page.getByLabel("Initialize-first clients")).toHaveValue("no");
  await expect(page.locator(".server-table")).toContainText(SEED.poisoned);
  await expect(page.getByRole("status")).toContainText("match");
});

test("the index shows an observations column when filtered by them: count and codes", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page, "/?observations=any");
  await expect(page.locator(".server-table thead")).toContainText(/Obser\u00ad?vations/);
  const row = page.locator(".server-table tbody tr").filter({ hasText: SEED.poisoned });
  const cell = row.locator("td.cell-obs");
  await expect(cell.locator(".obs-total")).toHaveText(/^[1-9]\d* observations?$/);
  await expect(cell.locator(".obs-code").first()).toBeVisible();
  // On a phone the row keeps its observations beside the name and state.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cell).toBeVisible();
});

test("a server page says its observations beside the overall state, above the fold", async ({ page }) => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await open(page, serverUrl(SEED.poisoned));
    const line = page.locator("#observations-line");
    await expect(line).toContainText(/\d+ observations? on the tool definitions/);
    await expect(line.locator(".obs-code").first()).toBeVisible();
    const box = (await line.boundingBox())!;
    expect(box.y + box.height, `${width}: the line ends above the fold`).toBeLessThanOrEqual(height);
  }
  await open(page, serverUrl(SEED.modern));
  await expect(page.locator("#observations-line")).toHaveCount(0);
});

/** Text nodes inside `selector` that wrap between two letters or digits: a word broken in the middle. */
async function midWordBreaks(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => {
    const out: string[] = [];
    for (const el of els) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let prev: { top: number; ch: string } | null = null;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? "";
        for (let i = 0; i < text.length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const rect = r.getClientRects()[0];
          if (!rect) continue;
          if (prev && rect.top > prev.top + 2 && /[\p{L}\p{N}]/u.test(prev.ch) && /[\p{L}\p{N}]/u.test(text[i]!))
            out.push(`${el.textContent} at "${prev.ch}|${text[i]}"`);
          prev = { top: rect.top, ch: text[i]! };
        }
      }
    }
    return out;
  });
}

test("names and codes on /changes and /incidents wrap between their parts, never inside a word", async ({ page }) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await open(page, "/changes");
    expect(await midWordBreaks(page, "main table td[data-label=Server], main table td[data-label=Tool]"), `/changes at ${width}`).toEqual(
      [],
    );
    await open(page, "/incidents");
    expect(await midWordBreaks(page, "main table td[data-label=Server]"), `/incidents at ${width}`).toEqual([]);
  }
});

test("/incidents says Ongoing once in a row", async ({ page }) => {
  await open(page, "/incidents");
  const ongoing = page.locator("table.incidents tr.ongoing");
  expect(await ongoing.count()).toBeGreaterThan(0);
  for (const text of await ongoing.allInnerTexts()) expect(text.match(/ongoing/gi)?.length, text).toBe(1);
});

test("the history legend's swatches are painted", async ({ page }) => {
  await open(page, serverUrl(SEED.allStates));
  await page.locator("#history").scrollIntoViewIfNeeded();
  const swatches = page.locator("#history .legend .swatch");
  expect(await swatches.count()).toBeGreaterThanOrEqual(4);
  const colours = await swatches.evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
  for (const c of colours) expect(c, "a swatch with a colour").not.toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
  expect(new Set(colours).size, "one colour per state").toBe(colours.length);
});

test("no raw JSON-RPC error or SDK code in the first screen of any server page", async ({ page }) => {
  test.setTimeout(120_000);
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const path of SERVER_PAGES) {
      await open(page, path);
      const top = await page.evaluate((h) => {
        const out: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const el = n.parentElement;
          if (!el || !el.checkVisibility()) continue;
          const r = el.getBoundingClientRect();
          if (r.top < h && r.bottom > 0) out.push(n.textContent ?? "");
        }
        return out.join(" ");
      }, height);
      expect(top, `${path} at ${width}`).not.toMatch(/"jsonrpc"|CLIENT_HTTP_NOT_IMPLEMENTED|\(HTTP \d+\): \{/);
    }
  }
});

test("GET /api/rounds answers 405 with a JSON body and Allow: POST", async ({ request }) => {
  let res = await request.get("/api/rounds");
  // The front sheds load with a 503 and Retry-After on a loaded machine; the route's own answer comes after it.
  for (let i = 0; res.status() === 503 && i < 5; i++) {
    await new Promise((r) => setTimeout(r, 1_000));
    res = await request.get("/api/rounds");
  }
  expect(res.status()).toBe(405);
  expect(res.headers()["allow"]).toBe("POST");
  expect(res.headers()["content-type"]).toContain("application/json");
  const body = (await res.json()) as { error: string; message: string };
  expect(body.error).toBe("method_not_allowed");
  expect(body.message).toContain("POST");
});

test("/coverage folds its table of every cross-read server, so a phone's page stays short", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, "/coverage");
  const fold = page.locator("details.cross-read-fold");
  await expect(fold).not.toHaveAttribute("open");
  await expect(fold.locator("summary")).toContainText(/Every sampled server, one row each \(\d+\)/);
  const closed = await page.evaluate(() => document.documentElement.scrollHeight);
  await fold.locator("summary").click();
  await expect(page.locator("#cross-read-table tbody tr").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollHeight), "the fold holds a long table").toBeGreaterThan(closed + 1000);
});

test("/data counts its days in words and shows curl the site's own origin", async ({ page, baseURL }) => {
  await open(page, "/data");
  const main = page.locator("main");
  await expect(main).not.toContainText(/\b1 days\b/);
  await expect(main).toContainText(/\((1 day|[\d,]+ days)\)/);
  await expect(main).not.toContainText("status.example");
  await expect(main.locator("pre code").filter({ hasText: "curl" })).toContainText(`curl -sS -O -C - ${baseURL}/data/`);
});

test("the index names its feeds in <head>, and they answer Atom", async ({ page, request }) => {
  await open(page, "/");
  const links = page.locator('head link[rel=alternate][type="application/atom+xml"]');
  const hrefs = await links.evaluateAll((ls) => ls.map((l) => l.getAttribute("href")!));
  expect(hrefs).toEqual(expect.arrayContaining(["/changes/states.xml", "/incidents/feed.xml"]));
  for (const href of hrefs) {
    const res = await request.get(href);
    expect(res.status(), href).toBe(200);
    expect(await res.text(), href).toContain("<feed");
  }
});
