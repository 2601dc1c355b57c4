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

test("coverage shows alerts with times, the alert feed, and the cross-reader's table with its headline", async ({ page, request }) => {
  await page.goto("/coverage");
  const alerts = page.locator("section[aria-labelledby=alert-h]");
  await expect(alerts.locator(".notice[role=alert]")).toContainText("Coverage dropped: open since");
  await expect(alerts.getByRole("table").filter({ hasText: "Recently resolved alerts" })).toContainText(
    "A short dip after a registry outage.",
  );
  await expect(alerts.getByRole("link", { name: "Atom feed of alerts" })).toHaveAttribute("href", "/coverage/feed.xml");

  const cross = page.locator("section[aria-labelledby=cross-h]");
  await expect(cross.getByRole("status")).toContainText("1 server read only by the cross-reader, for no reason the probe's rules give.");
  await expect(cross.getByRole("status")).toContainText("1 server read only by the cross-reader is explained by the probe's own rules");
  // The table of every sampled server is folded; its summary says how many.
  await cross.locator("details.cross-read-fold > summary").click();
  const rows = cross.locator("#cross-read-table tbody tr");
  // 11 agreed, 1 disagreed, 2 read only by the cross-reader, 1 only by the probe (initialize refused), 1 by neither.
  await expect(rows).toHaveCount(16);
  await expect(rows.first()).toContainText("Only the cross-reader read it");
  await expect(rows.first().getByRole("link", { name: "net.broken/always-down" })).toHaveAttribute(
    "href",
    "/servers/net.broken/always-down",
  );
  await expect(rows.first().locator("td[data-label=Explained]")).toHaveText("no");
  await expect(rows.nth(1)).toContainText("net.flaky/discover-500");
  await expect(rows.nth(1).locator("td[data-label=Explained]")).toHaveText(
    "yes: modern clients fail here because server/discover answered HTTP 500",
  );
  await expect(rows.nth(2)).toContainText("get_forecast.description");
  // architecture.md §2.10: the reader's raw error stays in the JSON; the row says what it means for clients.
  const refused = rows.filter({ hasText: "io.github.mcp-zoo/poisoned-tools" });
  await expect(refused).toContainText("Only the probe read it");
  await expect(refused).toContainText("clients that start with initialize cannot connect here: the server answers initialize with -32602");
  await expect(cross).not.toContainText("CLIENT_HTTP_NOT_IMPLEMENTED");

  const feed = await request.get("/coverage/feed.xml");
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toContain("application/atom+xml");

  const status = await request.get("/api/status");
  expect(status.status()).toBe(503);
  const body = await status.json();
  expect(body.alerts[0]).toMatchObject({ kind: "coverage_drop" });
  expect(body.crossRead).toMatchObject({ agreed: 11, disagreed: 1, only_probe: 1, only_cross_reader: 2, neither: 1, explained: 1 });
  const reads = await (await request.get("/api/cross-reads")).json();
  expect(reads.servers[0]).toEqual({
    name: "net.broken/always-down",
    outcome: "only_cross_reader",
    explained: false,
    explanation: null,
    paths: [],
  });
  expect(reads.servers[1]).toEqual({
    name: "net.flaky/discover-500",
    outcome: "only_cross_reader",
    explained: true,
    explanation: "discover_server_error",
    paths: [],
  });
});
