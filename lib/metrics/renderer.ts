import type { Db } from "../../db/client";
import { METRICS_OFF, refuseScrape, type PlainAnswer } from "./access";
import { CONTENT_TYPE, exposition, processFamilies, processRegistry } from "./registry";
import { createScrapeCache, createScrapePace, SCRAPE_LIMITS } from "./scrapes";
import { storedFamilies } from "./stored";

// /metrics in the renderer (`next start`): the stored figures and this process's default metrics. Alone it
// answers Prometheus itself; under `npm start` the front asks it for the same families as JSON
// (Accept: application/json) and merges its own.

const plain = (a: PlainAnswer) => new Response(a.body, { status: a.status, headers: a.headers });

/** The handler for one process: its cache and pace are shared by every scrape it answers. */
export function createRendererMetrics(options: {
  token: string | undefined;
  db: Db;
  now?: () => Date;
}): (request: Request) => Promise<Response> {
  if (options.token) processRegistry("renderer");
  const cache = createScrapeCache(
    async () => {
      const families = [...(await processFamilies("renderer")), ...storedFamilies(options.db, options.now?.() ?? new Date())];
      return { text: await exposition([families]), json: JSON.stringify(families) };
    },
    { maxAgeMs: SCRAPE_LIMITS.maxAgeMs },
  );
  const pace = createScrapePace(SCRAPE_LIMITS);
  return async (request) => {
    if (!options.token) return plain(METRICS_OFF);
    const refused = await refuseScrape({
      method: request.method,
      authorization: request.headers.get("authorization"),
      token: options.token,
      pace,
    });
    if (refused) return plain(refused);
    const computed = await cache.get();
    const json = /^application\/json\b/i.test(request.headers.get("accept") ?? "");
    return new Response(request.method === "HEAD" ? null : json ? computed.json : computed.text, {
      headers: { "content-type": json ? "application/json" : CONTENT_TYPE, "cache-control": "no-store" },
    });
  };
}
