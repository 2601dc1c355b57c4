import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { collectConsoleErrors, screenshot, serverUrl } from "./helpers";

// architecture.md §2.10 in the browser: one plain line per kind of client near the top of a server page, above the fold
// at 1280×800 and 390×844; a `no` names the answer; the cross-reader's raw error never shows above the fold.

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`the modern-only page says which clients can connect, above the fold at ${width}×${height}`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height });
    await page.goto(serverUrl(SEED.modern));
    const initializeFirst = page.locator(".client-line[data-kind=initializeFirst]");
    const discoverFirst = page.locator(".client-line[data-kind=discoverFirst]");
    await expect(initializeFirst).toHaveText(
      "No Clients that start with initialize (the TypeScript SDK by default, the MCP Inspector, 2025-era clients) cannot connect: the server answers initialize with -32602.",
    );
    await expect(discoverFirst).toContainText("Clients that start with server/discover");
    await expect(discoverFirst).toContainText("can connect: 2026-07-28 is agreed and the tools are listed.");
    for (const line of [initializeFirst, discoverFirst]) {
      const box = await line.boundingBox();
      expect(box, "the line is laid out").not.toBeNull();
      expect(box!.y + box!.height, "the line ends above the fold").toBeLessThanOrEqual(height);
    }
    await screenshot(page, `clients-modern-only-${width}`);
    expect(errors).toEqual([]);
  });
}

test("a failed legacy read on a modern-only server is said in plain words; no raw body or SDK code above the fold", async ({ page }) => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(serverUrl(SEED.poisoned));
    const note = page.locator("#cross-read");
    await expect(note).toContainText("clients that start with initialize cannot connect here: the server answers initialize with -32602");
    await expect(note).not.toContainText("CLIENT_HTTP_NOT_IMPLEMENTED");
    const aboveFold = await page.evaluate((h) => {
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
    expect(aboveFold).not.toContain("CLIENT_HTTP_NOT_IMPLEMENTED");
    expect(aboveFold).not.toContain('"jsonrpc"');
  }
});

test("the legacy page: both kinds connect, discover-first after the fallback", async ({ page }) => {
  await page.goto(serverUrl(SEED.legacy));
  await expect(page.locator(".client-line[data-kind=initializeFirst]")).toHaveAttribute("data-state", "yes");
  await expect(page.locator(".client-line[data-kind=discoverFirst]")).toContainText(
    "after one fallback to initialize, 2025-06-18 is agreed",
  );
});

test("the FAQ page on clients exists in both languages", async ({ page }) => {
  await page.goto("/faq/clients");
  await expect(page.locator("h1")).toContainText("Which clients can connect");
  await expect(page.locator("#operators")).toBeVisible();
  await page.goto("/zh/faq/clients");
  await expect(page.locator("h1")).toContainText("哪些客户端能连上");
});
