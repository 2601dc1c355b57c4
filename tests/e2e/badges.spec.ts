import { expect, test } from "@playwright/test";
import { SEED } from "./seed";
import { badgeUrl } from "./helpers";

test("overall badge is an SVG naming the worst state, with badge cache headers", async ({ request }) => {
  const res = await request.get(badgeUrl(SEED.allStates));
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  expect(res.headers()["cache-control"]).toMatch(/public, max-age=300, s-maxage=300, stale-while-revalidate/);
  const svg = await res.text();
  expect(svg).toMatch(/^<svg /);
  expect(svg).toContain('aria-label="MCP status: failed"');
  // Opened on its own, a badge may run and load nothing.
  expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'");
});

test("per-check badge names the check and its state", async ({ request }) => {
  const res = await request.get(badgeUrl(SEED.allStates, "tools_list"));
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('aria-label="MCP tool list: observed risk"');
  const modern = await (await request.get(badgeUrl(SEED.modern, "handshake"))).text();
  expect(modern).toContain("MCP handshake: verified");
});

test("unknown server gets a grey 'unknown' SVG with status 404", async ({ request }) => {
  const res = await request.get(badgeUrl("io.github.nobody/nothing"));
  expect(res.status()).toBe(404);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  const svg = await res.text();
  expect(svg).toContain("MCP status: unknown");
  expect(svg).toContain('fill="#9e9e9e"');
});

test("an unknown check id is a 400, not a badge", async ({ request }) => {
  const res = await request.get(badgeUrl(SEED.modern, "nope"));
  expect(res.status()).toBe(400);
});

test("a server name with <script> yields a badge with nothing executable in it", async ({ request }) => {
  const res = await request.get(badgeUrl(SEED.hostile, "error_taxonomy"));
  expect(res.status()).toBe(200);
  const svg = await res.text();
  expect(svg).toContain("MCP error taxonomy: observed risk");
  expect(svg.toLowerCase()).not.toContain("<script");
  expect(svg).not.toMatch(/on\w+=/i);
});

test("shields.io endpoint JSON matches the endpoint schema", async ({ request }) => {
  const res = await request.get(`/api/badge/${SEED.modern}?check=handshake`);
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toContain("max-age=300");
  expect(await res.json()).toEqual({ schemaVersion: 1, label: "MCP handshake", message: "verified", color: "2e7d32", cacheSeconds: 300 });
  const unknown = await request.get("/api/badge/io.github.nobody/nothing");
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).message).toBe("unknown");
});

test("a left-registry server's badge says so", async ({ request }) => {
  const svg = await (await request.get(badgeUrl(SEED.left))).text();
  expect(svg).toContain("observed risk (left registry)");
});
