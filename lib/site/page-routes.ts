import { langOfPath } from "./chrome";
import { isFaqSlug } from "./faq/types";
import type { Lang } from "./labels";
import type { NotFoundSection } from "./not-found";
import { nameFromSegments } from "./paths";

// Which page a request path names, in which language (proxy.ts routes on this). The pages live once under
// app/[lang]/; English is served at the root, Chinese under /zh. A path that names no page, or a server, run
// or FAQ page that does not exist, is "missing": proxy.ts sends it to a path no route matches, so Next renders
// not-found.tsx as a whole page on the server (a notFound() thrown by a page sends an empty body to clients
// without JavaScript).

export type PageRoute =
  /** A route handler or file at the root (feeds, downloads, /mcp, /metrics, robots.txt, …): not a page. */
  | { kind: "other" }
  /** A page that exists whatever the data: `inner` is its path without the /zh prefix. */
  | { kind: "page"; lang: Lang; inner: string }
  | { kind: "server"; lang: Lang; inner: string; name: string }
  | { kind: "run"; lang: Lang; inner: string; id: number }
  | { kind: "missing"; lang: Lang; section: NotFoundSection };

/** Pages whose path is fixed, as the root URL writes them. */
const FIXED = new Set(["/", "/census", "/changes", "/coverage", "/data", "/faq", "/incidents"]);
/** Root paths answered by route handlers or public files, not pages. */
const ROOT_FILES = new Set([
  "/mcp",
  "/metrics",
  "/robots.txt",
  "/sitemap.xml",
  "/favicon.ico",
  "/favicon.svg",
  "/changes/feed.xml",
  "/changes/states.xml",
  "/coverage/feed.xml",
  "/incidents/feed.xml",
]);
const ROOT_PREFIXES = ["/api/", "/_next/", "/badge/", "/card/", "/sitemaps/", "/subscriptions/", "/owners/", "/claims/"];
const RUN_ID = /^\/runs\/(\d{1,12})$/;
/** A subscription's manage page in Chinese (the English one is a root route, above); its actions stay at the root. */
const ZH_MANAGE = /^\/subscriptions\/(?!confirm$)[A-Za-z0-9_-]{1,64}$/;
/** A Chinese subscriber's confirmation link: a route handler (app/[lang]/subscriptions/confirm), worded in Chinese. */
const ZH_CONFIRM = /^\/subscriptions\/confirm\/[A-Za-z0-9_-]{1,64}$/;

export function pageRouteOf(pathname: string): PageRoute {
  const lang = langOfPath(pathname);
  if (lang === "en") {
    if (ROOT_FILES.has(pathname) || ROOT_PREFIXES.some((p) => pathname.startsWith(p))) return { kind: "other" };
    // /data/<file>: the downloads (census.csv, census.json, servers-<day>.jsonl.gz) and their 404s are the route handler's.
    if (pathname.startsWith("/data/") && pathname.length > "/data/".length) return { kind: "other" };
  }
  const inner = lang === "zh" ? pathname.slice(3) || "/" : pathname;
  if (FIXED.has(inner)) return { kind: "page", lang, inner };
  if (lang === "zh" && ZH_MANAGE.test(inner)) return { kind: "page", lang, inner };
  if (lang === "zh" && ZH_CONFIRM.test(inner)) return { kind: "other" };
  if (inner.startsWith("/faq/"))
    return isFaqSlug(inner.slice(5)) ? { kind: "page", lang, inner } : { kind: "missing", lang, section: "faq" };
  const run = RUN_ID.exec(inner);
  if (run) return { kind: "run", lang, inner, id: Number(run[1]) };
  if (inner.startsWith("/servers/") && inner.length > "/servers/".length && !inner.endsWith("/"))
    return { kind: "server", lang, inner, name: nameFromSegments(inner.slice("/servers/".length).split("/")) };
  return { kind: "missing", lang, section: inner.startsWith("/runs/") ? "run" : inner.startsWith("/servers/") ? "server" : "page" };
}

/** Where a missing page is sent: a path under the locale segment that no route matches (app/[lang]/servers and
 * app/[lang]/runs have no page of their own, faq/[slug] and census no children), naming the language and section
 * the 404 page is worded for (notFoundOf reads it back). */
export function notFoundTarget(lang: Lang, section: NotFoundSection): string {
  const where: Record<NotFoundSection, string> = { server: "/servers", run: "/runs", faq: "/faq/-/-", page: "/census/-" };
  return `/${lang}${where[section]}`;
}
