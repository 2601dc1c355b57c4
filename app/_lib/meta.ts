import type { Metadata } from "next";
import type { Lang } from "@/lib/site/labels";
import { localePath } from "@/lib/site/chrome";
import { siteOrigin } from "./db";
import { incidentsFeedPath } from "@/lib/site/paths";

// Every page's link metadata from one place: a canonical URL, OpenGraph and Twitter tags, and the hreflang
// alternates of the page's two languages (every page exists in both). Those URLs are absolute, from PUBLIC_BASE_URL (else the
// request's own host), because unfurlers and crawlers read them without a base.

export const SITE_NAME = "mcp-status";
export const SITE_DESCRIPTION = "What an anonymous, careful client sees when it talks to every remote MCP server in the official registry.";

export interface PageMeta {
  /** The page's own path and query in English, e.g. "/faq/handshake"; the Chinese one is the same under /zh. */
  path: string;
  title: string;
  /** True when `title` is the whole document title (no " · mcp-status" appended). */
  absoluteTitle?: boolean;
  description?: string;
  lang?: Lang;
  image?: { url: string; width: number; height: number; alt: string };
  feeds?: { url: string; title: string }[];
  /** The origin the page is rendered for, when the caller knows it (cached pages carry it in their path). */
  origin?: string;
}

const OG_LOCALE: Record<Lang, string> = { en: "en_US", zh: "zh_CN" };

export async function pageMetadata(m: PageMeta): Promise<Metadata> {
  const origin = m.origin ?? (await siteOrigin());
  const abs = (p: string) => `${origin}${p}`;
  const lang = m.lang ?? "en";
  const path = localePath(lang, m.path);
  const description = m.description ?? SITE_DESCRIPTION;
  const fullTitle = m.absoluteTitle ? m.title : `${m.title} · ${SITE_NAME}`;
  const images = m.image ? [{ ...m.image, url: abs(m.image.url) }] : undefined;
  return {
    title: m.absoluteTitle ? { absolute: m.title } : m.title,
    description,
    alternates: {
      canonical: abs(path),
      // English is x-default.
      languages: { en: abs(m.path), "zh-Hans": abs(localePath("zh", m.path)), "x-default": abs(m.path) },
      // Feed links stay relative, as feed readers resolve them against the page.
      ...(m.feeds ? { types: { "application/atom+xml": m.feeds.map((f) => ({ url: f.url, title: f.title })) } } : {}),
    },
    openGraph: {
      type: "website",
      siteName: SITE_NAME,
      url: abs(path),
      title: fullTitle,
      description,
      locale: OG_LOCALE[lang],
      images,
    },
    twitter: { card: images ? "summary_large_image" : "summary", title: fullTitle, description, images },
  };
}

/** The index at its canonical path ("/" or "/?…" in the index query's canonical form: page 2 or a filter is a page of its own). */
/** The index's whole document title and description in each language. */
const INDEX_META: Record<Lang, { title: string; description: string }> = {
  en: { title: `${SITE_NAME}: observed status of remote MCP servers`, description: SITE_DESCRIPTION },
  zh: {
    title: `${SITE_NAME}：远程 MCP 服务端的观测状态`,
    description: "一个匿名、谨慎的客户端与官方注册表中每个远程 MCP 服务端交互时看到的情况。",
  },
};

// Feed readers find the site's own feeds from its front page.
export const indexMetadata = (path: string, lang: Lang, origin?: string) =>
  pageMetadata({
    origin,
    path,
    lang,
    ...INDEX_META[lang],
    absoluteTitle: true,
    feeds: [
      { url: "/changes/states.xml", title: "Check results changing state, every server" },
      { url: incidentsFeedPath(), title: "Incidents, every server" },
    ],
  });
