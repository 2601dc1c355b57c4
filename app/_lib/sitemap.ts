import type { Db } from "@/db/client";
import type { TextAnswer } from "@/lib/site/answer";
import type { SitemapSource } from "@/lib/site/sitemap";
import { countServers } from "@/lib/store/servers/counts";
import { sitemapServers } from "@/lib/store/servers/list";

// Sitemaps are computed on every request that reaches them: `npm start`'s front keeps one per origin and
// site data version (rounds, registry refreshes; lib/front).

export function sitemapSource(db: Db): SitemapSource {
  const c = countServers(db);
  return { servers: c.inRegistry + c.left, slice: (offset, limit) => sitemapServers(db, { offset, limit }) };
}

export function sitemapResponse(answer: TextAnswer): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { "content-type": answer.contentType, "cache-control": "public, max-age=300" },
  });
}
