import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { collectConsoleErrors, screenshot, serverUrl } from "./helpers";

// architecture.md §8 as people see it, over the seeded database: a server read by a and c while b failed alone.

test("a server page says which region read it, which confirmed, each one's handshake time, and the regional note", async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto(serverUrl(SEED.regional));
  const section = page.locator("section#regions");
  await expect(section.getByRole("heading", { name: "Regions" })).toBeVisible();
  await expect(section.getByTestId("regional-note")).toContainText("Failed from b at");
  await expect(section.getByTestId("regional-note")).toContainText("(HTTP 502) while a and c read it");
  const rows = section.locator("table.regions tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute("data-region", "a");
  await expect(rows.nth(0)).toContainText("its read sets the state");
  await expect(rows.nth(0)).toContainText("confirmed");
  await expect(rows.nth(0)).toContainText("ms");
  await expect(section.locator("tr[data-region=b]").first()).toContainText("read it first");
  await expect(section.locator("tr[data-region=b]").first()).toContainText("Failed");
  await expect(section.locator("table.region-uptime tbody tr")).toHaveCount(3);
  await expect(section.locator("table.region-uptime tr[data-region=b]")).toContainText("0");
  await expect(page.locator("#check-handshake h3")).toContainText("Verified");
  await screenshot(page, "server-regions");
  expect(errors).toEqual([]);
});

test("a server probed by the site alone shows no regions section", async ({ page }) => {
  await page.goto(serverUrl(SEED.modern));
  await expect(page.locator("h1")).toBeVisible();
  await expect(page.locator("section#regions")).toHaveCount(0);
});

test("/coverage lists the regions with their state", async ({ page }) => {
  await page.goto("/coverage");
  const table = page.locator("section#regions table.regions");
  await expect(table.locator("tbody tr")).toHaveCount(3);
  await expect(table.locator("tr[data-region=b]")).toContainText("up");
  await expect(table.locator("tr[data-region=b]")).toContainText("10% of its latest hosts");
  await screenshot(page, "coverage-regions");
});

test("/api/status lists the regions and /api/servers/<name> carries regions and quorum", async ({ request }) => {
  const status = await (await request.get("/api/status")).json();
  expect(status.regions).toEqual([
    expect.objectContaining({ id: "a", up: true, hostShare: 0 }),
    expect.objectContaining({ id: "b", up: true, hostShare: 0.1 }),
    expect.objectContaining({ id: "c", up: true, hostShare: 0 }),
  ]);
  const server = await (await request.get(`/api/servers/${SEED.regional}`)).json();
  expect(server.quorum).toMatchObject({ regions: ["b", "a", "c"], failed: ["b"] });
  expect(server.quorum.note).toMatch(/^Failed from b at \d\d:\d\d UTC \(HTTP 502\) while a and c read it/);
  expect(server.regions.map((r: { region: string; deciding: boolean }) => [r.region, r.deciding])).toEqual([
    ["a", true],
    ["b", false],
    ["c", false],
  ]);
  expect(server.latestRun).toMatchObject({ region: "a", role: "confirmation" });
  expect(server.regionUptime.map((u: { region: string }) => u.region)).toEqual(["a", "b", "c"]);
});
