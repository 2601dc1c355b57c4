import { siteOrigin } from "../_lib/db";

export const dynamic = "force-dynamic";

// GET /robots.txt: crawl the pages, not the JSON API; where the sitemap is.
export async function GET() {
  const body = ["User-agent: *", "Allow: /", "Disallow: /api/", "", `Sitemap: ${await siteOrigin()}/sitemap.xml`, ""].join("\n");
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "public, max-age=3600" } });
}
