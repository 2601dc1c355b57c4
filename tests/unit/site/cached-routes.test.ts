import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { closeDb, openDb, type Db } from "@/db/client";
import { cachedRoute, type CachedRouteContext } from "@/lib/site/cached-routes";
import { badgePath, cardPath, serverJsonPath, serverPath, shieldsEndpointPath } from "@/lib/site/paths";
import { getServerDetail, makeHostDue } from "@/lib/store/servers";
import { SEED, seedDatabase } from "../../e2e/seed";

// Which requests the front cache of `npm start` may answer, and when their versions change, on a real
// seeded database written by the store's own functions.

let dir: string;
let db: Db;
let ctx: CachedRouteContext;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cached-routes-"));
  const file = path.join(dir, "site.db");
  seedDatabase(file);
  db = openDb(file);
  ctx = { db, publicBaseUrl: undefined, isBot: (ua) => /bot/i.test(ua) };
});

afterAll(() => {
  closeDb(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date("2026-11-30T12:30:00Z");
const req = (url: string, headers: IncomingHttpHeaders = {}, method = "GET") => ({ method, url, headers: { host: "status.test", ...headers } });
const route = (url: string, headers: IncomingHttpHeaders = {}, method = "GET", now = NOW) => cachedRoute(req(url, headers, method), ctx, now);

describe("cached routes", () => {
  test("pages, badges and server JSON are cacheable; other methods, client navigation and other paths are not", () => {
    for (const url of ["/", "/?handshake=failed", serverPath(SEED.modern), `${serverPath(SEED.modern)}?reprobe=accepted`, badgePath(SEED.modern, "handshake"), shieldsEndpointPath(SEED.modern), serverJsonPath(SEED.modern)]) {
      expect(route(url), url).not.toBeNull();
      expect(route(url, {}, "HEAD"), url).not.toBeNull();
    }
    expect(route(serverPath(SEED.modern), {}, "POST")).toBeNull();
    expect(route(serverPath(SEED.modern), { rsc: "1" })).toBeNull();
    expect(route(serverPath(SEED.modern), { "next-router-prefetch": "1" })).toBeNull();
    expect(route(`${serverPath(SEED.modern)}?_rsc=abc`)).toBeNull();
    expect(route(serverPath(SEED.modern), { cookie: "__prerender_bypass=1" })).toBeNull();
    expect(route(serverPath(SEED.modern), { range: "bytes=0-10" })).toBeNull();
    for (const url of ["/faq", "/census", "/api/servers", "/api/health", "/servers/", "/favicon.svg", "/_next/static/chunks/x.js"]) expect(route(url), url).toBeNull();
  });

  test("the card image is kept per server and data version, whatever ?run= says; sitemaps per origin and site version", () => {
    const card = route(cardPath(SEED.modern))!;
    expect(card).not.toBeNull();
    expect(route(`${cardPath(SEED.modern)}?run=12`)!.key).toBe(card.key);
    expect(route(cardPath(SEED.modern), { host: "mirror.test" })!.key).toBe(card.key);
    expect(route(cardPath(SEED.legacy))!.key).not.toBe(card.key);
    const sitemap = route("/sitemap.xml")!;
    expect(sitemap.version).toBe(route("/")!.version.split("|").slice(0, -1).join("|"));
    expect(route("/sitemap.xml", { host: "mirror.test" })!.key).not.toBe(sitemap.key);
    expect(route("/sitemaps/1.xml")!.key).not.toBe(sitemap.key);
    for (const url of ["/sitemaps/01.xml", "/sitemaps/x.xml", "/robots.txt", "/card/"]) expect(route(url), url).toBeNull();
    const host = getServerDetail(db, SEED.legacy)!.host!;
    const before = route(cardPath(SEED.legacy))!.version;
    makeHostDue(db, host, "cached-routes card test");
    expect(route(cardPath(SEED.legacy))!.version).not.toBe(before);
  });

  test("only the canonical path of a name is cacheable, so one answer has one entry", () => {
    const canonical = serverPath(SEED.hostile);
    expect(route(canonical)).not.toBeNull();
    // The same name spelt with an encoded slash, or with a trailing slash, is left to Next.
    expect(route(canonical.replace("evil/", "evil%2F"))).toBeNull();
    expect(route(`${serverPath(SEED.modern)}/`)).toBeNull();
  });

  test("keys separate what changes the answer and merge what does not", () => {
    const page = route(serverPath(SEED.modern))!;
    expect(route(`${serverPath(SEED.modern)}?utm_source=x`)!.key).toBe(page.key);
    expect(route(`${serverPath(SEED.modern)}?reprobe=accepted`)!.key).not.toBe(page.key);
    expect(route(serverPath(SEED.modern), { host: "mirror.test" })!.key).not.toBe(page.key);
    expect(route(serverPath(SEED.modern), { "user-agent": "Googlebot/2.1" })!.key).not.toBe(page.key);
    expect(route("/?page=1&handshake=failed&utm=x")!.key).toBe(route("/?handshake=failed")!.key);
    expect(route("/?handshake=failed")!.key).not.toBe(route("/")!.key);
    expect(route(badgePath(SEED.modern, "handshake"))!.key).not.toBe(route(badgePath(SEED.modern))!.key);
    // Badges and JSON carry no links, so the origin does not matter.
    expect(route(badgePath(SEED.modern), { host: "mirror.test" })!.key).toBe(route(badgePath(SEED.modern))!.key);
    expect(route(shieldsEndpointPath(SEED.modern))!.key).not.toBe(route(badgePath(SEED.modern))!.key);
    expect(route(serverJsonPath(SEED.modern))!.key).not.toBe(page.key);
  });

  test("a write about one server changes its versions and no other server's; the hour and the day move them too", () => {
    const before = [SEED.modern, SEED.legacy].map((n) => [route(serverPath(n))!.version, route(badgePath(n))!.version, route(serverJsonPath(n))!.version]);
    const index = route("/")!.version;
    const host = getServerDetail(db, SEED.modern)!.host!;
    expect(makeHostDue(db, host, "cached-routes test")).toBeGreaterThan(0);
    const after = [SEED.modern, SEED.legacy].map((n) => [route(serverPath(n))!.version, route(badgePath(n))!.version, route(serverJsonPath(n))!.version]);
    expect(after[0]!.every((v, i) => v !== before[0]![i])).toBe(true);
    expect(after[1]).toEqual(before[1]);
    // Aggregate pages change once per round, not per server write.
    expect(route("/")!.version).toBe(index);

    const nextHour = new Date("2026-11-30T13:05:00Z");
    expect(route(serverPath(SEED.legacy), {}, "GET", nextHour)!.version).not.toBe(after[1]![0]);
    expect(route(badgePath(SEED.legacy), {}, "GET", nextHour)!.version).toBe(after[1]![1]);
    const nextDay = new Date("2026-12-01T00:05:00Z");
    expect(route(badgePath(SEED.legacy), {}, "GET", nextDay)!.version).not.toBe(after[1]![1]);
    expect(route("/", {}, "GET", nextDay)!.version).not.toBe(index);
  });
});
