import { sitemapAnswer } from "@/lib/site/sitemap";
import { siteDb, siteOrigin } from "../_lib/db";
import { sitemapResponse, sitemapSource } from "../_lib/sitemap";

export const dynamic = "force-dynamic";

// GET /sitemap.xml: every page of the site and every server page; an index of /sitemaps/<n>.xml past 50,000 URLs.
export async function GET() {
  const db = siteDb();
  const origin = await siteOrigin();
  return sitemapResponse(sitemapAnswer(origin, sitemapSource(db)));
}
