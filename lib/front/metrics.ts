import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { METRICS_PATH, refuseScrape } from "../metrics/access";
import { family, labelled, METRICS, type Family } from "../metrics/families";
import { CONTENT_TYPE, exposition, processFamilies, processRegistry } from "../metrics/registry";
import { createScrapeCache, createScrapePace, SCRAPE_LIMITS } from "../metrics/scrapes";
import type { FrontSnapshot } from "./stats";
import type { Upstream } from "./upstream";
import { FRONT_OUTCOMES, FRONT_REFUSALS } from "../vocabulary/front";

// /metrics in the front process of `npm start`: one endpoint for both processes. The front asks the renderer
// for its families (stored figures, its process metrics) as JSON over the hop, adds its own counters
// (stats.ts, read through their snapshot) and answers the merge. The work happens at most once a second
// whatever the number of scrapers, and is paced (lib/metrics/scrapes.ts).

const gzipAsync = promisify(gzip);

/** The front's own families, from its counters' snapshot. */
export function frontFamilies(s: FrontSnapshot, rendererUp: boolean): Family[] {
  const one = (value: number) => [{ value, labels: {} }];
  return [
    family(METRICS.frontAnswers, labelled("outcome", Object.entries(s.answers), FRONT_OUTCOMES)),
    family(METRICS.frontRefusals, labelled("cause", Object.entries(s.refusals), FRONT_REFUSALS)),
    family(METRICS.frontRendersInFlight, one(s.rendersInFlight)),
    family(METRICS.frontRendersQueued, one(s.rendersQueued)),
    family(METRICS.frontCacheEntries, one(s.cache.entries)),
    family(METRICS.frontCacheBytes, one(s.cache.bytes)),
    family(METRICS.rendererRestarts, one(s.rendererRestarts)),
    family(METRICS.rendererUp, one(rendererUp ? 1 : 0)),
  ];
}

export interface FrontMetricsOptions {
  token: string;
  stats: () => FrontSnapshot;
  /** The hop to the renderer while it is up, else null. */
  renderer: () => Upstream | null;
  /** How long the renderer may take to hand over its part. Default 5 s. */
  timeoutMs?: number;
}

export type FrontMetrics = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The renderer's families, or null when it is away or did not answer in time. The hop is not held to the
 * render limits: one request a second at most, and a full render queue must not blank the scrape. */
async function rendererFamilies(up: Upstream | null, token: string, timeoutMs: number): Promise<Family[] | null> {
  if (!up) return null;
  try {
    const answer = await up.whole({
      method: "GET",
      path: METRICS_PATH,
      headers: { host: "127.0.0.1", authorization: `Bearer ${token}`, accept: "application/json" },
      deadline: Date.now() + timeoutMs,
    });
    if (answer.status !== 200) return null;
    const parsed: unknown = JSON.parse(answer.body.toString("utf8"));
    return Array.isArray(parsed) ? (parsed as Family[]) : null;
  } catch {
    return null;
  }
}

/** The front's /metrics handler: its scrape cache and pace are shared by every scrape it answers. */
export function createFrontMetrics(options: FrontMetricsOptions): FrontMetrics {
  processRegistry("front");
  const cache = createScrapeCache(
    async () => {
      const [own, renderer] = await Promise.all([
        processFamilies("front"),
        rendererFamilies(options.renderer(), options.token, options.timeoutMs ?? 5_000),
      ]);
      const text = Buffer.from(await exposition([own, frontFamilies(options.stats(), renderer !== null), renderer ?? []]));
      return { text, gzipped: await gzipAsync(text) };
    },
    { maxAgeMs: SCRAPE_LIMITS.maxAgeMs },
  );
  const pace = createScrapePace(SCRAPE_LIMITS);
  return async (req, res) => {
    const refused = await refuseScrape({ method: req.method, authorization: req.headers.authorization, token: options.token, pace });
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
  };
}
