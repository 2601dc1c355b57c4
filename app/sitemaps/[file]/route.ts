import { sitemapFileAnswer } from "@/lib/site/sitemap";
import { siteDb, siteOrigin } from "../../_lib/db";
import { sitemapResponse, sitemapSource } from "../../_lib/sitemap";

export const dynamic = "force-dynamic";

// GET /sitemaps/<n>.xml: the n-th block of 50,000 URLs, when /sitemap.xml is an index.
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const db = siteDb();
  const origin = await siteOrigin();
  return sitemapResponse(sitemapFileAnswer(origin, file, sitemapSource(db)));
}
