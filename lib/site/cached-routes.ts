import type { IncomingHttpHeaders } from "node:http";
import { badgeVersion, cardVersion, indexVersion, serverPageVersion, siteDataVersion } from "../store/versions";
import { originFrom } from "./cache-key";
import { badgePath, cardPath, nameFromSegments, serverJsonPath, serverPath, shieldsEndpointPath } from "./paths";
import { indexHref, parseIndexQuery } from "./query";

// The answers cached between two writes, keyed here for the front cache of `npm start`. Their versions come
// from lib/store/versions.ts, which proxy.ts (Next's ISR) and the badge and JSON handlers read too.

type Db = Parameters<typeof indexVersion>[0];

/** The query parameters a badge answer depends on; any other parameter is ignored by the handler. */
export const badgeQueryKey = (query: URLSearchParams) => [query.get("check") ?? "", query.get("metric") ?? "", query.get("window") ?? ""].join("\n");

/** The "probe again" form's feedback on a server page (?reprobe=…&retry=…), part of the cached page. */
export function reprobeFeedback(query: URLSearchParams): string {
  const feedback = new URLSearchParams();
  for (const k of ["reprobe", "retry"]) {
    const v = query.get(k);
    if (v) feedback.set(k, v.slice(0, 64));
  }
  return feedback.toString();
}

/** The canonical index query: parameter order, defaults and unknown keys do not multiply cache entries. */
export const canonicalIndexQuery = (query: URLSearchParams) => indexHref(parseIndexQuery(Object.fromEntries(query))).replace(/^\/\??/, "");

export interface CachedRoute {
  /** Everything the answer depends on besides the data: route, name, query, origin, kind of client. */
  key: string;
  /** The data version the answer is computed at. */
  version: string;
}

export interface CachedRouteContext {
  db: Db;
  publicBaseUrl: string | undefined;
  /** Next.js renders a page's metadata differently for crawlers, so they get entries of their own. */
  isBot: (userAgent: string) => boolean;
}

// Requests Next.js answers with something other than the document: client navigation (RSC), server
// actions, previews, ranges. They always go to Next.
const BYPASS_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action", "next-url", "range", "authorization"];

/** Node's request headers read the way `originFrom` reads a fetch Headers object. */
const headerReader = (h: IncomingHttpHeaders) => ({ get: (name: string) => (typeof h[name] === "string" ? (h[name] as string) : null) });

/** The cache entry a plain GET or HEAD of a page, badge or server JSON answer maps to; null for anything
 * else, which is served by Next.js as it comes. Only canonical paths match: `/servers/a%2Fb` goes to Next. */
export function cachedRoute(
  req: { method?: string; url?: string; headers: IncomingHttpHeaders },
  ctx: CachedRouteContext,
  now = new Date(),
): CachedRoute | null {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  if (BYPASS_HEADERS.some((h) => req.headers[h] !== undefined)) return null;
  const cookie = req.headers.cookie;
  if (cookie && /__prerender_bypass|__next_preview_data/.test(cookie)) return null;
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://front.invalid");
  } catch {
    return null;
  }
  const { pathname, searchParams } = url;
  if (searchParams.has("_rsc")) return null;
  const named = (prefix: string, canonical: (name: string) => string): string | null => {
    // Next answers a trailing slash with a redirect, never with the answer.
    if (!pathname.startsWith(prefix) || pathname.length === prefix.length || pathname.endsWith("/")) return null;
    const name = nameFromSegments(pathname.slice(prefix.length).split("/"));
    return canonical(name) === pathname ? name : null;
  };
  // Pages only: badges and JSON carry no links and no metadata.
  const origin = () => originFrom(headerReader(req.headers), ctx.publicBaseUrl);
  const bot = () => (ctx.isBot(req.headers["user-agent"] ?? "") ? "bot" : "browser");
  if (pathname === "/") {
    return { key: ["index", origin(), canonicalIndexQuery(searchParams), bot()].join("\n"), version: indexVersion(ctx.db, now) };
  }
  let name = named("/servers/", serverPath);
  if (name !== null) {
    return { key: ["page", origin(), name, reprobeFeedback(searchParams), bot()].join("\n"), version: serverPageVersion(ctx.db, name, now) };
  }
  name = named("/api/servers/", serverJsonPath);
  if (name !== null) return { key: ["json", name].join("\n"), version: serverPageVersion(ctx.db, name, now) };
  // The link-preview card: per server and data version; its ?run= only names the version for unfurlers.
  name = named("/card/", cardPath);
  if (name !== null) return { key: ["card", name].join("\n"), version: cardVersion(ctx.db, name) ?? "unknown" };
  // Sitemaps list every server page with absolute URLs: per origin, changed by rounds and registry refreshes.
  if (pathname === "/sitemap.xml" || /^\/sitemaps\/(0|[1-9]\d{0,6})\.xml$/.test(pathname)) {
    return { key: ["sitemap", origin(), pathname].join("\n"), version: siteDataVersion(ctx.db) };
  }
  for (const [kind, prefix, canonical] of [
    ["svg", "/badge/", badgePath],
    ["shields", "/api/badge/", shieldsEndpointPath],
  ] as const) {
    name = named(prefix, (n) => canonical(n));
    if (name !== null) return { key: [kind, name, badgeQueryKey(searchParams)].join("\n"), version: badgeVersion(ctx.db, name, now) };
  }
  return null;
}
