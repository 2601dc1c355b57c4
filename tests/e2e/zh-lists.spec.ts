import { expect, test, type Page } from "@playwright/test";

// The list pages under /zh read in Chinese: the page's own words (headings, column names, labels, buttons) are
// Chinese, stored text stays as stored, and every link to a server, a filter, a sort or a page stays under /zh.

/** Each Chinese list page and the English words of its own that must not show there. */
const PAGES: { path: string; english: string[] }[] = [
  {
    path: "/zh",
    english: [
      "Remote MCP servers",
      "Summary:",
      "Name contains",
      "Sort by",
      "Show servers",
      "Servers",
      "Server",
      "Overall",
      "Last probed",
      "State",
    ],
  },
  { path: "/zh/changes", english: ["Tool-definition changes", "When", "Server", "Tool", "Change", "Field", "Before → after"] },
  { path: "/zh/incidents", english: ["Incidents", "Server", "Started", "Ended", "Duration", "Opened by", "Ongoing"] },
  {
    path: "/zh/runs/2",
    english: [
      "Probe of",
      "Started",
      "Era · revision",
      "Requests",
      "Handshake time",
      "Tool-list time",
      "Suite version",
      "Exchanges",
      "Copy",
    ],
  },
  {
    path: "/zh/coverage",
    english: [
      "Coverage",
      "Alerts",
      "Servers read per day",
      "Request success rate",
      "Cross-reader",
      "Failing longest",
      "Recently resolved alerts",
      "Day (UTC)",
      "Servers read",
      "Outcome",
      "Every sampled server",
      "Server",
      "Last complete read",
      "Handshake",
      "Tool list",
      "Regions",
    ],
  },
  { path: "/zh/data", english: ["Open data", "Downloads", "File", "What", "Column", "Meaning", "census.csv and census.json"] },
];

/** The texts of the page's headings, column headers, terms, labels, buttons and fold summaries, and its cells' data-labels. */
async function ownWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const main = document.querySelector("main") ?? document.body;
    const texts = [...main.querySelectorAll("h1, h2, h3, th, dt, label, button, summary, caption, legend")].map(
      (e) => e.textContent?.trim() ?? "",
    );
    const labels = [...main.querySelectorAll("[data-label]")].map((e) => e.getAttribute("data-label") ?? "");
    return [...texts, ...labels].filter(Boolean);
  });
}

const HAN = /\p{Script=Han}/u;

for (const { path, english } of PAGES) {
  test(`${path} is in Chinese: lang, h1, no English headings, links under /zh`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    await expect(page.locator("h1")).toHaveText(HAN);
    await expect(page).toHaveTitle(HAN);
    const words = await ownWords(page);
    for (const w of english) {
      expect(
        words.filter((t) => t === w || t.startsWith(`${w} `) || t.startsWith(`${w}:`)),
        `"${w}" on ${path}`,
      ).toEqual([]);
    }
    // Every link into the site's pages stays in Chinese (feeds, JSON and downloads stay as they are).
    const hrefs = await page.locator("main a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    const pageLinks = hrefs.filter((h) => !/\.(xml|json|csv|gz)(\?|$)|^\/api\/|^\/badge\//.test(h));
    expect(
      pageLinks.filter((h) => !(h === "/zh" || h.startsWith("/zh/") || h.startsWith("/zh?") || h.startsWith("/zh#"))),
      `links on ${path}`,
    ).toEqual([]);
  });

  test(`${path} is no wider than 390 px at 390 px`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}

test("/zh links servers, summary filters and sorts under /zh; sorting and filtering keep the URL under /zh", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/zh");
  await expect(page.locator("table.server-table tbody a.server-name").first()).toHaveAttribute("href", /^\/zh\/servers\//);
  await expect(page.locator("table.summary-table a[href^='/zh?']").first()).toBeAttached();
  await expect(page.getByRole("status").filter({ hasText: "个服务端" })).toContainText("按名称排列，A 到 Z");

  // Sort by the overall state from its column header.
  await page.locator("table.server-table thead").getByRole("link", { name: /^总体/ }).click();
  await expect(page).toHaveURL(/\/zh\?sort=overall$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
  await expect(page.getByRole("status").filter({ hasText: "个服务端" })).toContainText("按总体状态排列，最差的在前");

  // Filter by name through the form.
  await page.getByLabel("名称包含").fill("always-down");
  await page.getByRole("button", { name: "显示服务端" }).click();
  await expect(page).toHaveURL(/\/zh\?(.*&)?q=always-down(&|$)/);
  await expect(page.getByRole("status").filter({ hasText: "符合条件" })).toContainText("个服务端符合条件");
  await expect(page.locator("table.server-table tbody tr").first()).toContainText("always-down");
  await expect(page.getByRole("link", { name: "清除" })).toHaveAttribute("href", "/zh");

  // A state filter from the form.
  await page.goto("/zh?overall=failed");
  await expect(page.getByLabel("总体", { exact: true })).toHaveValue("failed");
  await expect(page.locator("table.server-table tbody tr").first().locator("td.cell-overall")).toContainText("未通过");
});

test("/zh/incidents links servers and runs under /zh and says ongoing and durations in Chinese", async ({ page }) => {
  await page.goto("/zh/incidents");
  const rows = page.locator("table.incidents tbody tr");
  await expect(rows.first()).toBeVisible();
  await expect(rows.first().locator("td.server-name a")).toHaveAttribute("href", /^\/zh\/servers\//);
  await expect(rows.first().locator("td").nth(1).locator("a")).toHaveAttribute("href", /^\/zh\/runs\/\d+$/);
  await expect(page.locator("table.incidents tr.ongoing").first()).toContainText("尚未结束");
  await expect(
    page
      .locator("table.incidents td[data-label='持续时间']")
      .filter({ hasText: /小时|分钟|天|秒/ })
      .first(),
  ).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/\bOngoing\b|\bFailed\b|\bopened\b/);
  await expect(page.getByRole("status")).toContainText("已记录");
});

test("/zh/data keeps its curl example on the site's own origin and its downloads as they are", async ({ page, baseURL }) => {
  await page.goto("/zh/data");
  await expect(page.locator("pre.example")).toContainText(`curl -sS -O -C - ${baseURL}/data/servers-`);
  await expect(page.getByRole("link", { name: "census.csv" })).toHaveAttribute("href", "/data/census.csv");
  await expect(page.locator("#licence")).toContainText("CC-BY-4.0");
  await expect(page.locator("#licence")).toContainText("许可：");
  await expect(page.locator("main")).not.toContainText(/ days\)|Every listed server|Today's columns/);
});

test("/zh/coverage names its chart, states and failing servers in Chinese and links servers under /zh", async ({ page }) => {
  await page.goto("/zh/coverage");
  await expect(page.locator("#coverage-chart-t")).toHaveText(HAN);
  await expect(page.locator("#coverage-chart-d")).toContainText("柱状图");
  await expect(page.locator("section[aria-labelledby=failing-h] a[href^='/zh/servers/']").first()).toBeAttached();
  await expect(page.locator("section[aria-labelledby=failing-h] td[data-label='握手']").first()).toContainText(
    /已通过|未通过|观察到风险|未检查/,
  );
  await expect(page.locator("main")).not.toContainText(/ ago\b|Judge the probe|open since|No open alert/);
});

test("the English index keeps its words", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator("h1")).toHaveText("Remote MCP servers, as a careful client sees them");
  await expect(page.locator("table.server-table tbody a.server-name").first()).toHaveAttribute("href", /^\/servers\//);
  await expect(page.locator(".render-stamp")).toContainText("Page rendered ");
});
