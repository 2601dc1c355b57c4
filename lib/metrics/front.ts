import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { METRICS_PATH, refuseScrape } from "./access";
import { family, labelled, METRICS, type Family } from "./families";
import { CONTENT_TYPE, exposition, processFamilies, processRegistry } from "./registry";
import { createScrapeCache, createScrapePace, SCRAPE_LIMITS } from "./scrapes";

// /metrics in the front process of `npm start`: one endpoint for both processes. The front asks the renderer
// for its families (stored figures, its process metrics) as JSON, adds its own, and answers the merge. The
// work happens at most once a second whatever the number of scrapers, and is paced (scrapes.ts).

const gzipAsync = promisify(gzip);

/** What the front knows about its own answers, read through a small accessor (never written from here). */
export interface FrontStats {
  /** Answers by outcome since the front started, every outcome present. */
  answers: Readonly<Record<string, number>>;
  rendersInFlight: number;
  cacheBytes: number;
  rendererRestarts: number;
}

export function frontFamilies(s: FrontStats, rendererUp: boolean): Family[] {
  return [
    family(METRICS.frontAnswers, labelled("outcome", Object.entries(s.answers))),
    family(METRICS.frontRendersInFlight, [{ value: s.rendersInFlight, labels: {} }]),
    family(METRICS.frontCacheBytes, [{ value: s.cacheBytes, labels: {} }]),
    family(METRICS.rendererRestarts, [{ value: s.rendererRestarts, labels: {} }]),
    family(METRICS.rendererUp, [{ value: rendererUp ? 1 : 0, labels: {} }]),
  ];
}

export interface FrontMetricsOptions {
  token: string;
  stats: () => FrontStats;
  /** Where the renderer listens now; null while it is away. */
  renderer: () => { host: string; port: number } | null;
  /** How long the renderer may take to hand over its part. Default 5 s. */
  timeoutMs?: number;
}

export interface FrontMetrics {
  /** Whether a request is for /metrics (any query). */
  matches(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The renderer's families, or null when it did not answer in time. */
function rendererFamilies(at: { host: string; port: number } | null, token: string, timeoutMs: number): Promise<Family[] | null> {
  if (!at) return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = http.get(
      { host: at.host, port: at.port, path: METRICS_PATH, headers: { authorization: `Bearer ${token}`, accept: "application/json" }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("error", () => resolve(null));
        res.once("end", () => {
          if (res.statusCode !== 200) return resolve(null);
          try {
            const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
            resolve(Array.isArray(parsed) ? (parsed as Family[]) : null);
          } catch {
            resolve(null);
          }
        });
      },
    );
    req.once("timeout", () => req.destroy());
    req.once("error", () => resolve(null));
  });
}

export function createFrontMetrics(o: FrontMetricsOptions): FrontMetrics {
  processRegistry("front");
  const cache = createScrapeCache(
    async () => {
      const [own, renderer] = await Promise.all([processFamilies("front"), rendererFamilies(o.renderer(), o.token, o.timeoutMs ?? 5_000)]);
      const text = Buffer.from(await exposition([own, frontFamilies(o.stats(), renderer !== null), renderer ?? []]));
      return { text, gzipped: await gzipAsync(text) };
    },
    { maxAgeMs: SCRAPE_LIMITS.maxAgeMs },
  );
  const pace = createScrapePace(SCRAPE_LIMITS);
  return {
    matches(req) {
      const url = req.url ?? "";
      return url === METRICS_PATH || url.startsWith(`${METRICS_PATH}?`);
    },
    async handle(req, res) {
      const refused = await refuseScrape({ method: req.method, authorization: req.headers.authorization, token: o.token, pace });
      if (refused) {
        res.writeHead(refused.status, refused.headers).end(refused.body);
        return;
      }
      const { text, gzipped } = await cache.get();
      const gz = /\bgzip\b/i.test(String(req.headers["accept-encoding"] ?? ""));
      const body = gz ? gzipped : text;
      res.writeHead(200, {
        "content-type": CONTENT_TYPE,
        "cache-control": "no-store",
        "content-length": String(body.length),
        vary: "Accept-Encoding",
        ...(gz ? { "content-encoding": "gzip" } : {}),
      });
      res.end(req.method === "HEAD" ? undefined : body);
    },
  };
}
