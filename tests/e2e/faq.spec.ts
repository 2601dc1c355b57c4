import { expect, test } from "@playwright/test";
import { FAQ, FAQ_SLUGS, RULE_INDEX, changesSince } from "../../lib/site/faq";
import { RESERVED_TOOL_NAME } from "../../lib/probe/protocol";
import { STATE_LABELS } from "../../lib/site/labels";
import { expectNoAxeViolations, screenshot } from "./helpers";

// axe on a long page takes a while on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

const LANGS = [
  { lang: "en", prefix: "", html: "en" },
  { lang: "zh", prefix: "/zh", html: "zh-Hans" },
] as const;

for (const slug of FAQ_SLUGS) {
  test(`FAQ "${slug}" renders in English and Chinese, the language switch links them, axe finds nothing`, async ({ page }) => {
    await page.goto(`/faq/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(FAQ.en[slug].title);
    await expect(page.locator("main > div[lang='en']")).toHaveCount(1);
    await expectNoAxeViolations(page);
    await screenshot(page, `faq-en-${slug}`);
    await page.getByRole("link", { name: /Read this page in Chinese/ }).click();
    await expect(page).toHaveURL(new RegExp(`/zh/faq/${slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(FAQ.zh[slug].title);
    await expect(page.locator("main > div[lang='zh-Hans']")).toHaveCount(1);
    // A client-side navigation sets the document title after the new page's heading is in place.
    await expect(page).not.toHaveTitle("");
    await expectNoAxeViolations(page);
    await screenshot(page, `faq-zh-${slug}`);
    await page.getByRole("link", { name: /阅读本页英文版/ }).click();
    await expect(page).toHaveURL(new RegExp(`/faq/${slug}$`));
  });
}

for (const { lang, prefix } of LANGS) {
  test(`the ${lang} FAQ index lists every page and every rule link resolves to an anchor on its page`, async ({ page }) => {
    await page.goto(`${prefix}/faq`);
    await expect(page.locator(".faq-list > li")).toHaveCount(FAQ_SLUGS.length);
    const expected = RULE_INDEX.flatMap((g) => g.rules.map((r) => r.id));
    await expect(page.locator("[data-rule]")).toHaveCount(expected.length);
    expect(await page.locator("[data-rule]").evaluateAll((els) => els.map((e) => e.getAttribute("data-rule")))).toEqual(expected);
    await expectNoAxeViolations(page);
    await screenshot(page, `faq-${lang}-index`);

    const hrefs = await page.locator("[data-rule] a").evaluateAll((els) => els.map((e) => e.getAttribute("href")!));
    const byPage = new Map<string, Set<string>>();
    for (const href of hrefs) {
      const [path, anchor] = href.split("#");
      expect(path!.startsWith(`${prefix}/faq/`), href).toBe(true);
      expect(anchor, href).toBeTruthy();
      byPage.set(path!, (byPage.get(path!) ?? new Set()).add(anchor!));
    }
    for (const [path, anchors] of byPage) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
      const ids = new Set(await page.locator("main [id]").evaluateAll((els) => els.map((e) => e.id)));
      for (const a of anchors) expect(ids.has(a), `${path}#${a}`).toBe(true);
    }
  });
}

test("a rule link lands on its table row", async ({ page }) => {
  await page.goto("/faq");
  await page.locator("[data-rule='2.5-crawl-delay'] a").click();
  await expect(page).toHaveURL(/\/faq\/opting-out#crawl-delay$/);
  await expect(page.locator("tr#crawl-delay")).toContainText("Crawl-delay");
  await page.goto("/zh/faq");
  await page.locator("[data-rule='6-only-cross-reader'] a").click();
  await expect(page).toHaveURL(/\/zh\/faq\/operating#only-cross-reader$/);
  await expect(page.locator("tr#only-cross-reader")).toContainText("探测器可能存在盲区");
});

test("FAQ pages carry a dated note of the rule changes since they first appeared", async ({ page }) => {
  for (const [path, slug] of [
    ["/faq/refusals", "refusals"],
    ["/zh/faq/withheld-call", "withheld-call"],
  ] as const) {
    await page.goto(path);
    const note = page.locator("aside.rule-changes");
    const since = changesSince(FAQ.en[slug].firstPublished);
    await expect(note.getByRole("heading")).toContainText(FAQ.en[slug].firstPublished);
    await expect(note.locator("li")).toHaveCount(since.length);
  }
  await page.goto("/faq/refusals");
  await expect(page.locator("aside.rule-changes")).toContainText("2026-11-30 · suite 0.12.0");
  await expect(page.locator("aside.rule-changes")).toContainText("2026-12-01 · suite 0.13.0");
});

test("FAQ content names the facts operators need", async ({ page }) => {
  const main = page.locator("main");
  await page.goto("/faq/withheld-call");
  await expect(main).toContainText(RESERVED_TOOL_NAME);
  await page.goto("/faq/opting-out");
  await expect(main).toContainText("User-agent: mcp-status-probe");
  await expect(main).toContainText("npm run opt-out -- remove mcp.example.com");
  await expect(main).toContainText("PROBE_HOST_CONCURRENCY");
  await page.goto("/zh/faq/opting-out");
  await expect(main).toContainText("Crawl-delay");
  await expect(main).toContainText("PROBE_HOST_CONCURRENCY");
  await page.goto("/faq/self-test");
  await expect(main).toContainText("npm ci");
  await expect(main).toContainText("PROBE_ALLOW_PRIVATE_NETWORKS=1 npm run --silent probe");
  await page.goto("/faq/handshake");
  await expect(main.locator("figure.wire")).toContainText('"id":"server-error"');
  await page.goto("/faq/credential-gate");
  await expect(main.locator("figure.wire")).toContainText("WWW-Authenticate: Bearer resource_metadata=");
  await page.goto("/zh/faq/observed-unsigned");
  for (const label of Object.values(STATE_LABELS.zh)) await expect(main.locator("table").first()).toContainText(label);
  await page.goto("/faq/changelog");
  await expect(main).toContainText("0.10.0");
});

test("the Chinese index has its own heading, and an unknown question is a 404", async ({ page }) => {
  await page.goto("/zh/faq");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("常见问题");
  expect((await page.goto("/faq/no-such-question"))?.status()).toBe(404);
});

for (const [name, path] of [
  ["faq-en-index-phone", "/faq"],
  ["faq-zh-credential-gate-phone", "/zh/faq/credential-gate"],
  ["faq-en-auth-metadata-phone", "/faq/auth-metadata"],
] as const) {
  test(`phone width: ${name} fits without sideways scrolling`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${path} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    await screenshot(page, name);
  });
}
