import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { collectConsoleErrors, serverUrl } from "./helpers";

test("a server page shows all four states, each with its reason, anchor, suite version and history", async ({ page }) => {
  await page.goto(serverUrl(SEED.allStates));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Four states demo");
  const hs = page.locator("#check-handshake");
  await expect(hs.getByRole("heading", { level: 3 })).toContainText("Verified");
  await expect(hs).toContainText(`fell back to initialize`);
  await expect(hs).toContainText("Suite version");
  await expect(page.locator("#check-protocol_version h3")).toContainText("Failed");
  // It decides the overall state, so its reason is said once, in the overall line; its row in the table leaves it out.
  await expect(page.locator("section.glance .overall-why")).toContainText("No common revision");
  await expect(page.locator("#glance-protocol_version td.cell-why")).toHaveText("");
  await expect(page.locator("#check-tools_list h3")).toContainText("Observed risk");
  await expect(page.locator("#check-tools_list")).toContainText("cursor loop");
  await expect(page.locator("#check-error_taxonomy h3")).toContainText("Not checked");
  await expect(page.locator("#check-error_taxonomy")).toContainText("pages of the tool list remain unread");
  await expect(page.locator("#check-auth_metadata h3")).toContainText("Not checked");
  await expect(hs.getByRole("heading", { name: "History" })).toBeVisible();
  await expect(hs.locator("table.stack")).toContainText("first result");
});

test("evidence shows every exchange once, with status, headers, body and a curl command that reproduces it", async ({ page }) => {
  await page.goto(serverUrl(SEED.allStates));
  const evidence = page.locator("section[aria-labelledby=evidence-h]");
  // The section folds under its heading; the heading opens it.
  await evidence.locator("summary").first().click();
  // Five exchanges, each shown once, although three checks cite seven of them between them.
  await expect(evidence.locator("article.exchange")).toHaveCount(5);
  await expect(page.locator("article.exchange")).toHaveCount(5);
  const ex = page.locator("#exchange-1");
  await expect(ex.locator("summary")).toContainText("POST https://four.example.com/mcp → HTTP 400");
  // Folded at first (five exchanges; no verdict rests on this one last): the summary opens it.
  await expect(ex.locator("details")).not.toHaveAttribute("open");
  await ex.locator("summary").click();
  await expect(ex).toContainText("mcp-protocol-version");
  await expect(ex).toContainText(`"id":"server-error"`);
  const curl = ex.locator(".curl pre");
  await expect(curl).toContainText("curl -sS -i");
  await expect(curl).toContainText("-X POST");
  await expect(curl).toContainText("-H 'mcp-method: server/discover'");
  await expect(curl).toContainText("--url https://four.example.com/mcp");
  await expect(ex.getByRole("button", { name: /Copy curl for exchange #1/ })).toBeVisible();
  // Exchange 2 is cited by two checks and says so, linking back to both.
  await expect(page.locator("#exchange-2")).toContainText("Cited by: Handshake, Protocol version");
  // Long lists start folded except the exchange each verdict rests on last.
  await expect(page.locator("#exchange-3 details")).not.toHaveAttribute("open");
  await expect(page.locator("#exchange-5 details")).toHaveAttribute("open", "");
  await page.locator("#exchange-3 summary").click();
  await expect(page.locator("#exchange-3 .curl pre")).toBeVisible();
});

test("each check links to the exchanges it cites, and the links work without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(serverUrl(SEED.allStates));
    const links = page.locator("#check-tools_list .cites a");
    await expect(links).toHaveText(["exchange #3", "exchange #4", "exchange #5"]);
    await expect(page.locator("#check-handshake .cites a").first()).toHaveAttribute("href", /#exchange-1$/);
    await page.locator("#check-tools_list .cites a", { hasText: "exchange #5" }).click();
    await expect(page).toHaveURL(/#exchange-5$/);
    await expect(page.locator("#exchange-5 summary")).toBeInViewport();
    // A check that sent nothing says so instead of linking.
    await expect(page.locator("#check-error_taxonomy")).toContainText("rests on no HTTP exchange");
  } finally {
    await context.close();
  }
});

test("curl quotes single quotes in a request body safely", async ({ page }) => {
  await page.goto(`${serverUrl(SEED.modern)}#exchange-3`);
  const curl = page.locator("#exchange-3 .curl pre");
  await expect(curl).toContainText(
    `--data-raw '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mcp_status_probe_no_such_tool","arguments":{"it'\\''s":"quoted '\\''text'\\''"}}}'`,
  );
});

test("server page shows tools, tool changes, schedule, transitions and link targets", async ({ page }) => {
  await page.goto(serverUrl(SEED.modern));
  await expect(page.getByRole("heading", { name: "Tools (2)" })).toBeVisible();
  await expect(page.locator(".tool-list")).toContainText("get_forecast");
  await expect(page.locator("section[aria-labelledby=changes-h] table")).toContainText("inputSchema.properties.days.type");
  await expect(page.getByText("Next probe")).toBeVisible();
  await expect(page.getByText("Last complete read")).toBeVisible();
  const history = page.locator("#check-handshake table.stack");
  await expect(history).toContainText("Connection timed out");
  await page.locator("#links > details > summary").click();
  await expect(page.getByText("Badge (Markdown)")).toBeVisible();
  const md = await page
    .locator(".copy-field", { has: page.locator(".copy-label", { hasText: "Badge (Markdown)" }) })
    .locator("pre")
    .innerText();
  expect(md).toMatch(
    /^\[!\[MCP status\]\(http:\/\/127\.0\.0\.1:\d+\/badge\/io\.github\.acme\/weather\)\]\(http:\/\/127\.0\.0\.1:\d+\/servers\/io\.github\.acme\/weather\)$/,
  );
  await expect(page.locator(".copy-field", { has: page.locator(".copy-label", { hasText: /^JSON$/ }) }).locator("pre")).toContainText(
    "/api/servers/io.github.acme/weather",
  );
  // The embedded badge image loads under the CSP.
  const ok = await page.locator("img[alt^='MCP status badge']").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
  expect(ok).toBe(true);
});

test("a server that left the registry keeps its page with a notice", async ({ page }) => {
  await page.goto(serverUrl(SEED.left));
  await expect(page.getByRole("note").filter({ hasText: "This server left the registry" })).toBeVisible();
  await expect(page.locator("#check-error_taxonomy h3")).toContainText("Observed risk");
  // Its owner deleted it in the registry with a message: the owner's words, as text, never markup.
  await expect(page.locator("#server-facts")).toContainText("deleted by its owner, not probed since");
  await expect(page.locator("#registry-status-message")).toHaveText('Shut down: use <b>io.github.acme/next</b> & "v2" instead');
  await expect(page.locator("#registry-status-message b")).toHaveCount(0);
});

test("an opted-out host's server says so and shows every check Not checked", async ({ page }) => {
  await page.goto(serverUrl(SEED.optedOut));
  await expect(page.getByRole("note").filter({ hasText: "asked not to be probed" })).toBeVisible();
  for (const id of ["handshake", "protocol_version", "tools_list", "error_taxonomy", "auth_metadata"]) {
    await expect(page.locator(`#check-${id} h3`)).toContainText("Not checked");
  }
});

test("server-provided strings are shown as text, never run", async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await page.goto(serverUrl(SEED.hostile));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`<b>bold</b> "title" & more`);
  await expect(page.locator(".lede").first()).toContainText("<script>window.__pwned = 1</script>");
  await expect(page.locator(".tool-list")).toContainText("<img src=x onerror=alert(1)>");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("main script, main img[src=x]").count()).toBe(0);
  expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
});

test("an unknown server name gets a real 404 with a useful page", async ({ page }) => {
  const res = await page.goto("/servers/io.github.nobody/does-not-exist");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("No such server");
  await expect(page.getByRole("searchbox", { name: "Search servers by name" })).toBeVisible();
  await expect(page.getByRole("link", { name: "All servers" }).first()).toBeVisible();
});

test("security headers are sent and the CSP lets the page's own scripts run", async ({ page }) => {
  const errors = collectConsoleErrors(page);
  const res = await page.goto(serverUrl(SEED.modern));
  const h = res!.headers();
  expect(h["content-security-policy"]).toContain("default-src 'self'");
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["x-content-type-options"]).toBe("nosniff");
  // Hydration ran: the copy button is interactive (its click handler comes from client JS).
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.locator("#links > details > summary").click();
  const button = page.getByRole("button", { name: "Copy JSON", exact: true });
  await button.click();
  await expect(button).toHaveText("Copied");
  expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
});

test("a tool list read to its end with malformed definitions is a complete read; an endless one is not", async ({ page }) => {
  await page.goto(serverUrl(`${SEED.bulkPrefix}001`));
  await expect(page.locator("#check-tools_list h3")).toContainText("Observed risk");
  const last = page.locator("dt", { hasText: "Last complete read" }).locator("xpath=following-sibling::dd[1]");
  await expect(last.locator("time")).toBeVisible();
  await page.goto(serverUrl(SEED.allStates));
  await expect(page.locator("#check-tools_list")).toContainText("cursor loop");
  await expect(page.locator("dt", { hasText: "Last complete read" }).locator("xpath=following-sibling::dd[1]")).toHaveText(/^never/);
});
