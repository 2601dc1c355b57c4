import { expect, test } from "@playwright/test";
import { OBSERVATION_CODES } from "../../lib/vocabulary/checks";
import { observationAnchor } from "../../lib/site/tool-view";
import { SEED } from "./seed";
import { collectConsoleErrors, expectNoAxeViolations, screenshot, serverUrl } from "./helpers";

// architecture.md §2.9 in the browser: observations beside the tool they concern, annotations as declared, the
// same-version fact in the tool history, counts on /census, the FAQ in both languages.

test("the tools section shows each observation beside its tool, and every state stays Verified", async ({ page }) => {
  const errors = collectConsoleErrors(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(serverUrl(SEED.poisoned));
    const tools = page.locator("section[aria-labelledby=tools-h]");
    // As stored: get_forecast, add, format_note.
    await expect(tools.locator("li#tool-1")).toContainText("get_forecast");
    const tagged = tools.locator("li#tool-1 ul.observations li[data-code=hidden_tag_characters]");
    await expect(tagged).toContainText("contains 18 Unicode tag characters at offset 37; they decode to 'read ~/.ssh/id_rsa'.");
    await expect(tagged).toContainText("/tools/0/description");
    // The hidden text itself is spelled out, never rendered invisibly.
    await expect(tools.locator("li#tool-1 .tool-description")).toContainText("<U+E0072>");
    const add = tools.locator("li#tool-2");
    const note = tools.locator("li#tool-3");
    await expect(add.locator("li[data-code=secret_file_handoff]")).toContainText("names the secret file '~/.cursor/mcp.json'");
    await expect(add.locator("li[data-code=conceals_from_user]")).toContainText("'Do not tell the user'");
    await expect(note.locator("li[data-code=annotation_contradiction]")).toContainText("declares readOnlyHint: true together with");
    await expect(note.locator("li[data-code=base64_text]")).toContainText("decode to readable text");
    // The server's instructions are observed apart from any tool.
    await expect(tools.locator('ul.observations[aria-label="Observations on the server\'s instructions"]')).toContainText(
      "overrides_instructions",
    );
    // Annotations: declared values, the spec's defaults for absent hints, never verified.
    await expect(add.locator(".hints")).toContainText("declared by the server, not verified");
    await expect(add.locator(".hints [data-source=default]").first()).toContainText("readOnlyHint: false (absent: the spec's default)");
    await expect(tools.locator("li#tool-1 .hints [data-source=declared]")).toContainText("readOnlyHint: true");
    // Each code links its FAQ row.
    await expect(tagged.locator("a.obs-code")).toHaveAttribute(
      "href",
      `/faq/tool-observations#${observationAnchor("hidden_tag_characters")}`,
    );
    // Facts, not verdicts: the headline is Verified.
    await expect(page.locator("main")).not.toContainText(/malicious|rug pull/i);
    await expect(page.locator(".glance-table")).toContainText("Verified");
    await screenshot(page, `observations-server-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoAxeViolations(page);
  expect(errors).toEqual([]);
});

test("hostile tool names stay text, and the JSON and /census carry the observations", async ({ page, request }) => {
  await page.goto(serverUrl(SEED.hostile));
  await expect(page.locator("section[aria-labelledby=tools-h] li[data-code=tool_name_format]")).toContainText(
    "The tool name '<img src=x onerror=alert(1)>'",
  );
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  const detail = await (await request.get(`/api/servers/${SEED.poisoned}`)).json();
  expect(detail.overall).toBe("verified");
  expect(detail.observations.map((o: { code: string }) => o.code).sort()).toEqual([
    "annotation_contradiction",
    "base64_text",
    "conceals_from_user",
    "hidden_tag_characters",
    "overrides_instructions",
    "secret_file_handoff",
  ]);
  expect(detail.observations[0]).toMatchObject({ code: "hidden_tag_characters", tool: "get_forecast", pointer: "/tools/0/description" });

  await page.goto("/census");
  const table = page.locator("#observation-counts");
  await expect(table.locator("tbody tr")).toHaveCount(OBSERVATION_CODES.length);
  await expect(table.locator("tr[data-code=secret_file_handoff] td[data-label=Servers]")).toHaveText("1");
  await expect(table.locator("tr[data-code=hidden_tag_characters] td[data-label=Servers]")).toHaveText("1");
  await expect(table.locator("tr[data-code=bidi_controls] td[data-label=Servers]")).toHaveText("0");
  await screenshot(page, "observations-census-1280");
});

test("a definition changed under one serverInfo.version says so, as a fact", async ({ page, request }) => {
  await page.goto(serverUrl(SEED.modern));
  const changes = page.locator("section[aria-labelledby=changes-h]");
  await expect(changes.locator(".same-version").first()).toHaveText("changed while it stayed 1.2.0");
  const feed = await (await request.get(`/changes/feed.xml?server=${encodeURIComponent(SEED.modern)}`)).text();
  expect(feed).toContain("changed (description) while serverInfo.version stayed 1.2.0");
  const detail = await (await request.get(`/api/servers/${SEED.modern}`)).json();
  expect(detail.toolChanges.map((c: { sameServerVersion: string | null }) => c.sameServerVersion)).toContain("1.2.0");
});

test("the FAQ explains every code in both languages, and the rule index links each one", async ({ page }) => {
  for (const [path, lang] of [
    ["/faq/tool-observations", "en"],
    ["/zh/faq/tool-observations", "zh"],
  ] as const) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      for (const code of OBSERVATION_CODES) await expect(page.locator(`[id="${observationAnchor(code)}"]`)).toContainText(code);
      // Each code in the table reads whole, on one line (the Chinese cells beside it break between any two characters).
      const split = await page.evaluate((ids) => {
        return ids.filter((id) => (document.getElementById(id)?.querySelector("td code")?.getClientRects().length ?? 0) !== 1);
      }, OBSERVATION_CODES.map(observationAnchor));
      expect(split, `${path} at ${width} px: codes split over lines`).toEqual([]);
      await expect(page.locator("#limits")).toBeVisible();
      await screenshot(page, `observations-faq-${lang}-${width}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/faq");
  await expect(page.locator(`a[href="/faq/tool-observations#${observationAnchor("secret_file_handoff")}"]`)).toHaveCount(1);
});

test("the index filters by observation, and an unknown code is a form error, never a crash", async ({ page, request }) => {
  await page.goto("/");
  await page.getByLabel("Observation").selectOption("secret_file_handoff");
  await page.getByRole("button", { name: "Show servers" }).click();
  await expect(page).toHaveURL(/observation=secret_file_handoff/);
  const rows = page.locator("table.server-table tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(SEED.poisoned);
  await screenshot(page, "observations-index-filter-1280");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/?observations=any");
  await expect(page.getByLabel("Observation")).toHaveValue("any");
  await expect(page.locator("table.server-table tbody tr", { hasText: SEED.poisoned })).toHaveCount(1);
  await screenshot(page, "observations-index-filter-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  const bad = await page.goto("/?observation=rug_pull");
  expect(bad?.status()).toBe(200);
  await expect(page.locator(".form-error")).toContainText("That is not an observation code");
  await expect(page.locator("table.server-table tbody tr")).toHaveCount(50);

  const api = await request.get("/api/servers?observation=rug_pull");
  expect(api.status()).toBe(400);
  expect(await api.json()).toMatchObject({ error: "bad_request" });
  const any = await (await request.get("/api/servers?observations=any&pageSize=200")).json();
  expect(any.rows.map((r: { name: string }) => r.name)).toContain(SEED.poisoned);
  expect(any.rows.map((r: { name: string }) => r.name)).not.toContain(SEED.modern);
});
