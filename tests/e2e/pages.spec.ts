import { expect, test } from "@playwright/test";

test("coverage shows the chart, a text table, the success-rate warning, the alert and failing-longest servers", async ({ page }) => {
  await page.goto("/coverage");
  await expect(page.locator("svg.chart[role=img] title")).toHaveText("Distinct servers read per day");
  await expect(page.locator("svg.chart rect.bar")).toHaveCount(21);
  await expect(page.getByRole("table").filter({ hasText: "Coverage per day" }).locator("tbody tr")).toHaveCount(21);
  await expect(page.getByRole("note").filter({ hasText: "This is not coverage." })).toBeVisible();
  await expect(page.locator(".notice[role=alert]")).toContainText("fell clearly below the recent level");
  const failing = page.locator("section[aria-labelledby=failing-h] tbody tr");
  await expect(failing.first()).toContainText("never");
  await expect(page.locator("section[aria-labelledby=failing-h]")).toContainText("net.broken/always-down");
});

test("census shows revisions with shares, modern vs legacy, and refusal shapes by kind", async ({ page }) => {
  await page.goto("/census");
  const rev = page.locator("section[aria-labelledby=rev-h]");
  await expect(rev).toContainText("Modern (2026-07-28");
  await expect(rev.locator("tbody tr")).toHaveCount(3);
  await expect(rev.locator("tbody tr").first()).toContainText("2025-06-18");
  const reads = page.locator("section[aria-labelledby=read-h]");
  await expect(reads.locator("tbody tr")).toHaveCount(3);
  // 8 bulk servers have malformed but complete lists; the cursor-loop demo server is not read to its end.
  await expect(reads.locator("tbody tr").nth(1)).toContainText("some definitions malformed");
  await expect(reads.locator("tbody tr").nth(1).locator("td[data-label=Servers]")).toHaveText("8");
  await expect(reads.locator("tbody tr").nth(2)).toContainText("Not read to the end");
  const ref = page.locator("section[aria-labelledby=ref-h]");
  await expect(ref).toContainText("JSON-RPC error -32602");
  await expect(ref).toContainText("Tool result with isError: true");
  await expect(ref).toContainText("Empty body");
  await expect(ref).toContainText("Call withheld");
});
