import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, test } from "vitest";
import { parseConfig, type FrontLimits } from "@/lib/config";
import { createFront, type FrontServer } from "@/lib/front/front";
import type { FrontRoute } from "@/lib/front/routes";
import { createUpstream, type Upstream } from "@/lib/front/upstream";

// The front's request path (cache, render limits, the hop, the replay rules) in front of a real HTTP server
// standing where the renderer stands in `npm start`; the server can be made slow, silent, failing or away.

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void | Promise<void>;

interface Renderer {
  port: number;
  /** Requests it received, in order: method, url and headers. */
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  renders: number;
  inFlight: number;
  maxInFlight: number;
  handler: Handler;
}

interface Site {
  origin: string;
  renderer: Renderer;
  front: FrontServer;
  versions: Record<string, string>;
  clock: { now: number };
  /** Whether the front sees its renderer as up. */
  link: { up: boolean };
}

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise<void>((r) => ("closeAllConnections" in server && server.closeAllConnections(), server.close(() => r()))));
  return (server.address() as AddressInfo).port;
}

/** A page naming its url, the version it was asked at and its render number, in two writes. */
const page: Handler = (req, res, n) => {
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "public, max-age=0, must-revalidate",
    etag: '"next-etag"',
    "x-nextjs-cache": "MISS",
  });
  res.write(`<p>${req.url} render ${n}</p>`);
  res.end("x".repeat(4_000));
};

async function startRenderer(handler: Handler = page): Promise<Renderer> {
  const r: Renderer = { port: 0, seen: [], renders: 0, inFlight: 0, maxInFlight: 0, handler };
  const server = http.createServer(async (req, res) => {
    r.seen.push({ method: req.method!, url: req.url!, headers: { ...req.headers } });
    const n = ++r.renders;
    r.inFlight++;
    r.maxInFlight = Math.max(r.maxInFlight, r.inFlight);
    res.once("close", () => r.inFlight--);
    await r.handler(req, res, n);
  });
  r.port = await listen(server);
  return r;
}

const LIMITS: FrontLimits = { ...parseConfig({}).front, staleMs: 3_000, headersTimeoutMs: 1_500, maxRenders: 4, renderQueue: 8 };

/** `/cached/<x>` is kept per `versions[url]` (default "v1"); everything else passes. */
async function start(o: { limits?: Partial<FrontLimits>; handler?: Handler; renderer?: Renderer; idleMs?: number } = {}): Promise<Site> {
  const renderer = o.renderer ?? (await startRenderer(o.handler));
  const versions: Record<string, string> = {};
  const clock = { now: 1_000_000 };
  const link = { up: true };
  const upstream: Upstream = createUpstream({ host: "127.0.0.1", port: renderer.port, idleMs: o.idleMs });
  closers.push(() => upstream.close());
  const route = (req: http.IncomingMessage): FrontRoute => {
    const path = new URL(req.url!, "http://x").pathname;
    if (path === "/api/health") return { kind: "health" };
    if (path.startsWith("/ungated/")) return { kind: "pass", ungated: true };
    if ((req.method !== "GET" && req.method !== "HEAD") || !path.startsWith("/cached/")) return { kind: "pass" };
    return {
      kind: "cached",
      key: path,
      version: versions[path] ?? "v1",
      render: { path: `${path}?v=${versions[path] ?? "v1"}`, headers: { host: "front.test" } },
    };
  };
  const front = createFront({
    limits: { ...LIMITS, ...o.limits },
    route,
    renderer: {
      upstream: () => (link.up ? upstream : null),
      retryAfterS: () => 3,
      status: () => ({ state: link.up ? "up" : "restarting", pid: 1, since: "", restarts: 0, lastExit: null, nextStartAt: null }),
    },
    healthFacts: () => ({ servers: 0 }),
    log: () => undefined,
    now: () => clock.now,
  });
  const port = await listen(front.server);
  return { origin: `http://127.0.0.1:${port}`, renderer, front, versions, clock, link };
}

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body as text, gunzipped when it came compressed. */
  text: string;
  how: string | undefined;
  ms: number;
}

/** One request on a connection of its own, the body as sent (not decompressed). */
function get(site: Site, path: string, headers: Record<string, string> = {}, method = "GET", body?: string): Promise<Got> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(`${site.origin}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const text = (res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: raw,
          text,
          how: res.headers["x-page-cache"] as string | undefined,
          ms: performance.now() - t0,
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Writes raw bytes on a fresh connection and returns what came back before the server closed it. */
function raw(site: Site, bytes: string): Promise<string> {
  const { port } = new URL(site.origin);
  return new Promise((resolve) => {
    const c = net.connect(Number(port), "127.0.0.1", () => c.write(bytes));
    c.setTimeout(5_000, () => c.destroy());
    let out = "";
    c.on("data", (d) => (out += d.toString()));
    c.on("close", () => resolve(out));
    c.on("error", () => resolve(out));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("front: answers from memory", () => {
  test("renders once per data version; every reader, the first included, gets the same bytes, coding and ETag", async () => {
    const site = await start();
    const first = await get(site, "/cached/a", { "accept-encoding": "gzip" });
    expect(first.how).toBe("fill");
    // Compressed when it was stored: the first reader after a (re)fill already gets gzip.
    expect(first.headers["content-encoding"]).toBe("gzip");
    expect(first.text).toContain("/cached/a?v=v1 render 1");
    const again = await get(site, "/cached/a", { "accept-encoding": "gzip" });
    expect(again.how).toBe("hit");
    expect(again.body.equals(first.body)).toBe(true);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(first.headers.etag).toMatch(/^W\/"/);
    const plain = await get(site, "/cached/a");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toBe(first.text);
    expect(plain.headers.etag).toBe(first.headers.etag);
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);
    // The renderer's own validator and cache state are not replayed; its other fields are.
    expect(first.headers["x-nextjs-cache"]).toBeUndefined();
    expect(first.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(first.headers.vary).toMatch(/Accept-Encoding/);
    expect(site.renderer.renders).toBe(1);
    // The render was asked for plainly: no coding, no validator, no client headers.
    expect(site.renderer.seen[0]!.headers["accept-encoding"]).toBeUndefined();
    expect(site.renderer.seen[0]!.url).toBe("/cached/a?v=v1");

    site.versions["/cached/a"] = "v2";
    const after = await get(site, "/cached/a");
    expect(after.how).toBe("fill");
    expect(after.text).toContain("v=v2 render 2");
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(site.front.stats.snapshot().answers).toMatchObject({ fill: 2, hit: 2 });
  });

  test("the first request after a write with a validator gets 304 from the new answer's first byte", async () => {
    const site = await start();
    const first = await get(site, "/cached/e");
    const etag = first.headers.etag as string;
    for (const inm of [etag, etag.slice(2), `"other", ${etag}`])
      expect((await get(site, "/cached/e", { "if-none-match": inm })).status).toBe(304);
    const notModified = await get(site, "/cached/e", { "if-none-match": etag });
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    // A new version: its first answer carries its own validator, and a revalidation of it matches at once.
    site.versions["/cached/e"] = "v2";
    const changed = await get(site, "/cached/e", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect((await get(site, "/cached/e", { "if-none-match": changed.headers.etag as string })).status).toBe(304);
    const head = await get(site, "/cached/e", {}, "HEAD");
    expect(head.headers["content-length"]).toBe(String(changed.body.length));
    expect(head.body.length).toBe(0);
    expect(site.renderer.renders).toBe(2);
  });

  test("a HEAD before any GET is rendered as a GET and kept", async () => {
    const site = await start();
    const head = await get(site, "/cached/h", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(site.renderer.seen[0]!.method).toBe("GET");
    expect((await get(site, "/cached/h")).how).toBe("hit");
  });

  test("concurrent first requests cause one render", async () => {
    const site = await start({ handler: async (req, res, n) => (await sleep(150), page(req, res, n)) });
    const all = await Promise.all(Array.from({ length: 8 }, () => get(site, "/cached/cold")));
    expect(site.renderer.renders).toBe(1);
    expect(new Set(all.map((a) => a.text)).size).toBe(1);
    expect(all.filter((a) => a.how === "fill")).toHaveLength(1);
    expect(all.filter((a) => a.how === "hit")).toHaveLength(7);
  });

  test("while a new version renders, others get the previous answer, but only within staleMs of its last confirmation", async () => {
    let delay = 0;
    const site = await start({ handler: async (req, res, n) => (await sleep(delay), page(req, res, n)) });
    await get(site, "/cached/p");
    site.versions["/cached/p"] = "v2";
    delay = 200;
    site.clock.now += 2_000;
    const [leader, ...others] = await Promise.all([
      get(site, "/cached/p"),
      ...Array.from({ length: 3 }, () => sleep(30).then(() => get(site, "/cached/p"))),
    ]);
    expect(leader.how).toBe("fill");
    expect(leader.text).toContain("v=v2");
    for (const o of others) {
      expect(o.how).toBe("stale");
      expect(o.text).toContain("v=v1");
    }
    // Last confirmed 3.5 s ago: nobody gets it any more; they wait for the render in flight.
    site.versions["/cached/p"] = "v3";
    site.clock.now += 3_500;
    const [leader3, waiter] = await Promise.all([get(site, "/cached/p"), sleep(30).then(() => get(site, "/cached/p"))]);
    expect(leader3.text).toContain("v=v3");
    expect(waiter.how).toBe("hit");
    expect(waiter.text).toBe(leader3.text);
    expect(site.renderer.renders).toBe(3);
  });

  test("only whole 200 answers without cookies are kept; others are handed on as they came, waiters included", async () => {
    let status = 404;
    let cookie = false;
    const site = await start({
      handler: async (_req, res, n) => {
        await sleep(100);
        res.writeHead(status, { "content-type": "text/plain", ...(cookie ? { "set-cookie": "a=1" } : {}) });
        res.end(`answer ${n}`);
      },
    });
    const [a, b] = await Promise.all([get(site, "/cached/missing"), sleep(20).then(() => get(site, "/cached/missing"))]);
    expect([a.status, b.status]).toEqual([404, 404]);
    expect([a.text, b.text]).toEqual(["answer 1", "answer 1"]);
    expect([a.how, b.how]).toEqual(["pass", "pass"]);
    expect((await get(site, "/cached/missing")).text).toBe("answer 2");
    status = 200;
    cookie = true;
    const [own, other] = await Promise.all([get(site, "/cached/cookie"), sleep(20).then(() => get(site, "/cached/cookie"))]);
    expect(own.headers["set-cookie"]).toEqual(["a=1"]);
    // A cookie is for the request that caused it, never for a waiter.
    expect(other.headers["set-cookie"]).toBeUndefined();
    expect((await get(site, "/cached/cookie")).how).toBe("pass");
    expect(site.front.cache.size).toBe(0);
  });

  test("stays within its byte budget, dropping the least recently used answers", async () => {
    const site = await start({
      limits: { cacheBytes: 100_000 },
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(Buffer.alloc(20_000));
      },
    });
    for (const p of ["a", "b", "c", "d"]) await get(site, `/cached/${p}`);
    await get(site, "/cached/a");
    for (const p of ["e", "f"]) await get(site, `/cached/${p}`);
    expect(site.front.cache.bytes).toBeLessThanOrEqual(100_000);
    expect((await get(site, "/cached/a")).how).toBe("hit");
    expect((await get(site, "/cached/b")).how).toBe("fill");
  });
});

describe("front: faithful replays", () => {
  test("fields named in Connection are dropped in both directions, stored answers included", async () => {
    const site = await start({
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "text/plain", connection: "keep-alive, x-hop", "x-hop": "secret", "x-end": "kept" });
        res.end("ok");
      },
    });
    for (const path of ["/passed", "/cached/c", "/cached/c"]) {
      const got = await get(site, path, { connection: "x-client-hop", "x-client-hop": "1", "x-client-end": "2" });
      expect(got.headers["x-hop"], path).toBeUndefined();
      expect(got.headers["x-end"], path).toBe("kept");
    }
    const passed = site.renderer.seen[0]!.headers;
    expect(passed["x-client-hop"]).toBeUndefined();
    expect(passed["x-client-end"]).toBe("2");
    expect(passed["x-forwarded-for"]).toBe("127.0.0.1");
  });

  test("a render that fails after its headers is never stored and never looks whole", async () => {
    let fail = true;
    const site = await start({
      handler: (req, res, n) => {
        if (!fail) return page(req, res, n);
        res.writeHead(200, { "content-type": "text/html", "content-length": "100000" });
        res.write("<p>partial");
        setTimeout(() => res.destroy(), 50);
      },
    });
    // Kept answers are read whole before a byte goes out: the visitor gets a clean 502 instead of a part.
    const cached = await get(site, "/cached/broken");
    expect(cached.status).toBe(502);
    expect(cached.text).not.toContain("partial");
    expect(site.front.cache.size).toBe(0);
    // Passed answers stream: the connection is cut, so the client sees an incomplete answer, not a short whole one.
    await expect(get(site, "/passed/broken")).rejects.toThrow();
    fail = false;
    expect((await get(site, "/cached/broken")).how).toBe("fill");
    // With an older answer held, a failed render serves that one instead.
    fail = true;
    site.versions["/cached/broken"] = "v2";
    site.clock.now += 10_000;
    const held = await get(site, "/cached/broken");
    expect(held.how).toBe("stale-if-error");
    expect(held.text).toContain("v=v1");
  });

  test("a passed answer is streamed as it comes, with every field and its status", async () => {
    const site = await start({
      handler: (req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/"]);
          res.writeHead(303, { location: "/servers/x?reprobe=queued", "content-type": "text/plain" });
          res.write(`got ${body}`);
          setTimeout(() => res.end("; done"), 300);
        });
      },
    });
    const t0 = performance.now();
    let firstByteMs = 0;
    const got = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = http.request(
        `${site.origin}/api/reprobe`,
        { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" } },
        (res) => {
          let text = "";
          res.on("data", (c: Buffer) => {
            if (!text) firstByteMs = performance.now() - t0;
            text += c.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        },
      );
      req.on("error", reject);
      req.end("server=x");
    });
    expect(got.status).toBe(303);
    expect(got.headers.location).toBe("/servers/x?reprobe=queued");
    expect(got.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(got.text).toBe("got server=x; done");
    expect(firstByteMs).toBeLessThan(performance.now() - t0 - 200);
  });
});

describe("front: limits", () => {
  test("a renderer that sends no headers is a 504 within the limit, for passes and renders alike", async () => {
    const site = await start({ limits: { headersTimeoutMs: 800 }, handler: () => undefined });
    for (const path of ["/passed/slow", "/cached/slow"]) {
      const got = await get(site, path);
      expect(got.status, path).toBe(504);
      expect(got.ms, path).toBeGreaterThanOrEqual(700);
      expect(got.ms, path).toBeLessThan(800 + 1_500);
    }
    expect(site.front.stats.snapshot().refusals.timeout).toBe(2);
  });

  test("a request waiting for another's render waits at most the limit, then gets the held answer or a 504", async () => {
    let hang = false;
    const site = await start({ limits: { headersTimeoutMs: 2_000 }, handler: (req, res, n) => (hang ? undefined : page(req, res, n)) });
    await get(site, "/cached/w");
    hang = true;
    site.versions["/cached/w"] = "v2";
    site.clock.now += 10_000;
    const leader = get(site, "/cached/w");
    await sleep(200);
    const waiter = await get(site, "/cached/w");
    // The waiter started later and had a limit of its own; the held answer is what it gets.
    expect(waiter.how).toBe("stale-if-error");
    expect(waiter.ms).toBeLessThan(2_000 + 1_500);
    expect((await leader).how).toBe("stale-if-error");
    const cold = await Promise.all([get(site, "/cached/never"), sleep(100).then(() => get(site, "/cached/never"))]);
    expect(cold.map((c) => c.status)).toEqual([504, 504]);
  });

  test("at most maxRenders run at once; a few more wait, the rest get 503 with Retry-After: 1", async () => {
    const site = await start({
      limits: { maxRenders: 2, renderQueue: 2 },
      handler: async (req, res, n) => (await sleep(300), page(req, res, n)),
    });
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => get(site, i % 2 ? `/cached/k${i}` : `/passed/k${i}`)));
    const ok = all.filter((a) => a.status === 200);
    const busy = all.filter((a) => a.status === 503);
    expect(ok).toHaveLength(4);
    expect(busy).toHaveLength(4);
    for (const b of busy) expect(b.headers["retry-after"]).toBe("1");
    expect(site.renderer.maxInFlight).toBe(2);
    expect(site.front.stats.snapshot().refusals.busy).toBe(4);
    // Held answers never wait for a slot.
    const hit = ok.find((a) => a.how === "fill")!;
    const path = `/cached/k${all.indexOf(hit)}`;
    const flood = Array.from({ length: 6 }, (_, i) => get(site, `/cached/flood${i}`));
    const held = await get(site, path);
    expect(held.how).toBe("hit");
    expect(held.ms).toBeLessThan(250);
    await Promise.all(flood);
  });

  test("a route that bounds its own load (ungated, /mcp) is passed on whatever the render limits hold", async () => {
    const site = await start({
      limits: { maxRenders: 1, renderQueue: 0 },
      handler: async (req, res, n) => (await sleep(200), page(req, res, n)),
    });
    const all = await Promise.all([
      get(site, "/passed/a"),
      get(site, "/passed/b"),
      ...Array.from({ length: 6 }, (_, i) => get(site, `/ungated/${i}`, {}, "POST", "{}")),
    ]);
    expect(all.slice(2).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(
      all
        .slice(0, 2)
        .map((a) => a.status)
        .sort(),
    ).toEqual([200, 503]);
    expect(site.front.stats.snapshot().refusals.busy).toBe(1);
  });

  test("while the renderer is away, held answers are served as stale-if-error and the rest get 503 with Retry-After", async () => {
    const site = await start();
    await get(site, "/cached/held");
    site.link.up = false;
    site.versions["/cached/held"] = "v2";
    const held = await get(site, "/cached/held");
    expect(held.status).toBe(200);
    expect(held.how).toBe("stale-if-error");
    expect(held.text).toContain("v=v1");
    for (const path of ["/cached/other", "/passed"]) {
      const away = await get(site, path);
      expect(away.status, path).toBe(503);
      expect(away.headers["retry-after"], path).toBe("3");
    }
    const health = JSON.parse((await get(site, "/api/health")).text);
    expect(health).toMatchObject({
      ok: true,
      renderer: { state: "restarting" },
      front: { answers: { "stale-if-error": 1 }, refusals: { renderer_away: 2 } },
    });
    site.link.up = true;
    expect((await get(site, "/cached/held")).how).toBe("fill");
  });

  test("a renderer that gives no answer at all is away: 503 with Retry-After, not 502", async () => {
    const gone = await startRenderer();
    const site = await start({ renderer: gone });
    await closers.splice(closers.length - 3, 1)[0]!(); // the renderer's server
    for (const path of ["/cached/x", "/passed"]) {
      const got = await get(site, path);
      expect(got.status, path).toBe(503);
      expect(got.headers["retry-after"]).toBeDefined();
    }
  });

  test("a body over the limit is refused with 413 and never sent on", async () => {
    const site = await start({ limits: { maxRequestBodyBytes: 1_000 } });
    expect((await get(site, "/api/reprobe", { "content-type": "text/plain" }, "POST", "x".repeat(2_000))).status).toBe(413);
    expect(site.renderer.seen).toHaveLength(0);
  });
});

describe("front: request framing", () => {
  test("both Content-Length and Transfer-Encoding, obs-folded headers or a duplicate length: 400, never passed on", async () => {
    const site = await start();
    const attacks = [
      "POST /api/reprobe HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
      "POST /api/reprobe HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n",
      "GET /cached/a HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n",
      "GET /passed HTTP/1.1\r\nHost: a\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
      "POST /api/reprobe HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 30\r\n\r\nx",
      "POST /api/reprobe HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n",
    ];
    for (const a of attacks) expect((await raw(site, a)).split("\r\n")[0], JSON.stringify(a)).toBe("HTTP/1.1 400 Bad Request");
    expect(site.renderer.seen).toEqual([]);
    expect(site.front.stats.snapshot().refusals.bad_request).toBe(attacks.length);
    // A plain chunked post is fine and reaches the renderer once, as one whole body.
    expect(
      (
        await raw(site, "POST /passed HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
      ).split("\r\n")[0],
    ).toBe("HTTP/1.1 200 OK");
    expect(site.renderer.seen).toHaveLength(1);
    expect(site.renderer.seen[0]!.headers["content-length"]).toBe("3");
    expect(site.renderer.seen[0]!.headers["transfer-encoding"]).toBeUndefined();
  });
});

describe("front: the hop to the renderer", () => {
  // A raw renderer: answers the first request on each connection with keep-alive, then resets the
  // connection when a second request arrives on it, as a peer closing an idle socket does.
  async function resettingRenderer(): Promise<{ port: number; connections: () => number }> {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      let answered = false;
      socket.on("data", () => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 3\r\nconnection: keep-alive\r\n\r\nok\n");
      });
      socket.on("error", () => undefined);
    });
    return { port: await listen(server), connections: () => connections };
  }

  test("a GET that meets a reset on a reused connection is sent once more on a new one", async () => {
    const r = await resettingRenderer();
    const site = await start({ renderer: { port: r.port } as Renderer });
    for (let i = 0; i < 3; i++) {
      const got = await get(site, `/passed/page-${i}`);
      expect(got.status).toBe(200);
      expect(got.text).toBe("ok\n");
    }
    expect(r.connections()).toBe(3);
  });

  test("a POST that meets a reset is not sent twice", async () => {
    const r = await resettingRenderer();
    const site = await start({ renderer: { port: r.port } as Renderer });
    expect((await get(site, "/passed/first")).status).toBe(200);
    const got = await get(site, "/api/reprobe", {}, "POST", "server=x");
    expect(got.status).toBe(503);
    expect(r.connections()).toBe(1);
  });

  test("idle connections to the renderer are closed by the front before the renderer's keep-alive ends", async () => {
    let closedByPeer = 0;
    const server = http.createServer((_req, res) => res.end("ok"));
    server.keepAliveTimeout = 5_000;
    server.on("connection", (socket) => socket.on("end", () => closedByPeer++));
    const port = await listen(server);
    const site = await start({ renderer: { port } as Renderer, idleMs: 200 });
    expect((await get(site, "/passed/a")).status).toBe(200);
    await sleep(700);
    expect(closedByPeer).toBe(1);
  });
});
