import { describe, expect, test } from "vitest";
import { notFoundOf } from "@/lib/site/not-found";
import { notFoundTarget, pageRouteOf } from "@/lib/site/page-routes";

// proxy.ts routes every request on pageRouteOf: a page, a server or run to look up, a 404 to word, or not a page at all.

describe("pageRouteOf", () => {
  test("root files and capability pages are not pages of the locale tree", () => {
    for (const path of [
      "/api/servers",
      "/badge/x/y",
      "/mcp",
      "/changes/feed.xml",
      "/data/census.csv",
      "/subscriptions/tok",
      "/owners/tok",
      "/claims/tok",
    ])
      expect(pageRouteOf(path), path).toEqual({ kind: "other" });
  });

  test("pages, servers and runs in both languages", () => {
    expect(pageRouteOf("/")).toEqual({ kind: "page", lang: "en", inner: "/" });
    expect(pageRouteOf("/zh")).toEqual({ kind: "page", lang: "zh", inner: "/" });
    expect(pageRouteOf("/zh/census")).toEqual({ kind: "page", lang: "zh", inner: "/census" });
    expect(pageRouteOf("/faq/handshake")).toEqual({ kind: "page", lang: "en", inner: "/faq/handshake" });
    expect(pageRouteOf("/zh/servers/io.github.a/b")).toMatchObject({ kind: "server", lang: "zh", name: "io.github.a/b" });
    expect(pageRouteOf("/runs/12")).toMatchObject({ kind: "run", lang: "en", id: 12 });
    expect(pageRouteOf("/zh/subscriptions/tok_-9")).toEqual({ kind: "page", lang: "zh", inner: "/subscriptions/tok_-9" });
    expect(pageRouteOf("/subscriptions/tok")).toEqual({ kind: "other" });
    // A Chinese confirmation link is a route handler of its own, as the root one is.
    expect(pageRouteOf("/zh/subscriptions/confirm/tok_-9")).toEqual({ kind: "other" });
    expect(pageRouteOf("/subscriptions/confirm/tok")).toEqual({ kind: "other" });
  });

  test("a missing page is worded for its section and language, on the path proxy.ts sends it to", () => {
    const cases: [string, "en" | "zh", string][] = [
      ["/faq/nope", "en", "faq"],
      ["/zh/faq/nope", "zh", "faq"],
      ["/runs/abc", "en", "run"],
      ["/servers/", "en", "server"],
      ["/nope", "en", "page"],
      ["/zh/subscriptions/tok/unsubscribe", "zh", "page"],
      ["/zh/subscriptions/confirm", "zh", "page"],
      ["/en/subscriptions/tok", "en", "page"],
      ["/en/subscriptions/confirm/tok", "en", "page"],
      ["/zh/subscriptions/confirm/tok/x", "zh", "page"],
    ];
    for (const [path, lang, section] of cases) {
      const route = pageRouteOf(path);
      expect(route, path).toEqual({ kind: "missing", lang, section });
      if (route.kind !== "missing") continue;
      expect(notFoundOf(notFoundTarget(route.lang, route.section)), path).toEqual({ lang, section });
      expect(pageRouteOf(notFoundTarget(route.lang, route.section)).kind, path).toBe("missing");
    }
  });
});
