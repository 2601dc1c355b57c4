import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { createFrontCache, FRONT_CACHE_HEADER, type FrontCache } from "@/lib/site/front-cache";

// The front cache in front of a real HTTP handler that stands where Next.js stands in `npm start`: it renders
// a body naming the data version and a render number, optionally slowly, and records what it was asked.

interface Backend {
  version: string;
  /** Versions of single answers, where they differ from `version`. */
  versions: Record<string, string>;
  renders: number;
  delayMs: number;
  status: number;
  setCookie: boolean;
  seen: http.IncomingHttpHeaders[];
}

interface Running {
  origin: string;
  backend: Backend;
  front: FrontCache;
  clock: { now: number };
  close(): Promise<void>;
}

const running: Running[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function start(o: { maxBytes?: number; staleMs?: number; bodyBytes?: number } = {}): Promise<Running> {
  const backend: Backend = { version: "v1", versions: {}, renders: 0, delayMs: 0, status: 200, setCookie: false, seen: [] };
  const clock = { now: 1_000_000 };
  const front = createFrontCache({
    maxBytes: o.maxBytes ?? 1024 * 1024,
    staleMs: o.staleMs ?? 3_000,
    now: () => clock.now,
    route: (req) => (req.url?.startsWith("/cached/") ? { key: req.url, version: backend.versions[req.url] ?? backend.version } : null),
  });
  const pass = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    backend.seen.push({ ...req.headers });
    const version = backend.versions[req.url!] ?? backend.version;
    const n = ++backend.renders;
    if (backend.delayMs) await new Promise((r) => setTimeout(r, backend.delayMs));
    res.statusCode = backend.status;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.setHeader("cache-control", "public, max-age=0, must-revalidate");
    res.setHeader("x-nextjs-cache", "MISS");
    if (backend.setCookie) res.setHeader("set-cookie", "a=b");
    // Written in two pieces, as a streamed render is.
    res.write(`<p>${req.url} at ${version}, render ${n}</p>`);
    res.end("x".repeat(o.bodyBytes ?? 2_000));
  };
  const server = http.createServer((req, res) => void front.handle(req, res, pass));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const r: Running = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    backend,
    front,
    clock,
    close: () => new Promise((done) => server.close(() => done())),
  };
  running.push(r);
  return r;
}

async function get(r: Running, path: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(`${r.origin}${path}`, { method, headers });
  const raw = Buffer.from(await res.arrayBuffer());
  return { status: res.status, how: res.headers.get(FRONT_CACHE_HEADER), headers: res.headers, raw, text: raw.toString("utf8") };
}

/** A raw request, so the body is seen as sent (fetch would decompress it). */
function rawGet(r: Running, path: string, headers: Record<string, string>, method = "GET"): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .request(`${r.origin}${path}`, { headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject)
      .end();
  });
}

describe("front cache", () => {
  test("renders once per data version and serves the same bytes until the version changes", async () => {
    const r = await start();
    const first = await get(r, "/cached/a");
    expect(first.how).toBe("fill");
    expect(first.text).toContain("at v1, render 1");
    const again = await get(r, "/cached/a");
    expect(again.how).toBe("hit");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-length")).toBe(String(first.raw.length));
    // Next's own per-response headers are not replayed; the answer's are.
    expect(again.headers.get("x-nextjs-cache")).toBeNull();
    expect(again.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(again.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(r.backend.renders).toBe(1);

    r.backend.version = "v2";
    const after = await get(r, "/cached/a");
    expect(after.how).toBe("fill");
    expect(after.text).toContain("at v2, render 2");
    expect((await get(r, "/cached/a")).text).toBe(after.text);
    expect(r.backend.renders).toBe(2);
  });

  test("a write changes only the entries whose version changed", async () => {
    const r = await start();
    r.backend.versions = { "/cached/a": "a1", "/cached/b": "b1" };
    const a1 = await get(r, "/cached/a");
    const b1 = await get(r, "/cached/b");
    r.backend.versions["/cached/a"] = "a2";
    const a2 = await get(r, "/cached/a");
    expect(a2.text).toContain("at a2, render 3");
    const b2 = await get(r, "/cached/b");
    expect(b2.how).toBe("hit");
    expect(b2.text).toBe(b1.text);
    expect(a1.text).toContain("at a1, render 1");
    expect(r.backend.renders).toBe(3);
  });

  test("concurrent first requests for one answer cause one render", async () => {
    const r = await start();
    r.backend.delayMs = 150;
    const all = await Promise.all(Array.from({ length: 8 }, () => get(r, "/cached/cold")));
    expect(r.backend.renders).toBe(1);
    expect(new Set(all.map((a) => a.text)).size).toBe(1);
    expect(all.filter((a) => a.how === "fill")).toHaveLength(1);
    expect(all.filter((a) => a.how === "hit")).toHaveLength(7);
  });

  test("while a new version renders, others get the previous answer, but only within staleMs of its last confirmation", async () => {
    const r = await start({ staleMs: 3_000 });
    await get(r, "/cached/p");
    r.backend.version = "v2";
    r.backend.delayMs = 200;
    r.clock.now += 2_000;
    const [leader, ...others] = await Promise.all([get(r, "/cached/p"), ...Array.from({ length: 4 }, () => new Promise((res) => setTimeout(res, 30)).then(() => get(r, "/cached/p")))]);
    expect(leader.how).toBe("fill");
    expect(leader.text).toContain("at v2");
    for (const o of others) {
      expect(o.how).toBe("stale");
      expect(o.text).toContain("at v1");
    }
    expect(r.backend.renders).toBe(2);
    expect((await get(r, "/cached/p")).text).toContain("at v2");

    // Last confirmed 3.5 s ago: nobody gets it any more; they wait for the render in flight.
    r.backend.version = "v3";
    r.clock.now += 3_500;
    const [leader3, waiter] = await Promise.all([get(r, "/cached/p"), new Promise((res) => setTimeout(res, 30)).then(() => get(r, "/cached/p"))]);
    expect(leader3.text).toContain("at v3");
    expect(waiter.how).toBe("hit");
    expect(waiter.text).toBe(leader3.text);
    expect(r.backend.renders).toBe(3);
  });

  test("keeps only whole 200 answers without cookies; everything else goes to the backend each time", async () => {
    const r = await start();
    r.backend.status = 404;
    await get(r, "/cached/missing");
    expect((await get(r, "/cached/missing")).how).toBe("fill");
    expect(r.backend.renders).toBe(2);
    r.backend.status = 200;
    r.backend.setCookie = true;
    await get(r, "/cached/cookie");
    expect((await get(r, "/cached/cookie")).how).toBe("fill");
    expect(r.backend.renders).toBe(4);
    expect((await get(r, "/elsewhere")).how).toBeNull();
    expect((await get(r, "/elsewhere")).how).toBeNull();
    expect(r.backend.renders).toBe(6);
    expect(r.front.size).toBe(0);
  });

  test("asks the backend for a plain, unconditional body and compresses it itself", async () => {
    const r = await start();
    const first = await rawGet(r, "/cached/z", { "accept-encoding": "gzip, br", "if-none-match": '"x"' });
    expect(r.backend.seen[0]!["accept-encoding"]).toBeUndefined();
    expect(r.backend.seen[0]!["if-none-match"]).toBeUndefined();
    expect(first.headers["content-encoding"]).toBeUndefined();
    // Compressed once, off the request path: a later request gets the gzip body.
    await expect
      .poll(async () => (await rawGet(r, "/cached/z", { "accept-encoding": "gzip" })).headers["content-encoding"], { timeout: 2_000 })
      .toBe("gzip");
    const zipped = await rawGet(r, "/cached/z", { "accept-encoding": "gzip" });
    expect(gunzipSync(zipped.body).toString()).toBe(first.body.toString());
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
    expect((await rawGet(r, "/cached/z", { "accept-encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();
    expect(r.backend.renders).toBe(1);
  });

  test("answers a matching If-None-Match with 304 and HEAD without a body", async () => {
    const r = await start();
    // A HEAD before any GET is not rendered for the cache.
    expect((await get(r, "/cached/e", {}, "HEAD")).how).toBeNull();
    await get(r, "/cached/e");
    const hit = await get(r, "/cached/e");
    const etag = hit.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const conditional = await get(r, "/cached/e", { "if-none-match": `W/${etag}` });
    expect(conditional.status).toBe(304);
    expect(conditional.raw.length).toBe(0);
    const plain = await rawGet(r, "/cached/e", {});
    const head = await rawGet(r, "/cached/e", {}, "HEAD");
    expect(head.headers[FRONT_CACHE_HEADER]).toBe("hit");
    expect(head.headers["content-length"]).toBe(String(plain.body.length));
    expect(head.body.length).toBe(0);
    r.backend.version = "v2";
    expect((await get(r, "/cached/e", { "if-none-match": etag })).status).toBe(200);
  });

  test("stays within its byte budget, dropping the least recently used answers", async () => {
    const r = await start({ maxBytes: 100_000, bodyBytes: 20_000 });
    for (const p of ["a", "b", "c", "d"]) await get(r, `/cached/${p}`);
    await get(r, "/cached/a"); // a is now the most recently used
    for (const p of ["e", "f"]) await get(r, `/cached/${p}`);
    expect(r.front.bytes).toBeLessThanOrEqual(100_000);
    expect((await get(r, "/cached/a")).how).toBe("hit");
    expect((await get(r, "/cached/b")).how).toBe("fill");
  });

  test("counts its answers by outcome and the renders in flight, for /metrics", async () => {
    const r = await start();
    expect(r.front.stats()).toEqual({ answers: { hit: 0, stale: 0, fill: 0, pass: 0 }, rendersInFlight: 0 });
    await get(r, "/cached/a");
    await get(r, "/cached/a");
    await get(r, "/other");
    r.backend.delayMs = 300;
    r.backend.version = "v2";
    const slow = get(r, "/cached/a");
    await new Promise((done) => setTimeout(done, 100));
    // The first request after the write renders; one beside it gets the previous answer.
    expect(r.front.stats().rendersInFlight).toBe(1);
    expect((await get(r, "/cached/a")).how).toBe("stale");
    await slow;
    expect(r.front.stats()).toEqual({ answers: { hit: 1, stale: 1, fill: 2, pass: 1 }, rendersInFlight: 0 });
  });
});
