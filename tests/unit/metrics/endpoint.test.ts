import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { createFront, type FrontServer } from "@/lib/front/front";
import { frontRoute } from "@/lib/front/routes";
import { createUpstream, type Upstream } from "@/lib/front/upstream";
import { METRICS } from "@/lib/metrics/families";
import { createRendererMetrics } from "@/lib/metrics/renderer";
import { createScrapeCache, createScrapePace } from "@/lib/metrics/scrapes";
import { countEvent } from "@/lib/store/counters";
import { tempDb } from "../store/helpers";
import { parseExposition, valueOf } from "./exposition";

// Both halves of /metrics over real loopback HTTP: the renderer's route handler (as `next start` runs it)
// behind the real front of `npm start` (lib/front: its route table, counters and hop), which answers /metrics
// itself by merging its own figures with the renderer's.

const TOKEN = "metrics-test-token";
let t: ReturnType<typeof tempDb>;
let db: Db;
let renderer: http.Server;
let rendererPort = 0;
let rendererMetricsRequests = 0;
let upstream: Upstream;
const fronts: FrontServer[] = [];
let frontOrigin = "";
let offOrigin = "";
let rendererAway = false;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** A Next-style route handler served by node:http at /metrics; every other path is a small page. */
function serveRenderer(handler: (r: Request) => Promise<Response>): http.Server {
  return http.createServer(async (req, res) => {
    if (!req.url?.startsWith("/metrics")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<p>${req.url}</p>`);
      return;
    }
    rendererMetricsRequests++;
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const answer = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers }));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
}

/** The front of `npm start` over the real route table, with the renderer above as its renderer. */
async function startFrontAt(metricsToken: string | undefined): Promise<string> {
  const front = createFront({
    limits: parseConfig({}).front,
    route: (req) => frontRoute(req, { db, publicBaseUrl: undefined }),
    renderer: {
      upstream: () => (rendererAway ? null : upstream),
      retryAfterS: () => 1,
      status: () => ({
        state: rendererAway ? "restarting" : "up",
        pid: 1,
        since: new Date().toISOString(),
        restarts: 0,
        lastExit: null,
        nextStartAt: null,
      }),
    },
    healthFacts: () => ({}),
    metricsToken,
    log: () => undefined,
  });
  fronts.push(front);
  return `http://127.0.0.1:${await listen(front.server)}`;
}

const scrape = (path: string, headers: Record<string, string> = {}, origin = frontOrigin) => fetch(`${origin}${path}`, { headers });
const auth = { authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  countEvent(db, "rounds_started", "scheduler", 4);
  renderer = serveRenderer(createRendererMetrics({ token: TOKEN, db }));
  rendererPort = await listen(renderer);
  upstream = createUpstream({ host: "127.0.0.1", port: rendererPort });
  frontOrigin = await startFrontAt(TOKEN);
  offOrigin = await startFrontAt(undefined);
});

afterAll(async () => {
  for (const f of fronts) {
    f.server.closeAllConnections();
    await new Promise((r) => f.server.close(r));
  }
  upstream?.close();
  await new Promise((r) => renderer?.close(r));
  t?.cleanup();
});

describe("GET /metrics", () => {
  test.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer not-the-token" }],
    ["the token without Bearer", { authorization: TOKEN }],
  ])("%s gets 401 with no metric names in the body", async (_label, headers) => {
    for (const origin of [frontOrigin, `http://127.0.0.1:${rendererPort}`]) {
      const res = await scrape("/metrics", headers, origin);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      const body = await res.text();
      expect(body).not.toMatch(/mcp_status_|process_|nodejs_/);
    }
  });

  test("with the token: one exposition holding the front's and the renderer's figures, each series once", async () => {
    // Answers of each kind through the front: a fill and a hit of the index, a pass, and a refusal.
    for (const path of ["/", "/", "/faq"]) expect((await scrape(path)).status).toBe(200);
    rendererAway = true;
    expect((await scrape("/faq")).status).toBe(503);
    rendererAway = false;
    const snapshot = fronts[0]!.stats.snapshot();
    expect(snapshot.answers).toMatchObject({ fill: 1, hit: 1, pass: 1 });
    expect(snapshot.refusals.renderer_away).toBe(1);
    const res = await scrape("/metrics", auth);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const p = parseExposition(await res.text());
    // Default process metrics of both processes, told apart by their process label; event-loop lag included.
    for (const process of ["front", "renderer"]) {
      expect(valueOf(p, "process_cpu_user_seconds_total", { process })).toBeGreaterThan(0);
      expect(valueOf(p, "nodejs_eventloop_lag_seconds", { process })).toBeGreaterThanOrEqual(0);
      expect(valueOf(p, "nodejs_eventloop_lag_p99_seconds", { process })).toBeGreaterThanOrEqual(0);
      expect(valueOf(p, "process_start_time_seconds", { process })).toBeGreaterThan(1e9);
    }
    // Stored counters come from the database, once; the front's from its counters' snapshot, every outcome
    // and cause present (zero included), and the scrape itself not counted as an answer.
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "scheduler" })).toBe(4);
    for (const [outcome, n] of Object.entries(snapshot.answers))
      expect(valueOf(p, METRICS.frontAnswers.name, { outcome }), outcome).toBe(n);
    for (const [cause, n] of Object.entries(snapshot.refusals)) expect(valueOf(p, METRICS.frontRefusals.name, { cause }), cause).toBe(n);
    expect(fronts[0]!.stats.snapshot().answers).toEqual(snapshot.answers);
    expect(valueOf(p, METRICS.frontRendersInFlight.name)).toBe(0);
    expect(valueOf(p, METRICS.frontRendersQueued.name)).toBe(0);
    expect(valueOf(p, METRICS.frontCacheEntries.name)).toBe(1);
    expect(valueOf(p, METRICS.frontCacheBytes.name)).toBe(snapshot.cache.bytes);
    expect(snapshot.cache.bytes).toBeGreaterThan(0);
    expect(valueOf(p, METRICS.rendererRestarts.name)).toBe(0);
    expect(valueOf(p, METRICS.rendererUp.name)).toBe(1);
    expect(p.help.get(METRICS.coverageToday.name)).toBe(METRICS.coverageToday.help);
  });

  test("compressed when asked, for Prometheus's Accept-Encoding: gzip", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${frontOrigin}/metrics`, { headers: { ...auth, "accept-encoding": "gzip" } }, resolve),
    );
    expect(res.headers["content-encoding"]).toBe("gzip");
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    expect(parseExposition(gunzipSync(Buffer.concat(chunks)).toString()).samples.length).toBeGreaterThan(50);
  });

  test("the renderer alone (next start) answers its own part and nothing of the front", async () => {
    const res = await scrape("/metrics", auth, `http://127.0.0.1:${rendererPort}`);
    expect(res.status).toBe(200);
    const p = parseExposition(await res.text());
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "scheduler" })).toBe(4);
    expect(p.samples.some((s) => s.labels.process === "front" || s.name.startsWith("mcp_status_front_"))).toBe(false);
  });

  test("a renderer that does not answer leaves the front's figures and says so", async () => {
    rendererAway = true;
    try {
      await new Promise((r) => setTimeout(r, 1_100));
      const res = await scrape("/metrics", auth);
      expect(res.status).toBe(200);
      const p = parseExposition(await res.text());
      expect(valueOf(p, METRICS.rendererUp.name)).toBe(0);
      expect(p.samples.some((s) => s.name === METRICS.roundsStarted.name)).toBe(false);
      expect(valueOf(p, "process_cpu_user_seconds_total", { process: "front" })).toBeGreaterThan(0);
    } finally {
      rendererAway = false;
      await new Promise((r) => setTimeout(r, 1_100));
    }
  });

  test("thirty concurrent scrapes are answered at the pace, costing the renderer one request a second", async () => {
    await new Promise((r) => setTimeout(r, 1_100));
    const before = rendererMetricsRequests;
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: 30 }, () => scrape("/metrics", auth).then((r) => r.status)));
    const took = performance.now() - t0;
    expect(answers.every((s) => s === 200)).toBe(true);
    // 20 answers a second: the thirtieth waits about 1.45 s.
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(rendererMetricsRequests - before).toBeLessThanOrEqual(Math.ceil(took / 1_000));
  });

  test("with METRICS_TOKEN unset the route does not exist: the front passes it and the renderer says 404", async () => {
    const off = createRendererMetrics({ token: undefined, db });
    const res = await off(new Request("http://127.0.0.1/metrics", { headers: auth }));
    expect(res.status).toBe(404);
    const before = rendererMetricsRequests;
    // A front without the token hands /metrics to the renderer as it came: here one that has a token (under
    // npm start both read the same environment, so it too says 404), and the answer is its part alone.
    const passed = await scrape("/metrics", auth, offOrigin);
    expect(rendererMetricsRequests).toBe(before + 1);
    expect(passed.status).toBe(200);
    const p = parseExposition(await passed.text());
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "scheduler" })).toBe(4);
    expect(p.samples.some((s) => s.name.startsWith("mcp_status_front_") || s.name === METRICS.rendererUp.name)).toBe(false);
  });

  test("other methods get 405", async () => {
    const res = await fetch(`${frontOrigin}/metrics`, { method: "POST", headers: auth });
    expect(res.status).toBe(405);
  });
});

describe("scrape pace and sharing", () => {
  test("concurrent gets share one computation, reused within its age", async () => {
    let computed = 0;
    let now = 0;
    const cache = createScrapeCache(async () => ++computed, { maxAgeMs: 1_000, now: () => now });
    expect(await Promise.all([cache.get(), cache.get(), cache.get()])).toEqual([1, 1, 1]);
    now = 999;
    expect(await cache.get()).toBe(1);
    now = 1_000;
    expect(await cache.get()).toBe(2);
  });

  test("answers are spread to the pace, and a crowd past the queue's bound is refused", async () => {
    const pace = createScrapePace({ perSecond: 50, maxWaiting: 10 });
    const t0 = performance.now();
    const entered = await Promise.all(Array.from({ length: 15 }, () => pace.enter()));
    const took = performance.now() - t0;
    // The first goes at once, ten wait their turn 20 ms apart, the rest find the queue full.
    expect(entered.filter(Boolean)).toHaveLength(11);
    expect(took).toBeGreaterThanOrEqual(190);
  });
});
