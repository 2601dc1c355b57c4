import { expect, test, type Page } from "@playwright/test";
import { expectNoAxeViolations, screenshot, serverUrl } from "./helpers";
import { SEED } from "./seed";

// Issue 21 against the seeded site in Chromium: the overall state everywhere, the server page's at-a-glance block above
// the fold, the index readable at desktop width with long names, sorting through the shared query, the wording.

const enc = (name: string) => name.split("/").map(encodeURIComponent).join("/");

async function rowHeights(page: Page): Promise<{ name: string; height: number }[]> {
  return page
    .locator("table.server-table tbody tr")
    .evaluateAll((rows) =>
      rows.map((r) => ({ name: r.querySelector("a.server-name")?.textContent ?? "", height: r.getBoundingClientRect().height })),
    );
}

test.describe("the index at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("an 80-character name keeps a Server column of at least 200 px, stays one link, and no row is taller than 120 px", async ({
    page,
  }) => {
    expect(SEED.longName).toHaveLength(80);
    // The long name sits on the last page of the default order, among 28 other rows.
    await page.goto("/?page=3");
    const link = page.getByRole("link", { name: SEED.longName, exact: true });
    await expect(link).toBeVisible();
    const column = await page.locator("table.server-table thead th").first().boundingBox();
    expect(column!.width).toBeGreaterThanOrEqual(200);
    const cell = await page.locator("table.server-table tbody tr", { has: link }).locator("td").first().boundingBox();
    expect(cell!.width).toBeGreaterThanOrEqual(200);
    // Broken only where a line must end, never every few letters: at most three lines of the name.
    // Lines, not rects: each <wbr> between the name's parts starts a rect of its own on the same line.
    const lines = await link.evaluate((a) => new Set([...a.getClientRects()].map((r) => Math.round(r.top))).size);
    expect(lines).toBeLessThanOrEqual(3);
    for (const p of [1, 2, 3]) {
      await page.goto(`/?page=${p}`);
      const tall = (await rowHeights(page)).filter((r) => r.height > 120);
      expect(tall, `page ${p}: rows taller than 120 px`).toEqual([]);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("the overall column: a credential-gated server reads Not checked (credential required), never Verified", async ({ page }) => {
    await page.goto(`/?q=${encodeURIComponent("gated-crm")}`);
    const row = page.locator("table.server-table tbody tr").first();
    const overall = row.locator("td[data-label=Overall] .chip");
    await expect(overall).toContainText("Not checked");
    await expect(overall).not.toContainText("Verified");
    await expect(overall.locator(".chip-kind")).toHaveText(/credential required/);
    // Its auth metadata alone is Verified; the check chips name their kinds.
    await expect(row.locator("td[data-label='Auth metadata']")).toHaveText(/Verified/);
    await expect(row.locator("td[data-label='Handshake'] .chip-kind")).toHaveText(/credential required/);
    await expect(row.locator("td[data-label='Error taxonomy'] .chip-kind")).toHaveText(/withheld/);
  });

  test("Not checked chips name their kind: slow down, opted out, needs configuration", async ({ page }) => {
    await page.goto("/?overall=not_checked&pageSize=50");
    const kinds = await page.locator("table.server-table td[data-label=Overall] .chip-kind").allTextContents();
    const seen = new Set(kinds.map((k) => k.replace(/^\s*·\s*/, "").trim()));
    for (const kind of ["credential required", "slow down", "opted out", "needs configuration", "probe's network"])
      expect(seen, kind).toContain(kind);
  });

  test("sorting by overall state and by last probe through the column headers, and the list API shares the parameters", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    await page.getByRole("link", { name: /^Overall \(sort worst first\)$/ }).click();
    await expect(page).toHaveURL(/\/\?sort=overall$/);
    await expect(page.locator("table.server-table tbody tr").first().locator("td[data-label=Overall]")).toHaveText(/Failed/);
    await expect(page.locator("thead th[aria-sort=ascending]")).toContainText("Overall");
    await page.getByRole("link", { name: /^Overall \(sort best first\)$/ }).click();
    await expect(page).toHaveURL(/sort=overall&order=desc/);
    await expect(page.locator("table.server-table tbody tr").first().locator("td[data-label=Overall]")).toHaveText(/Verified/);
    await page.getByRole("link", { name: /^Last probed · 90 days \(sort latest first\)$/ }).click();
    await expect(page).toHaveURL(/\/\?sort=last_probed$/);
    // The form keeps the sort and filters by the overall state.
    await page.getByLabel("Overall", { exact: true }).selectOption("failed");
    await page.getByRole("button", { name: "Show servers" }).click();
    await expect(page).toHaveURL(/overall=failed/);
    await expect(page).toHaveURL(/sort=last_probed/);
    const cells = page.locator("table.server-table tbody td[data-label=Overall]");
    expect(await cells.count()).toBeGreaterThan(5);
    for (const t of await cells.allTextContents()) expect(t).toMatch(/Failed/);

    const api = await (await request.get("/api/servers?sort=overall&pageSize=3")).json();
    expect(api.rows.map((r: { overall: string }) => r.overall)).toEqual(["failed", "failed", "failed"]);
    const gated = (await (await request.get(`/api/servers?q=gated-crm`)).json()).rows[0];
    expect(gated).toMatchObject({
      overall: "not_checked",
      overallCause: "credential_required",
      notCheckedCauses: { handshake: "credential_required" },
    });
    expect((await request.get("/api/servers?sort=popularity")).status()).toBe(400);
  });

  test("screenshots of the index at 1280 px and 390 px", async ({ page }) => {
    await page.goto("/?page=3");
    await screenshot(page, "index-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/?page=3");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "index-390");
  });
});

test.describe("the server page opens with the five checks at a glance", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the five-check summary of a Failed server sits above the fold at 1280×800, each with state, reason and what to do", async ({
    page,
  }) => {
    await page.goto(serverUrl(SEED.discover500));
    const glance = page.locator("section.glance");
    await expect(glance.locator(".overall .chip")).toContainText("Failed");
    await expect(glance.locator(".overall-why")).toContainText("Decided by Handshake: server/discover answered HTTP 500");
    const rows = glance.locator("table.glance-table tbody tr");
    await expect(rows).toHaveCount(5);
    const box = await glance.locator("table.glance-table").boundingBox();
    expect(box!.y + box!.height, "the summary ends above the fold").toBeLessThanOrEqual(800);
    const hs = page.locator("#glance-handshake");
    await expect(hs.locator(".chip")).toContainText("Failed");
    // Its reason is the overall state's, said once just above (census.spec.ts counts it): the row leaves it out.
    await expect(hs.locator("td.cell-why")).toHaveText("");
    // The FAQ row that says what to do for a 5xx on discover, and that row exists.
    const todo = hs.getByRole("link", { name: "What to do" });
    await expect(todo).toHaveAttribute("href", "/faq/handshake#transfer-failures");
    await expect(page.locator("#glance-error_taxonomy").getByRole("link", { name: "What to do" })).toHaveAttribute(
      "href",
      "/faq/observed-unsigned#not-checked-withheld",
    );
    // The cross-read sentence beside the checks: the difference is explained.
    await expect(glance.locator("#cross-read")).toContainText(
      /An initialize-first reader read 2 tools on \d{4}-\d{2}-\d{2}; modern clients fail here because server\/discover answered HTTP 500\./,
    );
    await todo.click();
    await expect(page).toHaveURL(/\/faq\/handshake#transfer-failures$/);
    await expect(page.locator("#transfer-failures")).toBeVisible();
  });

  test("a credential-gated server's headline and badge read Not checked; the kind links to its FAQ row", async ({ page, request }) => {
    await page.goto(serverUrl(SEED.gated));
    const overall = page.locator("section.glance .overall .chip");
    await expect(overall).toContainText("Not checked");
    await expect(overall).toContainText("credential required");
    const box = await page.locator("table.glance-table").boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    await page.locator("#glance-handshake").getByRole("link", { name: "What to do" }).click();
    await expect(page).toHaveURL(/\/faq\/observed-unsigned#not-checked-credential-required$/);
    await expect(page.locator("#not-checked-credential-required")).toContainText("credential required");
    const svg = await (await request.get(`/badge/${enc(SEED.gated)}`)).text();
    expect(svg).toContain("not checked");
    expect(svg).not.toContain("verified");
    expect((await (await request.get(`/api/badge/${enc(SEED.gated)}`)).json()).message).toBe("not checked");
    const json = await (await request.get(`/api/servers/${enc(SEED.gated)}`)).json();
    expect(json).toMatchObject({ overall: "not_checked", overallCause: "credential_required", overallCheck: "handshake" });
    expect(json.overallReason).toMatch(/^Credential required/);
  });

  test("wording: counts agree with their nouns, a never-read server says so, an opted-out server says no request was sent", async ({
    page,
  }) => {
    await page.goto(serverUrl(SEED.discover500));
    const facts = page.locator("#server-facts");
    await expect(facts).toContainText(/, 1 request in /);
    await expect(facts).toContainText("· 1 failed probe");
    await expect(facts).not.toContainText(/1 (requests|failed probes)/);
    await expect(page.locator("section[aria-labelledby=changes-h]")).toContainText("No complete tool list has been read yet");
    await expect(page.locator("section[aria-labelledby=changes-h]")).not.toContainText("since the first complete tool list");
    // One day of measurements: the table, no chart.
    await page.goto(serverUrl(SEED.down));
    await expect(page.locator("#server-facts")).toContainText("5 failed probes in a row");
    await page.goto(serverUrl(SEED.optedOut));
    await expect(page.locator("#server-facts")).toContainText(/no request sent \(opted out\); last judged/);
    await expect(page.locator("#server-facts")).not.toContainText("not yet");
  });

  test("screenshots of a Failed server page at 1280 px and 390 px; axe finds nothing", async ({ page }) => {
    await page.goto(serverUrl(SEED.discover500));
    await expectNoAxeViolations(page);
    await page.screenshot({ path: "test-results/screenshots/server-failed-1280-top.png" });
    await screenshot(page, "server-failed-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(serverUrl(SEED.discover500));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: "test-results/screenshots/server-failed-390-top.png" });
    await screenshot(page, "server-failed-390");
  });
});
