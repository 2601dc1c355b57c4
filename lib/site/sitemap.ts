import { FAQ_SLUGS } from "./faq/types";
import type { TextAnswer } from "./answer";
import { localePath } from "./chrome";
import { CENSUS_CSV_PATH, CENSUS_JSON_PATH, DATA_PATH, faqPath, serverPath } from "./paths";

// sitemap.xml: the site's own pages, then every server page. Past 50,000 URLs (the protocol's limit per file)
// /sitemap.xml becomes an index of /sitemaps/<n>.xml files of at most that many URLs each.

export const SITEMAP_MAX_URLS = 50_000;
const NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XML = "application/xml; charset=utf-8";

const PAGES: readonly string[] = [
  "/",
  "/changes",
  "/incidents",
  "/coverage",
  "/census",
  DATA_PATH,
  faqPath("en"),
  ...FAQ_SLUGS.map((s) => faqPath("en", s)),
];

/** The pages that are not about one server, in both languages, and the downloads. */
export const SITE_PATHS: readonly string[] = [...PAGES, ...PAGES.map((p) => localePath("zh", p)), CENSUS_CSV_PATH, CENSUS_JSON_PATH];

export interface SitemapSource {
  /** How many server pages there are. */
  servers: number;
  /** Server pages `offset` to `offset + limit`, in a stable order. */
  slice(offset: number, limit: number): { name: string; lastProbedAt: string | null }[];
}

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function urlset(origin: string, from: number, count: number, src: SitemapSource): string {
  const lines: string[] = [];
  const site = SITE_PATHS.slice(from, from + count);
  for (const p of site) lines.push(`<url><loc>${escapeXml(origin + p)}</loc></url>`);
  const serverFrom = Math.max(0, from - SITE_PATHS.length);
  const serverCount = count - site.length;
  for (const s of serverCount > 0 ? src.slice(serverFrom, serverCount) : []) {
    const lastmod = s.lastProbedAt ? `<lastmod>${escapeXml(s.lastProbedAt)}</lastmod>` : "";
    lines.push(`<url><loc>${escapeXml(origin + serverPath(s.name))}</loc>${lastmod}</url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${lines.join("\n")}\n</urlset>\n`;
}

/** How many sitemap files the URLs need (1 means /sitemap.xml holds them all). */
export const sitemapFiles = (src: SitemapSource, perFile = SITEMAP_MAX_URLS) =>
  Math.max(1, Math.ceil((SITE_PATHS.length + src.servers) / perFile));

/** /sitemap.xml: every URL, or the index of the numbered files when they do not fit in one. */
export function sitemapAnswer(origin: string, src: SitemapSource, perFile = SITEMAP_MAX_URLS): TextAnswer {
  const files = sitemapFiles(src, perFile);
  if (files === 1) return { status: 200, contentType: XML, body: urlset(origin, 0, perFile, src) };
  const entries = Array.from({ length: files }, (_, n) => `<sitemap><loc>${escapeXml(`${origin}${sitemapFilePath(n)}`)}</loc></sitemap>`);
  return {
    status: 200,
    contentType: XML,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${entries.join("\n")}\n</sitemapindex>\n`,
  };
}

export const sitemapFilePath = (n: number) => `/sitemaps/${n}.xml`;

/** /sitemaps/<n>.xml: the n-th block of URLs; 404 past the last one (or when one file holds them all). */
export function sitemapFileAnswer(origin: string, file: string, src: SitemapSource, perFile = SITEMAP_MAX_URLS): TextAnswer {
  const m = /^(0|[1-9]\d{0,6})\.xml$/.exec(file);
  const n = m ? Number(m[1]) : -1;
  const files = sitemapFiles(src, perFile);
  if (n < 0 || files === 1 || n >= files) return { status: 404, contentType: "text/plain; charset=utf-8", body: "no such sitemap file\n" };
  return { status: 200, contentType: XML, body: urlset(origin, n * perFile, perFile, src) };
}
