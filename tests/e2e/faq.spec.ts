import { expect, test } from "@playwright/test";
import { FAQ, FAQ_SLUGS, changesSince } from "../../lib/site/faq";
import { RESERVED_TOOL_NAME } from "../../lib/probe/protocol";

for (const slug of FAQ_SLUGS) {
  test(`FAQ "${slug}" exists in English and Chinese and the language switch links them`, async ({ page }) => {
    await page.goto(`/faq/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(FAQ.en[slug].title);
    await page.getByRole("link", { name: /Read this page in Chinese/ }).click();
    await expect(page).toHaveURL(new RegExp(`/zh/faq/${slug}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(FAQ.zh[slug].title);
    await expect(page.locator("main > div[lang='zh-Hans']")).toHaveCount(1);
    await page.getByRole("link", { name: /阅读本页英文版/ }).click();
    await expect(page).toHaveURL(new RegExp(`/faq/${slug}$`));
  });
}

test("FAQ pages carry a dated note of rule changes since they first appeared", async ({ page }) => {
  await page.goto("/faq/refusals");
  const note = page.locator("aside.rule-changes");
  await expect(note.getByRole("heading")).toContainText("since this page first appeared (2026-09-14)");
  await expect(note.locator("li")).toHaveCount(changesSince("2026-09-14").length);
  await expect(note).toContainText("2026-11-30 · suite 0.12.0");
  await expect(note).toContainText("2026-10-06 · suite 0.11.0");
  await page.goto("/zh/faq/withheld-call");
  const zh = page.locator("aside.rule-changes");
  await expect(zh.getByRole("heading")).toContainText("本页首次发布（2026-09-23）以来的规则变化");
  await expect(zh.locator("li")).toHaveCount(changesSince("2026-09-23").length);
});

test("FAQ content names the facts operators need", async ({ page }) => {
  await page.goto("/faq/withheld-call");
  await expect(page.locator("main")).toContainText(RESERVED_TOOL_NAME);
  await page.goto("/faq/opting-out");
  await expect(page.locator("main")).toContainText("User-agent: mcp-status-probe");
  await expect(page.locator("main")).toContainText('npm run opt-out -- add <host> --reason "…"');
  await page.goto("/faq/observed-unsigned");
  await expect(page.locator("main")).toContainText("npm run --silent probe -- https://mcp.example.com/mcp");
  await expect(page.locator("main")).toContainText("server-error");
  await page.goto("/faq/changelog");
  await expect(page.locator("main")).toContainText("0.10.0");
});

test("FAQ indexes list every page in both languages", async ({ page }) => {
  await page.goto("/faq");
  await expect(page.locator(".faq-list > li")).toHaveCount(FAQ_SLUGS.length);
  await page.goto("/zh/faq");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("常见问题");
  await expect(page.locator(".faq-list > li")).toHaveCount(FAQ_SLUGS.length);
  expect((await page.goto("/faq/no-such-question"))?.status()).toBe(404);
});
