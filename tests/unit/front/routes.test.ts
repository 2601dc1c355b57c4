import type { IncomingHttpHeaders } from "node:http";
import { describe, expect, test } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { createFrontRouter, frontRoute, type FrontRoute, type RouteContext } from "@/lib/front/routes";
import { badgePath, cardPath, serverJsonPath, serverPath, shieldsEndpointPath } from "@/lib/site/paths";
import { indexHref, parseIndexQuery, searchParamsOf } from "@/lib/site/query";
import { getServerDetail } from "@/lib/store/servers/detail";
import { makeHostDue } from "@/lib/store/servers/round";
import { SEED } from "../../e2e/seed";
import { seededDb } from "../site/seeded-db";

// Which requests the front answers from memory, under which keys and versions, on a real seeded database
// written by the store's own functions.

const seeded = seededDb("front-routes-");

const NOW = new Date("2026-11-30T12:30:00Z");
function route(
  url: string,
  headers: IncomingHttpHeaders = {},
  o: { method?: string; now?: Date; publicBaseUrl?: string } = {},
): FrontRoute {
  const req = { method: o.method ?? "GET", url, headers: { host: "status.test", ...headers } };
  const ctx = { db: seeded.db, publicBaseUrl: o.publicBaseUrl } satisfies RouteContext;
  const r = frontRoute(req, ctx, o.now ?? NOW);
  // The front's router keeps what it parsed per target: its first and its kept answer are frontRoute's.
  const router = routers.get(o.publicBaseUrl) ?? routers.set(o.publicBaseUrl, createFrontRouter(ctx)).get(o.publicBaseUrl)!;
  expect(router(req, o.now ?? NOW), url).toEqual(r);
  expect(router(req, o.now ?? NOW), url).toEqual(r);
  return r;
}
const routers = new Map<string | undefined, ReturnType<typeof createFrontRouter>>();
function cached(url: string, headers: IncomingHttpHeaders = {}, o: Parameters<typeof route>[2] = {}) {
  const r = route(url, headers, o);
  if (r.kind !== "cached") throw new Error(`${url} is not cached (${r.kind})`);
  return r;
}

describe("front routes", () => {
  test("pages, badges, server JSON and built files are answered from memory; other methods and paths are not", () => {
    for (const url of [
      "/",
      "/?handshake=failed",
      serverPath(SEED.modern),
      badgePath(SEED.modern, "handshake"),
      shieldsEndpointPath(SEED.modern),
      serverJsonPath(SEED.modern),
      "/_next/static/chunks/x.js",
    ]) {
      expect(route(url).kind, url).toBe("cached");
      expect(route(url, {}, { method: "HEAD" }).kind, url).toBe("cached");
      expect(route(url, {}, { method: "POST" }).kind, url).toBe("pass");
    }
    // /mcp is a route of its own (never a page), as are the other dynamic pages and the API.
    for (const url of ["/mcp", "/faq", "/census", "/api/servers", "/servers/", "/favicon.svg", "/_next/static/../x"])
      expect(route(url).kind, url).toBe("pass");
    expect(route("/mcp", { accept: "text/event-stream" }).kind).toBe("pass");
    // /mcp bounds its own load per address (429 and the JSON-RPC error), so the render limits never refuse it;
    // every other pass stays within them.
    for (const method of ["POST", "GET", "DELETE"]) expect(route("/mcp", {}, { method }), method).toEqual({ kind: "pass", ungated: true });
    for (const url of ["/faq", "/api/servers", "/mcp/x"]) expect(route(url, {}, { method: "POST" }), url).toEqual({ kind: "pass" });
    expect(route(serverPath(SEED.modern), { "next-action": "abc" }).kind).toBe("pass");
    expect(route("/api/health").kind).toBe("health");
    // A day's open-data file is the front's to answer from its folder (GET and HEAD); the other downloads render.
    for (const method of ["GET", "HEAD"])
      expect(route("/data/servers-2026-11-30.jsonl.gz", {}, { method })).toEqual({ kind: "file", name: "servers-2026-11-30.jsonl.gz" });
    expect(route("/data/servers-2026-11-30.jsonl.gz", {}, { method: "POST" }).kind).toBe("pass");
    for (const url of ["/data/census.csv", "/data/census.json", "/data/", "/data/servers-x/y"]) expect(route(url).kind, url).toBe("pass");
    // /metrics is the front's to answer (its figures merged with the renderer's), whatever the method or query.
    for (const method of ["GET", "HEAD", "POST"]) expect(route("/metrics", {}, { method }), method).toEqual({ kind: "metrics" });
    expect(route("/metrics?x=1").kind).toBe("metrics");
    expect(route("/metrics/").kind).toBe("pass");
  });

  test("the card image is kept per server and card version, whatever ?run= says; sitemaps per origin and site version", () => {
    const card = cached(cardPath(SEED.modern));
    expect(cached(`${cardPath(SEED.modern)}?run=12`).key).toBe(card.key);
    expect(cached(`${cardPath(SEED.modern)}?run=12`).render.path).toBe(cardPath(SEED.modern));
    expect(cached(cardPath(SEED.modern), { host: "mirror.test" }).key).toBe(card.key);
    expect(cached(cardPath(SEED.legacy)).key).not.toBe(card.key);
    const sitemap = cached("/sitemap.xml");
    expect(sitemap.version).toBe(cached("/").version.split("|").slice(0, -1).join("|"));
    expect(cached("/sitemap.xml", { host: "mirror.test" }).key).not.toBe(sitemap.key);
    expect(cached("/sitemap.xml", { host: "mirror.test" }, { publicBaseUrl: "https://status.example" }).key).toBe(
      cached("/sitemap.xml", {}, { publicBaseUrl: "https://status.example" }).key,
    );
    expect(cached("/sitemaps/1.xml").key).not.toBe(sitemap.key);
    for (const url of ["/sitemaps/01.xml", "/sitemaps/x.xml", "/robots.txt", "/card/"]) expect(route(url).kind, url).toBe("pass");
    const host = getServerDetail(seeded.db, SEED.gated)!.host!;
    const before = cached(cardPath(SEED.gated)).version;
    makeHostDue(seeded.db, host, "front routes card test");
    expect(cached(cardPath(SEED.gated)).version).not.toBe(before);
  });

  test("only the canonical path of a name is cached, so one answer has one entry", () => {
    const canonical = serverPath(SEED.hostile);
    expect(route(canonical).kind).toBe("cached");
    expect(route(canonical.replace("evil/", "evil%2F")).kind).toBe("pass");
    expect(route(`${serverPath(SEED.modern)}/`).kind).toBe("pass");
  });

  test("the Chinese index and server pages (/zh, /zh/servers/…) are held under keys of their own and render at their own paths", () => {
    const zhIndex = cached("/zh?handshake=failed&utm=x");
    expect(zhIndex.render.path).toBe("/zh?handshake=failed");
    expect(zhIndex.key).not.toBe(cached("/?handshake=failed").key);
    expect(zhIndex.version).toBe(cached("/?handshake=failed").version);
    const zhPage = cached(`/zh${serverPath(SEED.modern)}?utm=x`);
    expect(zhPage.render.path).toBe(`/zh${serverPath(SEED.modern)}`);
    expect(zhPage.key).not.toBe(cached(serverPath(SEED.modern)).key);
    expect(zhPage.version).toBe(cached(serverPath(SEED.modern)).version);
    // Other spellings and the other Chinese pages go to the renderer as they came.
    for (const url of [
      "/zh/",
      "/zh/servers/",
      `/zh${serverPath(SEED.modern)}/`,
      "/zh/faq",
      "/zh/census",
      "/en",
      `/en${serverPath(SEED.modern)}`,
    ])
      expect(route(url).kind, url).toBe("pass");
  });

  test("query parameters a route does not read are not part of its key, nor of the request that renders it", () => {
    const page = cached(serverPath(SEED.modern));
    for (const junk of ["?utm_source=x", "?a=1&b=2", "?reprobe=accepted", "?retry=2026-01-01T00:00:00Z"]) {
      const r = cached(`${serverPath(SEED.modern)}${junk}`);
      expect(r.key, junk).toBe(page.key);
      expect(r.render.path, junk).toBe(serverPath(SEED.modern));
    }
    // The form's feedback is shown, so it is part of the page; one spelling of it.
    const refused = cached(`${serverPath(SEED.modern)}?retry=2026-12-01T10:00:00.000Z&reprobe=server_recent&x=1`);
    expect(refused.key).not.toBe(page.key);
    expect(refused.render.path).toBe(`${serverPath(SEED.modern)}?reprobe=server_recent&retry=2026-12-01T10%3A00%3A00.000Z`);
    expect(cached(`${serverPath(SEED.modern)}?reprobe=server_recent&retry=2026-12-01T10:00:00Z`).key).toBe(refused.key);

    // The index: the list query in its one canonical form, derived from parseIndexQuery and indexHref.
    const index = cached("/?handshake=failed");
    expect(cached("/?page=1&handshake=failed&utm=x").key).toBe(index.key);
    expect(cached("/?handshake=failed&handshake=verified").key).toBe(index.key);
    expect(cached("/?handshake=nonsense").key).toBe(cached("/").key);
    expect(index.key).not.toBe(cached("/").key);
    for (const url of ["/?q=%20abc%20&page=2&tools_list=failed&includeLeft=true&zzz=1", "/?left=1", "/?pageSize=10&page=0"]) {
      const sp = new URL(url, "http://x").searchParams;
      const r = cached(url);
      expect(r.render.path, url).toBe(indexHref(parseIndexQuery(searchParamsOf(sp))));
    }

    // Badges read ?check and ?metric (metric wins) and nothing else.
    expect(cached(badgePath(SEED.modern, "handshake")).key).not.toBe(cached(badgePath(SEED.modern)).key);
    expect(cached(`${badgePath(SEED.modern)}?x=1`).key).toBe(cached(badgePath(SEED.modern)).key);
    expect(cached(`${badgePath(SEED.modern)}?check=handshake&metric=latency`).key).toBe(
      cached(`${badgePath(SEED.modern)}?metric=latency`).key,
    );
    expect(cached(`${badgePath(SEED.modern)}?metric=latency&window=7d`).key).toBe(cached(`${badgePath(SEED.modern)}?metric=latency`).key);
    expect(cached(`${badgePath(SEED.modern)}?metric=uptime&window=7d`).key).not.toBe(cached(`${badgePath(SEED.modern)}?metric=uptime`).key);
    expect(cached(`${badgePath(SEED.modern)}?metric=uptime`).render.path).toMatch(/\?metric=uptime&window=\w+$/);
    expect(cached(serverJsonPath(SEED.modern)).key).toBe(cached(`${serverJsonPath(SEED.modern)}?page=3`).key);
  });

  test("Host is part of a page's key only while PUBLIC_BASE_URL is unset, and never of a badge's or JSON's", () => {
    const base = "https://status.example";
    const page = cached(serverPath(SEED.modern), {}, { publicBaseUrl: base });
    for (const host of ["mirror.test", "evil.example", "127.0.0.1:1"]) {
      expect(cached(serverPath(SEED.modern), { host, "x-forwarded-host": host }, { publicBaseUrl: base }).key).toBe(page.key);
      expect(cached("/", { host }, { publicBaseUrl: base }).key).toBe(cached("/", {}, { publicBaseUrl: base }).key);
      expect(cached(badgePath(SEED.modern), { host }).key).toBe(cached(badgePath(SEED.modern)).key);
      expect(cached(serverJsonPath(SEED.modern), { host }).key).toBe(cached(serverJsonPath(SEED.modern)).key);
    }
    // Without it the copyable links name the request's own origin, so the origin is part of the key.
    expect(cached(serverPath(SEED.modern), { host: "mirror.test" }).key).not.toBe(cached(serverPath(SEED.modern)).key);
    expect(cached(serverPath(SEED.modern), { "x-forwarded-proto": "http" }).render.headers["x-forwarded-proto"]).toBe("http");
    // The User-Agent is not: every client gets the same HTML (next.config.mjs htmlLimitedBots).
    expect(cached(serverPath(SEED.modern), { "user-agent": "Googlebot/2.1" }).key).toBe(cached(serverPath(SEED.modern)).key);
    expect(cached(serverPath(SEED.modern), { "user-agent": "Googlebot/2.1", cookie: "a=b", authorization: "x" }).render.headers).toEqual(
      cached(serverPath(SEED.modern)).render.headers,
    );
  });

  test("client navigation (RSC) has an entry per set of router headers, rendered with those headers and its _rsc", () => {
    const html = cached(serverPath(SEED.modern));
    const nav = { rsc: "1", "next-router-state-tree": "%5B%22%22%5D", "next-url": "/" };
    const a = cached(`${serverPath(SEED.modern)}?_rsc=abc`, nav);
    expect(a.key).not.toBe(html.key);
    expect(a.render.path).toBe(`${serverPath(SEED.modern)}?_rsc=abc`);
    expect(a.render.headers).toMatchObject(nav);
    expect(cached(`${serverPath(SEED.modern)}?_rsc=abc`, { ...nav, "next-router-prefetch": "1" }).key).not.toBe(a.key);
    expect(cached(`${serverPath(SEED.modern)}?_rsc=abc`, { ...nav, "next-url": "/faq" }).key).not.toBe(a.key);
    expect(cached(`${serverPath(SEED.modern)}?_rsc=abc&utm=1`, nav).key).toBe(a.key);
    expect(cached("/?handshake=failed&_rsc=abc", nav).render.path).toBe("/?handshake=failed&_rsc=abc");
    // Route handlers have no RSC form: a request saying it wants one goes to the renderer as it came.
    expect(route(badgePath(SEED.modern), { rsc: "1" }).kind).toBe("pass");
  });

  test("a write about one server changes its versions and no other server's; the hour and the day move them too", async () => {
    const versions = (n: string, now = NOW) => [serverPath(n), badgePath(n), serverJsonPath(n)].map((p) => cached(p, {}, { now }).version);
    const before = [SEED.modern, SEED.legacy].map((n) => versions(n));
    const index = cached("/").version;
    const host = getServerDetail(seeded.db, SEED.modern)!.host!;
    expect(makeHostDue(seeded.db, host, "front routes test")).toBeGreaterThan(0);
    const after = [SEED.modern, SEED.legacy].map((n) => versions(n));
    expect(after[0]!.every((v, i) => v !== before[0]![i])).toBe(true);
    expect(after[1]).toEqual(before[1]);
    // Aggregate pages change once per round, not per server write.
    expect(cached("/").version).toBe(index);

    // A write through another connection (another process, in production) shows too, within a millisecond.
    const other = openDb(seeded.file);
    try {
      expect(makeHostDue(other, getServerDetail(other, SEED.legacy)!.host!, "another writer")).toBeGreaterThan(0);
    } finally {
      closeDb(other);
    }
    await new Promise((r) => setTimeout(r, 5));
    expect(versions(SEED.legacy)).not.toEqual(after[1]);
    after[1] = versions(SEED.legacy);

    const nextHour = new Date("2026-11-30T13:05:00Z");
    expect(versions(SEED.legacy, nextHour)[0]).not.toBe(after[1]![0]);
    expect(versions(SEED.legacy, nextHour)[1]).toBe(after[1]![1]);
    const nextDay = new Date("2026-12-01T00:05:00Z");
    expect(versions(SEED.legacy, nextDay)[1]).not.toBe(after[1]![1]);
    expect(cached("/", {}, { now: nextDay }).version).not.toBe(index);
  });
});
