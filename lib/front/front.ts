import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import type { Db } from "../../db/client";
import { FRONT_REFUSALS, type FrontRefusal } from "../vocabulary/front";
import type { FrontLimits } from "../config";
import { healthFacts } from "../store/health";
import { releaseRoundLockOf } from "../store/rounds";
import { countServers } from "../store/servers/counts";
import { siteDataVersion } from "../store/versions";
import { createFileServer, type FileServer } from "./files";
import { createFrontCache, RenderError, type FrontCache, type Render } from "./cache";
import { frontError, type RenderFailure } from "./errors";
import { createRenderGate } from "./gate";
import { createFrontMetrics } from "./metrics";
import { superviseRenderer, type Renderer, type RendererStatus } from "./renderer";
import { createFrontRouter, type FrontRoute } from "./routes";
import { createFrontStats, type FrontSnapshot, type FrontStats } from "./stats";
import { HopError, type HopFailure, type Upstream } from "./upstream";

// `npm start`'s front process: answers what it holds from memory per data version (cache.ts, keyed by
// routes.ts), hands the rest to the supervised renderer (renderer.ts) within the limits of architecture.md §7,
// and answers /api/health itself.

/** What the request path needs of the renderer: the hop while it is up, and when to come back. */
export interface RendererLink {
  upstream(): Upstream | null;
  retryAfterS(): number;
  status(): RendererStatus;
}

export interface FrontParts {
  limits: FrontLimits;
  route: (req: IncomingMessage) => FrontRoute;
  renderer: RendererLink;
  /** What /api/health says about the data besides the renderer and the front. */
  healthFacts: () => object;
  /** METRICS_TOKEN: with it the front answers /metrics itself (its figures and the renderer's). */
  metricsToken?: string;
  /** The open-data folder's day files; without it the renderer answers them. */
  files?: FileServer;
  log: (line: string) => void;
  now?: () => number;
}

export interface FrontServer {
  server: http.Server;
  stats: FrontStats;
  cache: FrontCache;
}

const isRefusal = (o: string): o is FrontRefusal => (FRONT_REFUSALS as readonly string[]).includes(o);

/** A hop failure as the visitor sees it: a renderer that gives no answer at all is away (503 and
 * Retry-After, as while it restarts); one that answers late is a 504; one that fails after its headers, 502. */
const failureOf = (f: HopFailure): RenderFailure =>
  f === "timeout" ? "timeout" : f === "unreachable" ? "renderer_away" : "renderer_failed";

/** The request body, whole (a GET has none), or the refusal it earned. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined | "too_large" | "bad_request"> {
  const length = req.headers["content-length"];
  if (req.headers["transfer-encoding"] === undefined && (length === undefined || length === "0")) return Promise.resolve(undefined);
  if (length !== undefined && Number(length) > max) return Promise.resolve("too_large");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        resolve("too_large");
        req.destroy();
      } else chunks.push(c);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", () => resolve("bad_request"));
  });
}

/** The front's HTTP server, not yet listening: the route table, the cache, the render limits, the hop. */
export function createFront(options: FrontParts): FrontServer {
  const { limits, renderer } = options;
  const gate = createRenderGate({ max: limits.maxRenders, queue: limits.renderQueue });

  /**
   * One hop to the renderer within the render limits (architecture.md §7): a render slot (unless ungated), the
   * renderer as it is once the slot came, one deadline for the answer's headers; when one is missing or the hop
   * fails, the refusal instead.
   */
  async function inRenderSlot<T>(
    gated: boolean,
    hop: (up: Upstream, deadline: number, release: () => void) => Promise<T>,
  ): Promise<T | RenderFailure> {
    const deadline = Date.now() + limits.headersTimeoutMs;
    const release = gated ? await gate.acquire(limits.headersTimeoutMs) : () => {};
    if (!release) return "busy";
    try {
      const up = renderer.upstream();
      if (!up) return "renderer_away";
      return await hop(up, deadline, release);
    } catch (e) {
      if (e instanceof HopError) return failureOf(e.failure);
      throw e;
    } finally {
      release();
    }
  }

  /** A render of a cached route's canonical request. */
  const render: Render = async (r) => {
    if (!renderer.upstream()) throw new RenderError("renderer_away");
    const answer = await inRenderSlot(true, (up, deadline) => up.whole({ method: "GET", path: r.path, headers: r.headers, deadline }));
    if (typeof answer === "string") throw new RenderError(answer);
    return answer;
  };
  const cache = createFrontCache({
    maxBytes: limits.cacheBytes,
    staleMs: limits.staleMs,
    waitMs: limits.headersTimeoutMs,
    render,
    retryAfterS: () => renderer.retryAfterS(),
    now: options.now,
  });
  const stats = createFrontStats({ renders: () => gate, cache: () => ({ entries: cache.size, bytes: cache.bytes }) });
  const metrics = options.metricsToken
    ? createFrontMetrics({ token: options.metricsToken, stats: () => stats.snapshot(), renderer: () => renderer.upstream() })
    : null;

  function health(res: ServerResponse): void {
    let facts: object;
    try {
      facts = options.healthFacts();
    } catch (e) {
      facts = { error: (e as Error).message };
    }
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify({ ok: true, renderer: renderer.status(), front: stats.snapshot(), ...facts }));
  }

  /** Hands a request to the renderer as it came, within the render limits; streams the answer back. */
  async function pass(req: IncomingMessage, res: ServerResponse, gated = true): Promise<FrontRefusal | "pass"> {
    if (!renderer.upstream()) return "renderer_away";
    const body = await readBody(req, limits.maxRequestBodyBytes);
    if (body === "too_large" || body === "bad_request") return body;
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const headers = { ...req.headers, ...(forwarded ? { "x-forwarded-for": forwarded } : {}) };
    return inRenderSlot(gated, async (up, deadline, release) => {
      // The slot is held until the answer's headers: a stream (SSE, /mcp) never keeps a render slot.
      await up.pipe({ method: req.method ?? "GET", path: req.url ?? "/", headers, body, deadline }, res, { onHead: release });
      return "pass" as const;
    });
  }

  function refuse(res: ServerResponse, r: FrontRefusal): void {
    stats.refused(r);
    if (!res.writableEnded) frontError(res, r, renderer.retryAfterS());
  }

  /** A fault of the front's own while answering: logged with its stack, answered as a failed render. */
  function crashed(req: IncomingMessage, res: ServerResponse, e: unknown): void {
    options.log(`[site] ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
    refuse(res, "renderer_failed");
  }

  /** Everything but a current held answer: the cache's slower paths, or the renderer. */
  async function answer(req: IncomingMessage, res: ServerResponse, route: FrontRoute): Promise<void> {
    const outcome =
      route.kind === "cached" && limits.cacheBytes > 0
        ? await cache.handle(req, res, route)
        : await pass(req, res, !(route.kind === "pass" && route.ungated));
    if (isRefusal(outcome)) return refuse(res, outcome);
    stats.answered(outcome);
  }

  // Held answers are written synchronously, before any promise: most requests end here.
  function serve(req: IncomingMessage, res: ServerResponse): void {
    // Node's parser already refuses both framings at once and obs-folded lines (400); this holds the line
    // should a lenient parser ever be turned on.
    if (req.headers["transfer-encoding"] !== undefined && req.headers["content-length"] !== undefined) return refuse(res, "bad_request");
    if (!req.url?.startsWith("/")) return refuse(res, "bad_request");
    let route: FrontRoute;
    try {
      route = options.route(req);
    } catch {
      route = { kind: "pass" }; // a failed version read leaves the answer to the renderer, which reports it
    }
    if (route.kind === "health") return health(res);
    if (route.kind === "metrics") {
      if (metrics) {
        return void metrics(req, res).catch((e: unknown) => crashed(req, res, e));
      }
      route = { kind: "pass" };
    }
    if (route.kind === "file") {
      if (options.files?.serve(req, res, route.name)) return stats.answered("file");
      route = { kind: "pass" }; // a malformed or missing day: the renderer words the 400 or the 404
    }
    if (route.kind === "cached" && limits.cacheBytes > 0 && cache.hit(req, res, route)) return stats.answered("hit");
    answer(req, res, route).catch((e: unknown) => crashed(req, res, e));
  }

  const server = http.createServer({ insecureHTTPParser: false, requireHostHeader: true }, (req, res) => {
    try {
      serve(req, res);
    } catch (e) {
      crashed(req, res, e);
    }
  });
  // A request the parser refused (both Content-Length and Transfer-Encoding, obs-folded headers, bad
  // framing) never reaches a handler, so it never reaches the renderer either.
  server.on("clientError", (e: NodeJS.ErrnoException, socket) => {
    if (e.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    stats.refused("bad_request");
    socket.end(
      "HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n\r\nThe request is malformed or ambiguous, so it was not passed on.\n",
    );
  });
  // Receiving a request (headers and body) may take no longer than a render may.
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.headersTimeoutMs;
  // The front's own hop to the renderer does the same the other way round (upstream.ts).
  server.keepAliveTimeout = limits.clientKeepAliveMs;
  return { server, stats, cache };
}

export interface FrontOptions {
  db: Db;
  publicBaseUrl: string | undefined;
  limits: FrontLimits;
  metricsToken: string | undefined;
  /** Where the daily open-data files lie (OPEN_DATA_DIR): the front answers them itself. */
  openDataDir?: string;
  host: string;
  port: number;
  /** The checkout the renderer runs in (its .next build and node_modules). */
  cwd: string;
  /** The renderer's environment. */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

export interface Front {
  port: number;
  renderer: Renderer;
  /** The front's counters, read-only. */
  stats(): FrontSnapshot;
  close(): Promise<void>;
}

/** `npm start`: the supervised renderer, and the front listening once the renderer first accepts. */
export async function startFront(options: FrontOptions): Promise<Front> {
  const { db } = options;
  let stats: FrontStats | undefined;
  const renderer = superviseRenderer({
    cwd: options.cwd,
    env: options.env,
    restartMinMs: options.limits.restartMinMs,
    restartMaxMs: options.limits.restartMaxMs,
    startTimeoutMs: options.limits.startTimeoutMs,
    log: options.log,
    onRestart: () => stats?.rendererRestarted(),
    // A round the renderer was running died with it: its lock is released now, not after the heartbeat goes stale.
    onExit: (pid, how) => {
      try {
        const round = releaseRoundLockOf(db, {
          host: os.hostname(),
          pid,
          now: new Date(),
          reason: `the renderer (pid ${pid}) that ran it exited (${how})`,
        });
        if (round !== null) options.log(`[site] round ${round} abandoned: its renderer exited; the round lock is free`);
      } catch (e) {
        options.log(`[site] could not release the round lock of pid ${pid}: ${(e as Error).message}`);
      }
    },
  });
  // The listed-server count scans the servers table: counted once per site data version, not per poll.
  let counted: { version: string; servers: number } | null = null;
  const front = createFront({
    limits: options.limits,
    route: createFrontRouter({ db, publicBaseUrl: options.publicBaseUrl }),
    renderer,
    metricsToken: options.metricsToken,
    // The day files are held beside, not inside, the page cache, in at most 32 MiB of their own.
    files: options.openDataDir
      ? createFileServer({ dir: options.openDataDir, maxBytes: Math.min(options.limits.cacheBytes, 32 * 2 ** 20) })
      : undefined,
    healthFacts: () => {
      const version = siteDataVersion(db);
      if (counted?.version !== version) counted = { version, servers: countServers(db).inRegistry };
      return healthFacts(db, counted.servers);
    },
    log: options.log,
  });
  stats = front.stats;
  const { server } = front;
  await renderer.ready;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    renderer,
    stats: () => front.stats.snapshot(),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await renderer.stop();
    },
  };
}
