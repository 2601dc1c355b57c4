import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { badgeUrl, parseAtom, screenshot, serverUrl } from "./helpers";

// Uptime and incidents (architecture.md §4) as the seeded database holds them: on the server page, in its JSON, on the
// uptime badge, on /incidents and in its feed.

const shieldsUrl = (name: string, q: string) => `/api/badge/${name.split("/").map(encodeURIComponent).join("/")}?${q}`;

test("the server page shows uptime for four windows beside the strip and its incidents with duration and reason", async ({
  page,
  request,
}) => {
  const json = await (await request.get(`/api${serverUrl(SEED.modern)}`)).json();
  expect(Object.keys(json.uptime)).toEqual(["last24h", "last7d", "last30d", "last90d"]);
  expect(json.uptime.last30d).toMatchObject({ up: expect.any(Number), reached: expect.any(Number) });
  expect(json.uptime.last30d.ratio).toBeCloseTo(json.uptime.last30d.up / json.uptime.last30d.reached, 10);
  expect(json.incidents).toHaveLength(1);
  expect(json.incidents[0]).toMatchObject({ check: "handshake", durationMs: (4 * 60 + 10) * 60_000 });

  await page.goto(serverUrl(SEED.modern));
  const uptime = page.getByRole("group", { name: "Uptime" });
  await expect(uptime.locator(".uptime-figure")).toHaveCount(4);
  await expect(uptime).toContainText(`${json.uptime.last30d.up} of ${json.uptime.last30d.reached} probes`);
  // Beside the strip: inside the history section, right after the strip's figure.
  await expect(page.locator("#history .uptime")).toHaveCount(1);
  const incidents = page.locator("#incidents");
  // Folded under its heading (the page stays short); the heading opens it.
  await incidents.locator("summary").first().click();
  await expect(incidents.getByRole("row")).toHaveCount(2);
  await expect(incidents).toContainText("4 h 10 min");
  await expect(incidents).toContainText("Handshake Failed: server/discover answered HTTP 502");

  await page.goto(serverUrl(SEED.down));
  await expect(page.locator("#incidents")).toContainText("Ongoing");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(serverUrl(SEED.allStates));
    await screenshot(page, scheme === "light" ? "server-uptime-incidents" : "server-uptime-incidents-dark");
  }
});

test("the uptime badge shows the 30-day share by default and another window on request, as SVG and shields JSON", async ({ request }) => {
  // The seed's weather server: four probes a day for 30 days, two of them down on the day it failed.
  const json = await (await request.get(`/api${serverUrl(SEED.modern)}`)).json();
  expect(json.uptime.last30d).toMatchObject({ up: 118, reached: 120 });
  const svg = await request.get(`${badgeUrl(SEED.modern)}?metric=uptime`);
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");
  const shields = await (await request.get(shieldsUrl(SEED.modern, "metric=uptime"))).json();
  expect(shields.label).toBe("MCP uptime 30d");
  expect(shields.message).toBe("98.3%");
  expect(await svg.text()).toContain(shields.message);
  const day = await (await request.get(shieldsUrl(SEED.modern, "metric=uptime&window=24h"))).json();
  expect(day).toMatchObject({ label: "MCP uptime 24h", message: "100%" });
  expect((await request.get(shieldsUrl(SEED.modern, "metric=uptime&window=year"))).status()).toBe(400);
});

test("/incidents lists incidents across servers, most recent first, and its Atom feed has an entry per opening and closing", async ({
  page,
  request,
}) => {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/incidents");
    await screenshot(page, scheme === "light" ? "incidents" : "incidents-dark");
  }
  await expect(page.getByRole("status")).toHaveText("4 incidents recorded, 2 ongoing.");
  const rows = page.locator("table.incidents tbody tr");
  await expect(rows).toHaveCount(4);
  const started = await rows.locator("td[data-label=Started] time").evaluateAll((ts) => ts.map((t) => t.getAttribute("datetime")!));
  expect([...started].sort().reverse()).toEqual(started);
  await expect(rows.first()).toContainText(SEED.modern);

  await page.goto(`/incidents?server=${encodeURIComponent(SEED.allStates)}`);
  await expect(page.locator("table.incidents tbody tr")).toHaveCount(2);

  const feed = await request.get("/incidents/feed.xml");
  expect(feed.headers()["content-type"]).toContain("application/atom+xml");
  const atom = await parseAtom(page, await feed.text());
  expect(atom.error).toBeNull();
  expect(atom.entries).toHaveLength(6);
  expect(atom.entries.filter((e) => /incident closed after/.test(e.title))).toHaveLength(2);
  expect(atom.entries[0]!.title).toContain("incident closed after 4 h 10 min");
});
