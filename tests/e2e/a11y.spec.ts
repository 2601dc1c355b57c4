import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { collectConsoleErrors, expectNoAxeViolations, screenshot, serverUrl } from "./helpers";

// axe on a 50-row index takes a while on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

// One of each page type: axe must find nothing, the CSP must not block anything, and a full-page
// screenshot is kept under test-results/screenshots/ as an artifact.
const PAGES: { name: string; path: string; status?: number }[] = [
  { name: "index", path: "/" },
  { name: "index-filtered", path: "/?handshake=failed" },
  { name: "server", path: serverUrl(SEED.allStates) },
  { name: "server-left-registry", path: serverUrl(SEED.left) },
  { name: "not-found", path: "/servers/io.github.nobody/nothing", status: 404 },
  { name: "changes", path: "/changes" },
  { name: "coverage", path: "/coverage" },
  { name: "census", path: "/census" },
  { name: "faq-index", path: "/faq" },
  { name: "faq-en", path: "/faq/refusals" },
  { name: "faq-zh", path: "/zh/faq/observed-unsigned" },
  { name: "faq-zh-index", path: "/zh/faq" },
];

for (const p of PAGES) {
  test(`axe finds nothing on ${p.name} (${p.path})`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const res = await page.goto(p.path);
    expect(res?.status()).toBe(p.status ?? 200);
    await expectNoAxeViolations(page);
    await screenshot(page, p.name);
    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
}

for (const [name, path] of [
  ["index-phone", "/"],
  ["server-phone", serverUrl(SEED.modern)],
] as const) {
  test(`phone width: ${name} fits without sideways scrolling`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    await screenshot(page, name);
  });
}
