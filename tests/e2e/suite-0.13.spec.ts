import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { expectNoAxeViolations, screenshot, serverUrl } from "./helpers";

// Suite 0.13.0 on the server page and its JSON: every listed remote with its standing (architecture.md §2.6), a hint
// under the reason, and the certificate's days left with a warning under 14 days (§2.8).
test.describe.configure({ timeout: 120_000 });

const apiUrl = (name: string) => `/api/servers/${name.split("/").map(encodeURIComponent).join("/")}`;

test("a server with several remotes lists each with its transport and standing", async ({ page, request }) => {
  await page.goto(serverUrl(SEED.multiRemote));
  const remotes = page.locator("section[aria-labelledby=remotes-h]");
  await expect(remotes.getByRole("heading", { level: 2 })).toHaveText("Listed remotes");
  const rows = remotes.locator("tbody tr");
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(0)).toContainText("needs configuration: its header Authorization holds {API_KEY} for the user to fill in");
  await expect(rows.nth(1)).toContainText("sse");
  await expect(rows.nth(2)).toContainText("probed as https://eu.msg.example/chat");
  await expect(rows.nth(3)).toHaveAttribute("data-standing", "probed");
  await expect(rows.nth(4)).toContainText("passed over: another remote was probed");
  await expectNoAxeViolations(page);
  await screenshot(page, "server-several-remotes");

  const body = (await (await request.get(apiUrl(SEED.multiRemote))).json()) as {
    remotes: { url: string; standing: string; why: string | null }[];
  };
  expect(body.remotes.map((r) => r.standing)).toEqual([
    "needs_configuration",
    "needs_configuration",
    "passed_over",
    "probed",
    "passed_over",
  ]);
  expect(body.remotes[3]).toMatchObject({ url: "https://mcp.msg.example/search", why: null });
});

test("a failed check shows its hint under the reason, and the JSON carries it as checks.<id>.hint", async ({ page, request }) => {
  await page.goto(serverUrl(SEED.hinted));
  const hs = page.locator("#check-handshake");
  await expect(hs.locator("h3")).toContainText("Failed");
  const hint = hs.locator("p.hint");
  await expect(hint).toHaveAttribute("data-hint", "invalid_host");
  await expect(hint).toContainText("What to change: Allow the server's public host name in its Host-header allowlist");
  // Under the reason: the paragraph right after it.
  await expect(hs.locator("p.reason + p.hint")).toHaveCount(1);
  await expect(page.locator("#check-error_taxonomy p.hint")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshot(page, "server-with-hint");

  const body = (await (await request.get(apiUrl(SEED.hinted))).json()) as {
    checks: Record<string, { hint: string | null; hintCode: string | null }>;
  };
  expect(body.checks.handshake!.hintCode).toBe("invalid_host");
  expect(body.checks.handshake!.hint).toMatch(/^Allow the server's public host name .*\(it named tools\.sdk-defaults\.example\)/);
  expect(body.checks.error_taxonomy!.hint).toBeNull();
});

test("a certificate that expires within 14 days is shown with its days left and a warning", async ({ page, request }) => {
  await page.goto(serverUrl(SEED.certSoon));
  const cert = page.locator("section[aria-labelledby=certificate-h]");
  await expect(cert.getByRole("note")).toContainText("The certificate expires soon (5 days left)");
  await expect(cert).toContainText("Example Trust Services");
  await expectNoAxeViolations(page);
  await screenshot(page, "server-certificate-expiring");

  const body = (await (await request.get(apiUrl(SEED.certSoon))).json()) as {
    certificate: { daysLeft: number; warn: boolean; issuer: string };
  };
  expect(body.certificate).toMatchObject({ daysLeft: 5, warn: true, issuer: "Example Trust Services" });

  // Two months left: the facts without a warning.
  await page.goto(serverUrl(SEED.hinted));
  await expect(page.locator("section[aria-labelledby=certificate-h]")).toContainText("60 days left");
  await expect(page.locator("section[aria-labelledby=certificate-h] .notice")).toHaveCount(0);
});
