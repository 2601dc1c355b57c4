import { expect, test, type Page } from "@playwright/test";
import { FAQ_SLUGS } from "@/lib/site/faq/types";
import { SEED } from "./seed";
import { badgeUrl, screenshot, serverUrl } from "./helpers";

// A reader's pass over the site (issue 42): one page tree in both languages, 404s a reader without
// JavaScript can read, the FAQ's answer first, and every page usable at 390 px.

test.describe.configure({ timeout: 180_000 });

const api = (name: string) => `/api/servers/${name.split("/").map(encodeURIComponent).join("/")}`;
const card = (name: string) => `/card/${name.split("/").map(encodeURIComponent).join("/")}`;

/** Every URL that answered before the page tree moved under app/[lang]/, with its status then (and now). */
const OLD_URLS: [path: string, status: number, type: RegExp | null][] = [
  ["/", 200, /^text\/html/],
  ["/?handshake=failed", 200, /^text\/html/],
  ["/?page=2", 200, /^text\/html/],
  [serverUrl(SEED.modern), 200, /^text\/html/],
  [serverUrl(SEED.hostile), 200, /^text\/html/],
  [serverUrl(SEED.longName), 200, /^text\/html/],
  ["/servers/io.github.nobody/nothing", 404, /^text\/html/],
  ["/nope", 404, /^text\/html/],
  ["/zh/nope", 404, /^text\/html/],
  ["/faq", 200, /^text\/html/],
  ...FAQ_SLUGS.map((s): [string, number, RegExp] => [`/faq/${s}`, 200, /^text\/html/]),
  ["/faq/nope", 404, /^text\/html/],
  ["/zh/faq", 200, /^text\/html/],
  ...FAQ_SLUGS.map((s): [string, number, RegExp] => [`/zh/faq/${s}`, 200, /^text\/html/]),
  ["/census", 200, /^text\/html/],
  ["/census?window=1y", 200, /^text\/html/],
  ["/census?window=bad", 400, /^text\/html/],
  ["/zh/census", 200, /^text\/html/],
  ["/zh/census?window=bad", 400, /^text\/html/],
  ["/changes", 200, /^text\/html/],
  ["/changes/feed.xml", 200, /^application\/atom\+xml/],
  [`/changes/feed.xml?server=${encodeURIComponent(SEED.modern)}`, 200, /^application\/atom\+xml/],
  ["/changes/states.xml", 200, /^application\/atom\+xml/],
  ["/incidents", 200, /^text\/html/],
  [`/incidents?server=${encodeURIComponent(SEED.down)}`, 200, /^text\/html/],
  ["/incidents/feed.xml", 200, /^application\/atom\+xml/],
  ["/coverage", 200, /^text\/html/],
  ["/coverage/feed.xml", 200, /^application\/atom\+xml/],
  ["/data", 200, /^text\/html/],
  ["/data/census.csv", 200, /^text\/csv/],
  ["/data/census.json", 200, /^application\/json/],
  ["/data/servers-1999-01-01.jsonl.gz", 404, null],
  ["/runs/2", 200, /^text\/html/],
  ["/subscriptions/no-such-token", 404, /^text\/html/],
  ["/runs/999999", 404, /^text\/html/],
  [badgeUrl(SEED.modern), 200, /^image\/svg\+xml/],
  [badgeUrl(SEED.modern, "handshake"), 200, /^image\/svg\+xml/],
  [`/api/badge/${SEED.modern}`, 200, /^application\/json/],
  [card(SEED.modern), 200, /^image\/png/],
  ["/api/servers", 200, /^application\/json/],
  [api(SEED.modern), 200, /^application\/json/],
  ["/api/status", 503, /^application\/json/],
  ["/api/health", 200, /^application\/json/],
  ["/api/openapi.json", 200, /^application\/json/],
  ["/api/cross-reads", 200, /^application\/json/],
  ["/api/rounds/1", 403, /^application\/json/],
  ["/robots.txt", 200, /^text\/plain/],
  ["/sitemap.xml", 200, /^application\/xml/],
  ["/mcp", 405, /^application\/json/],
  ["/metrics", 404, null],
  ["/favicon.ico", 200, /^image\//],
  ["/favicon.svg", 200, /^image\/svg\+xml/],
];

test("every URL that answered before the one page tree answers the same", async ({ request }) => {
  const wrong: string[] = [];
  for (const [path, status, type] of OLD_URLS) {
    const res = await request.get(path, { maxRedirects: 0 });
    const ct = res.headers()["content-type"] ?? "";
    if (res.status() !== status || (type && !type.test(ct))) wrong.push(`${path}: ${res.status()} ${ct} (was ${status} ${type ?? ""})`);
  }
  expect(wrong).toEqual([]);
  // The English pages' inside name is no URL of its own.
  for (const path of ["/en", "/en/faq", `/en${serverUrl(SEED.modern)}`]) expect((await request.get(path)).status(), path).toBe(404);
});

test("every page exists in Chinese under /zh, with <html lang> zh-Hans and hreflang alternates", async ({ request }) => {
  for (const path of [
    "/zh",
    "/zh/changes",
    "/zh/incidents",
    "/zh/coverage",
    "/zh/census",
    "/zh/data",
    "/zh/faq",
    "/zh/faq/handshake",
    "/zh/runs/2",
    `/zh${serverUrl(SEED.modern)}`,
  ]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    const html = await res.text();
    expect(html, path).toMatch(/<html[^>]* lang="zh-Hans"/);
    expect(html, path).toMatch(/<link rel="alternate" hrefLang="en" href="[^"]*"/);
    expect(html, path).toMatch(/<link rel="alternate" hrefLang="zh-Hans" href="[^"]*\/zh[/"?]/);
  }
  const en = await (await request.get(serverUrl(SEED.modern))).text();
  expect(en).toMatch(/<html[^>]* lang="en"/);
  // The subscribe form in the page's language, posting that language so its answer comes back to the same page.
  const zhServer = await (await request.get(`/zh${serverUrl(SEED.modern)}`)).text();
  expect(zhServer).toContain("变化时通知我");
  expect(zhServer).toMatch(/<input type="hidden" name="lang" value="zh"\/>/);
  expect(en).toMatch(/<input type="hidden" name="lang" value="en"\/>/);
});

test("/zh answers 200 with lang zh-Hans and every menu link under /zh", async ({ page }) => {
  const res = await page.goto("/zh");
  expect(res?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
  const nav = page.getByRole("navigation", { name: "站点导航" });
  const links = nav.getByRole("link");
  const hrefs = await links.evaluateAll((as) => as.map((a) => [a.textContent ?? "", a.getAttribute("href") ?? ""]));
  const menu = hrefs.filter(([text]) => !(text ?? "").startsWith("English"));
  expect(menu.length).toBe(6);
  for (const [text, href] of menu) expect(href, text).toMatch(/^\/zh(\/|$)/);
  // The language switch leads to the same page in English.
  await page.goto(`/zh${serverUrl(SEED.modern)}`);
  await expect(nav.getByRole("link", { name: /English/ })).toHaveAttribute("href", serverUrl(SEED.modern));
});

/** The visible text of HTML as served, scripts and hidden parts removed. */
function servedText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<div hidden[^>]*>[\s\S]*?<\/div>/g, "")
    .replace(/<head>[\s\S]*?<\/head>/, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

test("an unknown page's HTML has visible text without JavaScript, worded for its section and language", async ({ request, browser }) => {
  const cases: [path: string, lang: string, heading: string][] = [
    ["/servers/io.github.nobody/nothing", "en", "No such server"],
    ["/zh/servers/io.github.nobody/nothing", "zh-Hans", "没有这个服务端"],
    ["/faq/nope", "en", "No such question"],
    ["/zh/faq/nope", "zh-Hans", "没有这个问题"],
    ["/runs/999999", "en", "No such run"],
    ["/zh/runs/999999", "zh-Hans", "没有这次探测"],
    ["/nope/deeper", "en", "Not found"],
    ["/zh/nope", "zh-Hans", "找不到页面"],
  ];
  for (const [path, lang, heading] of cases) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    const html = await res.text();
    expect(html, path).toMatch(new RegExp(`<html[^>]* lang="${lang}"`));
    expect(servedText(html), path).toContain(heading);
  }
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto("/servers/io.github.nobody/nothing");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("searchbox")).toBeVisible();
  } finally {
    await context.close();
  }
});

const SIZES = [
  { name: "1280", width: 1280, height: 800 },
  { name: "390", width: 390, height: 844 },
] as const;

test("a FAQ page's first answer heading is above the fold at 1280×800 and 390×844, in both languages", async ({ page }) => {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const path of ["/faq/handshake", "/zh/faq/handshake", "/faq/credential-gate", "/faq/observed-unsigned"]) {
      await page.goto(path);
      const first = page.locator(".faq-body h2").first();
      const box = await first.boundingBox();
      expect(box, path).not.toBeNull();
      expect(box!.y + box!.height, `${path} at ${size.name}: first heading "${await first.textContent()}"`).toBeLessThanOrEqual(
        size.height,
      );
    }
  }
});

/** One page of every kind, in both languages. */
const KINDS: { name: string; path: string; status?: number }[] = [
  { name: "index", path: "/" },
  { name: "index-filtered", path: "/?observation=any" },
  { name: "server", path: serverUrl(SEED.allStates) },
  { name: "server-verified-observations", path: serverUrl(SEED.poisoned) },
  { name: "server-gated", path: serverUrl(SEED.gated) },
  { name: "server-long-name", path: serverUrl(SEED.longName) },
  { name: "changes", path: "/changes" },
  { name: "incidents", path: "/incidents" },
  { name: "coverage", path: "/coverage" },
  { name: "census", path: "/census" },
  { name: "data", path: "/data" },
  { name: "run", path: "/runs/2" },
  { name: "faq-index", path: "/faq" },
  { name: "faq", path: "/faq/credential-gate" },
  { name: "not-found", path: "/servers/io.github.nobody/nothing", status: 404 },
];
const zh = (path: string) => (path === "/" ? "/zh" : path.startsWith("/?") ? `/zh${path.slice(1)}` : `/zh${path}`);

/** Opens a page; a 503 "busy" from the front (its render limit, reached when this machine is loaded) is asked
 * again after its Retry-After, a few times, as a browser's reader would reload. */
async function open(page: Page, path: string) {
  for (let i = 0; ; i++) {
    const res = await page.goto(path);
    if (res?.status() !== 503 || i === 4) return res;
    await page.waitForTimeout(Number(res.headers()["retry-after"] ?? "1") * 1000);
  }
}

async function documentWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

test("no document is wider than 390 px at 390 px, on every page kind in both languages", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const wide: string[] = [];
  for (const k of KINDS) {
    for (const path of [k.path, zh(k.path)]) {
      const res = await open(page, path);
      expect(res?.status(), path).toBe(k.status ?? 200);
      const w = await documentWidth(page);
      if (w > 390) {
        const culprit = await page.evaluate(() => {
          const over = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > 391);
          const e = over[over.length - 1];
          return e ? `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${(e.textContent ?? "").slice(0, 40)}"` : "";
        });
        wide.push(`${path}: ${w} px (${culprit})`);
      }
    }
  }
  expect(wide).toEqual([]);
});

test("no index row is taller than 120 px at 1280 px, and servers are above the fold at 390×844", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const path of ["/", "/?observation=any", "/zh", `/?q=${encodeURIComponent(SEED.longName)}`]) {
    await page.goto(path);
    const heights = await page.locator(".server-table tbody tr").evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
    expect(heights.length, path).toBeGreaterThan(0);
    expect(Math.max(...heights), path).toBeLessThanOrEqual(120);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/", "/zh"]) {
    await page.goto(path);
    const first = await page.locator(".server-table tbody tr").first().boundingBox();
    expect(first, path).not.toBeNull();
    expect(first!.y + first!.height, path).toBeLessThanOrEqual(844);
  }
});

// Kept as artifacts under test-results/screenshots/readers-<kind>-<lang>-<width>-<scheme>.png, for a person to look at.
for (const lang of ["en", "zh"] as const) {
  for (const size of SIZES) {
    test(`screenshots of every page kind, ${lang}, ${size.name} px, light and dark`, async ({ page }) => {
      await page.setViewportSize(size);
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const k of KINDS) {
          const res = await open(page, lang === "zh" ? zh(k.path) : k.path);
          expect(res?.status(), k.path).toBe(k.status ?? 200);
          await screenshot(page, `readers-${k.name}-${lang}-${size.name}-${scheme}`);
        }
      }
    });
  }
}
