import { describe, expect, test } from "vitest";
import {
  answerEtag,
  compressible,
  endToEnd,
  notModified,
  notModifiedHeaders,
  prefersGzip,
  rawHeaders,
  storableHeaders,
} from "@/lib/front/headers";

// The replay rules of the front (architecture.md §7), one by one.

describe("replay rules", () => {
  test("hop-by-hop fields and the fields a Connection header names do not cross a hop", () => {
    const fields = Object.fromEntries(
      endToEnd({
        connection: "keep-alive, X-Secret-Hop, x-other",
        "keep-alive": "timeout=5",
        "transfer-encoding": "chunked",
        te: "trailers",
        upgrade: "h2c",
        trailer: "x",
        "proxy-connection": "keep-alive",
        "x-secret-hop": "1",
        "x-other": "2",
        "content-type": "text/html",
        "set-cookie": ["a=1", "b=2"],
      }),
    );
    expect(fields).toEqual({ "content-type": "text/html", "set-cookie": ["a=1", "b=2"] });
    // A Connection header repeated, or with odd spacing, still names its fields.
    expect(endToEnd({ connection: ["close", " X-A "], "x-a": "1", "x-b": "2" })).toEqual([["x-b", "2"]]);
  });

  test("a stored answer keeps its end-to-end fields but not per-response ones, and always varies on Accept-Encoding", () => {
    const stored = storableHeaders({
      "content-type": "text/html",
      "cache-control": "public, max-age=0, must-revalidate",
      "content-length": "10",
      date: "x",
      etag: '"next"',
      "x-nextjs-cache": "HIT",
      "x-powered-by": "Next.js",
      "x-page-cache": "fill",
      connection: "x-drop",
      "x-drop": "1",
      vary: "rsc, next-router-state-tree",
    })!;
    expect(Object.fromEntries(stored)).toEqual({
      "content-type": "text/html",
      "cache-control": "public, max-age=0, must-revalidate",
      vary: "rsc, next-router-state-tree, Accept-Encoding",
    });
    expect(Object.fromEntries(storableHeaders({ vary: "Accept-Encoding" })!)).toEqual({ vary: "Accept-Encoding" });
    // An answer that sets a cookie, or comes compressed already, is never stored.
    expect(storableHeaders({ "set-cookie": "a=1" })).toBeNull();
    expect(storableHeaders({ "content-encoding": "br" })).toBeNull();
  });

  test("Accept-Encoding q-values are honoured", () => {
    const cases: [string | undefined, boolean][] = [
      ["gzip", true],
      ["gzip, deflate, br", true],
      ["gzip;q=0.8", true],
      ["GZIP; Q=0.5", true],
      ["x-gzip", true],
      ["br;q=1, gzip;q=0.1", true],
      ["*", true],
      ["*;q=0.3", true],
      ["gzip;q=0", false],
      ["gzip;q=0.000", false],
      ["*;q=0", false],
      ["gzip;q=0, *", false],
      ["br, deflate", false],
      ["identity", false],
      ["gzip;q=0.5, identity;q=0.9", false],
      ["gzip;q=0.9, identity;q=0.5", true],
      ["", false],
      [undefined, false],
    ];
    for (const [header, gzip] of cases) expect(prefersGzip(header), String(header)).toBe(gzip);
  });

  test("one weak validator per answer from its version and bytes; If-None-Match matches it weakly, or by *", () => {
    const body = Buffer.from("<p>hello</p>");
    const etag = answerEtag("v1", body);
    expect(etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(answerEtag("v1", Buffer.from("<p>hello</p>"))).toBe(etag);
    expect(answerEtag("v2", body)).not.toBe(etag);
    expect(answerEtag("v1", Buffer.from("<p>other</p>"))).not.toBe(etag);
    const opaque = etag.slice(2);
    for (const inm of [etag, opaque, `"x", ${etag}`, `"x",${opaque}`, "*"]) expect(notModified(inm, etag), inm).toBe(true);
    for (const inm of [undefined, "", '"x"', `W/"${opaque.slice(1, -2)}"`]) expect(notModified(inm, etag), String(inm)).toBe(false);
  });

  test("a 304 carries the caching fields of the answer and nothing about its body", () => {
    const kept = notModifiedHeaders([
      ["content-type", "text/html"],
      ["cache-control", "no-cache"],
      ["vary", "Accept-Encoding"],
      ["content-security-policy", "default-src 'self'"],
      ["x-frame-options", "DENY"],
    ]);
    expect(kept.map(([k]) => k)).toEqual(["cache-control", "vary", "content-security-policy"]);
  });

  test("text answers are compressed, images other than SVG are not; repeated fields are written one by one", () => {
    for (const t of [
      "text/html; charset=utf-8",
      "application/json",
      "image/svg+xml; charset=utf-8",
      "text/x-component",
      "application/javascript",
      "text/css",
    ])
      expect(compressible(t), t).toBe(true);
    for (const t of ["image/png", "font/woff2", undefined]) expect(compressible(t), String(t)).toBe(false);
    expect(
      rawHeaders([
        ["set-cookie", ["a=1", "b=2"]],
        ["x", "y"],
      ]),
    ).toEqual(["set-cookie", "a=1", "set-cookie", "b=2", "x", "y"]);
  });
});
