import { expect, test } from "@playwright/test";
import { parseAtom } from "./helpers";
import { SEED } from "./seed";

test("the changes page lists tool-definition changes newest first and links its feed", async ({ page }) => {
  await page.goto("/changes");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tool-definition changes");
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("get_forecast");
  await expect(rows.last()).toContainText("added");
  await expect(page.locator('link[rel=alternate][type="application/atom+xml"]')).toHaveAttribute("href", "/changes/feed.xml");
});

test("the Atom feed of all changes parses, newest first", async ({ page, request }) => {
  await page.goto("/faq");
  const res = await request.get("/changes/feed.xml");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/atom+xml");
  const feed = await parseAtom(page, await res.text());
  expect(feed.error).toBeNull();
  expect(feed.root).toBe("feed");
  expect(feed.ns).toBe("http://www.w3.org/2005/Atom");
  expect(feed.entries).toHaveLength(3);
  expect(feed.entries[0]!.title).toContain(SEED.modern);
  expect(feed.entries[0]!.updated >= feed.entries[2]!.updated).toBe(true);
});

test("a per-server feed parses and an unknown server's feed is a 404", async ({ page, request }) => {
  await page.goto("/faq");
  const res = await request.get(`/changes/feed.xml?server=${encodeURIComponent(SEED.modern)}`);
  expect(res.status()).toBe(200);
  const feed = await parseAtom(page, await res.text());
  expect(feed.error).toBeNull();
  expect(feed.entries.length).toBe(3);
  const empty = await parseAtom(page, await (await request.get(`/changes/feed.xml?server=${encodeURIComponent(SEED.hostile)}`)).text());
  expect(empty.error).toBeNull();
  expect(empty.entries).toHaveLength(0);
  expect((await request.get("/changes/feed.xml?server=nobody%2Fnothing")).status()).toBe(404);
});
