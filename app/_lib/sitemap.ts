import type { Db } from "@/db/client";
import { createAnswerCache, type Answer } from "@/lib/site/answer-cache";
import type { SitemapSource } from "@/lib/site/sitemap";
import { countServers, sitemapServers } from "@/lib/store/servers";
import { siteDataVersion } from "@/lib/store/versions";

// Sitemaps change with the site's data version (rounds, registry refreshes): computed once per version and origin.
const cache = createAnswerCache(64 * 1024 * 1024);

export function sitemapSource(db: Db): SitemapSource {
  const c = countServers(db);
  return { servers: c.inRegistry + c.left, slice: (offset, limit) => sitemapServers(db, { offset, limit }) };
}

export function cachedSitemap(db: Db, key: string, compute: () => Answer): Response {
  const answer = cache.get(key, siteDataVersion(db), compute);
  return new Response(answer.body, { status: answer.status, headers: { "content-type": answer.contentType, "cache-control": "public, max-age=300" } });
}
