import { expect, test } from "@playwright/test";
import { SEED } from "./seed";

test("index shows summary counts and one row per server with labelled state chips", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Remote MCP servers");
  // 134 servers still in the registry (135 seeded, one left).
  await expect(page.getByRole("heading", { name: /Summary: 134 servers in the registry/ })).toBeVisible();
  const rows = page.locator("table.server-table tbody tr");
  await expect(rows).toHaveCount(50);
  const first = rows.first();
  await expect(first.locator("td").nth(3)).toContainText(/Verified|Failed|Observed risk|Not checked/);
  // The state is told by words and an icon, not by colour alone.
  await expect(first.locator(".chip .chip-icon").first()).toHaveAttribute("aria-hidden", "true");
});

test("searching by name narrows the list and keeps the query in the form", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Name contains").fill("weather");
  await page.getByRole("button", { name: "Show servers" }).click();
  await expect(page).toHaveURL(/\?q=weather/);
  const rows = page.locator("table.server-table tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(SEED.modern);
  await expect(page.getByLabel("Name contains")).toHaveValue("weather");
  await expect(page.getByRole("status")).toContainText("1 server matches");
});

test("search works without JavaScript (plain GET form)", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto("/");
    await page.getByLabel("Name contains").fill("legacy-quotes");
    await page.getByRole("button", { name: "Show servers" }).click();
    await expect(page.locator("table.server-table tbody tr")).toHaveCount(1);
    await expect(page.locator("table.server-table")).toContainText(SEED.legacy);
  } finally {
    await context.close();
  }
});

test("filtering by one check's state shows only servers in that state", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Handshake", { exact: true }).selectOption("failed");
  await page.getByRole("button", { name: "Show servers" }).click();
  await expect(page).toHaveURL(/handshake=failed/);
  const cells = page.locator("table.server-table tbody tr td[data-label='Handshake']");
  const n = await cells.count();
  expect(n).toBeGreaterThan(5);
  for (let i = 0; i < n; i++) await expect(cells.nth(i)).toHaveText(/Failed/);
  await expect(page.locator("table.server-table")).toContainText(SEED.down);
});

test("summary counts link to the matching filter", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: /^Auth metadata Verified: 1 server$/ }).click();
  await expect(page).toHaveURL(/auth_metadata=verified/);
  await expect(page.locator("table.server-table tbody tr")).toHaveCount(1);
  await expect(page.locator("table.server-table")).toContainText(SEED.gated);
});

test("pagination walks through every server", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByText("Page 1 of 3")).toBeVisible();
  const firstOnPage1 = await page.locator("table.server-table tbody tr").first().locator("a").innerText();
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByText("Page 2 of 3")).toBeVisible();
  const firstOnPage2 = await page.locator("table.server-table tbody tr").first().locator("a").innerText();
  expect(firstOnPage2).not.toEqual(firstOnPage1);
  await page.getByRole("link", { name: "Next →" }).click();
  await expect(page.locator("table.server-table tbody tr")).toHaveCount(34);
  await expect(page.getByRole("link", { name: "Next →" })).toHaveCount(0);
  // Filters survive paging.
  await page.goto("/?handshake=verified&page=2");
  await expect(page.getByLabel("Handshake", { exact: true })).toHaveValue("verified");
});

test("a server that left the registry is not in the index but keeps its page", async ({ page }) => {
  await page.goto(`/?q=${encodeURIComponent("retired")}`);
  await expect(page.getByRole("status")).toContainText("No server matches");
  await page.getByLabel("Include servers that left the registry").check();
  await page.getByRole("button", { name: "Show servers" }).click();
  await expect(page).toHaveURL(/includeLeft=1/);
  await expect(page.locator("table.server-table tbody tr")).toHaveCount(1);
  await expect(page.locator("table.server-table")).toContainText("Left the registry");
});
