import { expect, test, type Locator, type Page } from "@playwright/test";
import { SEED } from "./seed";
import { collectConsoleErrors, screenshot, serverUrl } from "./helpers";

// The server page under /zh reads in Chinese: the page's own words (headings, column names, labels, buttons, the clients
// lines) are Chinese; hints and observations are worded in Chinese from their stored facts; stored reasons and evidence
// stay as recorded, marked lang="en"; links stay under /zh.

const SERVERS = {
  /** Verified, modern only: initialize is answered with -32602 (the demo's clients-modern-only-32602). */
  verified: SEED.modern,
  /** Verified with observations on its tools. */
  poisoned: SEED.poisoned,
  /** Not checked behind a credential gate. */
  gated: SEED.gated,
  /** Every state, transitions, hints and a cross-read. */
  allStates: SEED.allStates,
};

/** The page's own English words, as headings, column names, labels and summaries: none may show on /zh. */
const ENGLISH = [
  "At a glance",
  "Overall",
  "Checks in detail, and their history",
  "Check",
  "State",
  "Why",
  "FAQ",
  "When",
  "From",
  "To",
  "Reason",
  "Suite",
  "Decided",
  "In this state since",
  "Suite version",
  "History",
  "Remote URL",
  "Transport",
  "Registry status",
  "Era · revision",
  "Last probed",
  "Last complete read",
  "Next probe",
  "Which clients can connect",
];

/** The part of the page this spec holds to Chinese. */
const SCOPE = "main";

/** Headings, column headers, terms, labels, buttons, summaries and captions in scope, and its cells' data-labels, leaving
 * out anything inside an element marked lang="en" (stored text). */
async function ownWords(page: Page): Promise<string[]> {
  return page.evaluate((scope) => {
    const roots = [...document.querySelectorAll(scope)];
    const own = (e: Element) => !e.closest("[lang='en']");
    const texts = roots.flatMap((r) =>
      [...r.querySelectorAll("h2, h3, h4, th, dt, label, button, summary, caption, legend")]
        .filter(own)
        .map((e) => e.textContent?.trim() ?? ""),
    );
    const labels = roots.flatMap((r) => [...r.querySelectorAll("[data-label]")].filter(own).map((e) => e.getAttribute("data-label") ?? ""));
    return [...texts, ...labels].filter(Boolean);
  }, SCOPE);
}

const HAN = /\p{Script=Han}/u;

for (const [kind, name] of Object.entries(SERVERS)) {
  test(`/zh server page (${kind}) is in Chinese: lang, headings, labels, no English headings, links under /zh`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const res = await page.goto(`/zh${serverUrl(name)}`);
    expect(res?.status()).toBe(200);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
    // Every section heading of the page's own is Chinese.
    const h2s = await page.locator(`${SCOPE} h2`).allTextContents();
    expect(h2s.length).toBeGreaterThan(2);
    for (const h of h2s) expect(h, "h2").toMatch(HAN);
    const words = await ownWords(page);
    for (const w of ENGLISH) {
      expect(
        words.filter((t) => t === w || t.startsWith(`${w} `) || t.startsWith(`${w}:`) || t.startsWith(`${w},`)),
        `"${w}" on /zh${serverUrl(name)}`,
      ).toEqual([]);
    }
    await expect(page.locator(".overall-label")).toHaveText("总体");
    await expect(page.locator("#recorded-in-english")).toHaveText(HAN);
    // Relative times are worded in Chinese once the page runs.
    await expect(page.locator("#server-facts")).not.toContainText(" ago)");
    // Every link into the site's pages stays in Chinese (feeds, JSON, badges and evidence downloads stay as they are).
    const hrefs = await page.locator(`${SCOPE} a[href^='/']`).evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    const pageLinks = hrefs.filter((h) => !/\.(xml|json|csv|gz|svg|png)(\?|$)|^\/api\/|^\/badge\/|^\/card\//.test(h));
    expect(pageLinks.length).toBeGreaterThan(0);
    expect(
      pageLinks.filter((h) => !(h === "/zh" || h.startsWith("/zh/") || h.startsWith("/zh?") || h.startsWith("/zh#"))),
      `links on /zh${serverUrl(name)}`,
    ).toEqual([]);
    expect(errors).toEqual([]);
  });

  test(`/zh server page (${kind}) is no wider than 390 px at 390 px`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/zh${serverUrl(name)}`);
    // The Chinese page, whose words are longer or shorter than the English ones, is what must fit.
    await expect(page.locator("#checks-h")).toHaveText(HAN);
    await screenshot(page, `zh-server-${kind}-390`);
    const width = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
    expect(width).toBeLessThanOrEqual(390);
  });
}

test("/zh: the clients lines are Chinese; a no names the answer", async ({ page }) => {
  await page.goto(`/zh${serverUrl(SERVERS.verified)}`);
  await expect(page.locator(".client-line[data-kind=initializeFirst]")).toHaveText(
    "不能 先发 initialize 的客户端（默认设置下的 TypeScript SDK、MCP Inspector、2025 年代的客户端）连不上：服务端对 initialize 的应答是 -32602。",
  );
  await expect(page.locator(".client-line[data-kind=discoverFirst]")).toContainText("能连上：商定 2026-07-28，并能列出工具。");
  await expect(page.locator(".overall-why")).toHaveText("握手已完成，完整的工具列表已读取。");

  // The English page keeps its words, with nothing marked as stored English.
  await page.goto(serverUrl(SERVERS.verified));
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.locator(".overall-label")).toHaveText("Overall");
  await expect(page.locator("#checks-h")).toHaveText("Checks in detail, and their history");
  await expect(page.locator(".client-line[data-kind=initializeFirst]")).toContainText(
    "cannot connect: the server answers initialize with -32602.",
  );
  await expect(page.locator("#recorded-in-english")).toHaveCount(0);
  await expect(page.locator("main [lang=en]")).toHaveCount(0);
});

test("/zh: stored reasons stay as recorded, marked lang=en; state names and the credential kind are Chinese", async ({ page }) => {
  await page.goto(`/zh${serverUrl(SERVERS.gated)}`);
  await expect(page.locator(".overall .chip-label")).toHaveText("未检查");
  await expect(page.locator(".overall .chip-kind")).toContainText("需要凭据");
  const why = page.locator(".overall-why");
  await expect(why).toContainText("由握手决定：");
  await expect(why.locator("[lang=en]").first()).toContainText("initialize got 401");
  await expect(page.locator("#check-handshake p.reason")).toHaveAttribute("lang", "en");

  await page.goto(`/zh${serverUrl(SERVERS.allStates)}`);
  await expect(page.locator("#check-protocol_version h3")).toContainText("未通过");
  await expect(page.locator("#check-handshake h3")).toContainText("已通过");
  await expect(page.locator("#check-tools_list h3")).toContainText("观察到风险");
  // The incidents table's relative times are Chinese too once the page runs (its Ago reads the document's language).
  await expect(page.locator("#incidents-content table.incidents")).toContainText("天前");
});

test("/zh: observations are counted in Chinese above the fold, their codes linking the Chinese FAQ", async ({ page }) => {
  await page.goto(`/zh${serverUrl(SERVERS.poisoned)}`);
  const line = page.locator("#observations-line");
  await expect(line).toContainText("条观察");
  await expect(line.locator("a.obs-code").first()).toHaveAttribute("href", /^\/zh\/faq\/tool-observations#/);
});

/** The language an element reads in: its nearest lang attribute. */
const langOf = (l: Locator) => l.evaluate((e) => e.closest("[lang]")?.getAttribute("lang") ?? null);

test("/zh: a hint is worded in Chinese from its stored facts, in the page's language; the reason above stays English", async ({ page }) => {
  await page.goto(`/zh${serverUrl(SEED.hinted)}`);
  const hint = page.locator("#check-handshake p.hint");
  await expect(hint).toHaveAttribute("data-hint", "invalid_host");
  const sentence = hint.locator(".hint-sentence");
  await expect(sentence).toHaveText(/^把服务端对外使用的主机名加进它的 Host 白名单：.*（它报出的是 tools\.sdk-defaults\.example）.*。$/);
  expect(await langOf(sentence)).toBe("zh-Hans");
  await expect(hint.locator("[lang=en]")).toHaveCount(0);
  await expect(page.locator("#check-handshake p.reason")).toHaveAttribute("lang", "en");
  // Every hint on the page (under the overall state too) reads in Chinese.
  const all = page.locator("main .hint-sentence");
  expect(await all.count()).toBeGreaterThan(1);
  for (const s of await all.all()) {
    await expect(s).toHaveText(HAN);
    expect(await langOf(s)).toBe("zh-Hans");
  }
  // The English page keeps lib/checks' sentence.
  await page.goto(serverUrl(SEED.hinted));
  await expect(page.locator("#check-handshake .hint-sentence")).toContainText(
    "Allow the server's public host name in its Host-header allowlist",
  );
});

test("/zh: observations beside their tools are worded in Chinese, the facts kept as they are", async ({ page }) => {
  await page.goto(`/zh${serverUrl(SERVERS.poisoned)}`);
  const tools = page.locator("section[aria-labelledby=tools-h]");
  await expect(tools.locator("li#tool-1 li[data-code=hidden_tag_characters] .obs-sentence")).toHaveText(
    "工具 `get_forecast` 的描述在偏移 37 处含有 18 个 Unicode 标签字符，解码为“read ~/.ssh/id_rsa”。",
  );
  await expect(tools.locator("li#tool-2 li[data-code=secret_file_handoff] .obs-sentence")).toContainText(
    "提到密钥文件“~/.cursor/mcp.json”",
  );
  const all = tools.locator(".obs-sentence");
  expect(await all.count()).toBeGreaterThan(3);
  for (const s of await all.all()) {
    await expect(s).toHaveText(HAN);
    expect(await langOf(s)).toBe("zh-Hans");
  }
  await expect(tools.locator("ul.observations [lang=en]")).toHaveCount(0);
});

test("/zh: the regional note and the uptime figures are worded in Chinese", async ({ page }) => {
  await page.goto(`/zh${serverUrl(SEED.regional)}`);
  await expect(page.locator("[data-testid=regional-note]")).toContainText("少数区域失败不决定状态");
  await expect(page.locator("[data-testid=regional-note]")).toContainText("HTTP 502");
  await expect(page.locator("table.regions caption")).toHaveText("最近一轮，按区域");
  // No probe in the last 24 hours: the figure says so in Chinese.
  await expect(page.locator(".uptime-figures")).toContainText("无数据");
  await expect(page.locator(".uptime-figures")).not.toContainText("no data");
});
