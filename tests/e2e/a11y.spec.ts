import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { collectConsoleErrors, expectNoAxeViolations, screenshot, serverUrl } from "./helpers";

// axe on a 50-row index takes a while on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

// One of each page type, in the light and the dark colour scheme: axe must find nothing, the CSP must not
// block anything, and a full-page screenshot is kept under test-results/screenshots/ as an artifact
// (`<name>.png` light, `<name>-dark.png` dark).
const PAGES: { name: string; path: string; status?: number }[] = [
  { name: "index", path: "/" },
  { name: "index-filtered", path: "/?handshake=failed" },
  { name: "server", path: serverUrl(SEED.allStates) },
  { name: "server-left-registry", path: serverUrl(SEED.left) },
  { name: "not-found", path: "/servers/io.github.nobody/nothing", status: 404 },
  { name: "changes", path: "/changes" },
  { name: "coverage", path: "/coverage" },
  { name: "census", path: "/census" },
  { name: "incidents", path: "/incidents" },
  { name: "run", path: "/runs/2" },
  { name: "faq-index", path: "/faq" },
  { name: "faq-en", path: "/faq/refusals" },
  { name: "faq-zh", path: "/zh/faq/observed-unsigned" },
  { name: "faq-zh-index", path: "/zh/faq" },
];

for (const scheme of ["light", "dark"] as const) {
  for (const p of PAGES) {
    test(`axe finds nothing on ${p.name} (${p.path}), ${scheme} scheme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const errors = collectConsoleErrors(page);
      const res = await page.goto(p.path);
      expect(res?.status()).toBe(p.status ?? 200);
      await expectNoAxeViolations(page);
      await screenshot(page, scheme === "light" ? p.name : `${p.name}-dark`);
      expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
    });
  }
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
