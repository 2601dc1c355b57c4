import Database from "better-sqlite3";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_DB } from "./env";
import { SEED } from "./seed";
import { screenshot, serverUrl } from "./helpers";

// Links that travel (issue 24): the sitemap, OpenGraph/Twitter/canonical tags and the card image, robots.txt,
// the favicon, and Chinese pages that say they are Chinese.

/** Parses sitemap XML in the browser's own XML parser: root element and every <loc>. */
async function parseSitemap(page: Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "application/xml");
    return {
      error: doc.getElementsByTagName("parsererror")[0]?.textContent ?? null,
      root: doc.documentElement.localName,
      locs: [...doc.getElementsByTagName("loc")].map((l) => l.textContent ?? ""),
    };
  }, xml);
}

async function sitemapUrls(page: Page, request: APIRequestContext): Promise<string[]> {
  const res = await request.get("/sitemap.xml");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("xml");
  const top = await parseSitemap(page, await res.text());
  expect(top.error).toBeNull();
  if (top.root === "urlset") return top.locs;
  expect(top.root).toBe("sitemapindex");
  const all: string[] = [];
  for (const loc of top.locs) {
    const part = await parseSitemap(page, await (await request.get(new URL(loc).pathname)).text());
    expect(part.root).toBe("urlset");
    expect(part.locs.length).toBeLessThanOrEqual(50_000);
    all.push(...part.locs);
  }
  return all;
}

test("the sitemap lists every server in the database exactly once, and robots.txt points at it", async ({ page, request, baseURL }) => {
  await page.goto("/faq");
  const urls = await sitemapUrls(page, request);
  const db = new Database(E2E_DB, { readonly: true, fileMustExist: true });
  const names = (db.prepare("select name from servers").all() as { name: string }[]).map((r) => r.name);
  db.close();
  const servers = urls.filter((u) => new URL(u).pathname.startsWith("/servers/"));
  expect(servers).toHaveLength(names.length);
  const counts = new Map<string, number>();
  for (const u of servers) counts.set(u, (counts.get(u) ?? 0) + 1);
  for (const n of names) expect(counts.get(`${baseURL}${serverUrl(n)}`), n).toBe(1);
  for (const p of ["/", "/incidents", "/faq/uptime", "/zh/faq/incidents"]) expect(urls).toContain(`${baseURL}${p}`);

  const again = await request.get("/sitemap.xml");
  expect(again.headers()["x-page-cache"]).toBe("hit");

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test("a server page names its card in OpenGraph and Twitter tags, and the card is a PNG that decodes", async ({ page, baseURL }) => {
  await page.goto(serverUrl(SEED.allStates));
  const meta = (sel: string) => page.locator(sel).first().getAttribute("content");
  expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toBe(`${baseURL}${serverUrl(SEED.allStates)}`);
  expect(await meta('meta[property="og:url"]')).toBe(`${baseURL}${serverUrl(SEED.allStates)}`);
  expect(await meta('meta[property="og:title"]')).toContain(SEED.allStates);
  expect(await meta('meta[property="og:description"]')).toMatch(/^Overall Failed\. Handshake Verified/);
  expect(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  const image = (await meta('meta[property="og:image"]'))!;
  expect(await meta('meta[name="twitter:image"]')).toBe(image);
  expect(image.startsWith(`${baseURL}/card/`)).toBe(true);

  const res = await page.request.get(image);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("image/png");
  const bytes = await res.body();
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const size = await page.evaluate(
    async (url) => {
      const bitmap = await createImageBitmap(await (await fetch(url)).blob());
      return { width: bitmap.width, height: bitmap.height };
    },
    new URL(image).pathname + new URL(image).search,
  );
  expect(size).toEqual({ width: 1200, height: 630 });
  expect(Number(await meta('meta[property="og:image:width"]'))).toBe(1200);
  // Kept by the front of `npm start` per data version: asked again, it answers from memory, byte for byte.
  const again = await page.request.get(image);
  expect(again.headers()["x-page-cache"]).toBe("hit");
  expect((await again.body()).equals(bytes)).toBe(true);

  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(new URL(image).pathname);
    await screenshot(page, scheme === "light" ? "card" : "card-dark");
  }
});

test("every page type carries a canonical URL and OpenGraph and Twitter tags", async ({ page, baseURL }) => {
  for (const path of [
    "/",
    "/?handshake=failed",
    "/changes",
    "/incidents",
    "/coverage",
    "/census",
    "/faq",
    "/faq/uptime",
    "/zh/faq",
    "/zh/faq/incidents",
    serverUrl(SEED.modern),
  ]) {
    await page.goto(path);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(canonical, path).toBe(`${baseURL}${path}`);
    expect(await page.locator('meta[property="og:url"]').getAttribute("content"), path).toBe(canonical);
    expect(await page.locator('meta[property="og:title"]').getAttribute("content"), path).toMatch(/mcp-status/);
    expect(await page.locator('meta[property="og:site_name"]').getAttribute("content"), path).toBe("mcp-status");
    expect(await page.locator('meta[name="twitter:card"]').getAttribute("content"), path).toMatch(/^summary/);
  }
});

test("/zh/ pages are Chinese: html lang, navigation, footer, and hreflang alternates both ways", async ({ page, baseURL }) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/zh/faq/incidents");
    expect(await page.locator("html").getAttribute("lang")).toBe("zh-Hans");
    const nav = page.getByRole("navigation", { name: "站点导航" });
    await expect(nav.getByRole("link", { name: "常见问题" })).toHaveAttribute("href", "/zh/faq");
    await expect(nav.getByRole("link", { name: /English/ })).toHaveAttribute("href", "/faq/incidents");
    await expect(page.locator("footer")).toContainText("检查套件");
    await expect(page.getByRole("link", { name: "跳到正文" })).toHaveCount(1);
    await screenshot(page, scheme === "light" ? "zh-faq-incidents" : "zh-faq-incidents-dark");
  }
  const alt = (lang: string) => page.locator(`link[rel="alternate"][hreflang="${lang}"]`).getAttribute("href");
  expect(await alt("en")).toBe(`${baseURL}/faq/incidents`);
  expect(await alt("x-default")).toBe(`${baseURL}/faq/incidents`);
  await page.goto("/faq/incidents");
  expect(await page.locator("html").getAttribute("lang")).toBe("en");
  expect(await alt("zh-Hans")).toBe(`${baseURL}/zh/faq/incidents`);
  await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: /中文/ })).toHaveAttribute(
    "href",
    "/zh/faq/incidents",
  );
  for (const path of ["/zh/faq", "/zh/faq/handshake"]) {
    await page.goto(path);
    expect(await page.locator("html").getAttribute("lang"), path).toBe("zh-Hans");
  }
});

test("/favicon.ico is a real icon", async ({ request }) => {
  const res = await request.get("/favicon.ico");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const bytes = await res.body();
  expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  expect(bytes.readUInt16LE(4)).toBeGreaterThanOrEqual(2);
});
