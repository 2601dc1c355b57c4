import { NextResponse, type NextRequest } from "next/server";
import { CENSUS_WINDOWS, parseCensusWindow } from "./lib/site/census";
import { notFoundTarget, pageRouteOf } from "./lib/site/page-routes";
import { runExists } from "./lib/store/history";
import { serverExists } from "./lib/store/servers/detail";
import { siteDb } from "./app/_lib/db";

// Runs before every page renders (route handlers, badges and built files are not matched), and routes the one
// page tree of both languages (app/[lang]/): a path that names no page, server, run or FAQ page is sent where no route matches, so
// not-found.tsx renders as a whole page on the server. /census with a ?window= that is not allowed is a 400
// naming the allowed values (a page cannot set its own status).

/** Set on the requests this proxy rewrote: should Next hand one to it again under its new path, it passes. */
const ROUTED = "x-mcp-status-routed";

export function proxy(request: NextRequest) {
  if (request.headers.get(ROUTED) !== null) return NextResponse.next();
  const { pathname, searchParams } = request.nextUrl;
  const route = pageRouteOf(pathname);
  if (route.kind === "other") return NextResponse.next();
  if (route.kind === "page" && route.inner === "/census") {
    const w = parseCensusWindow(searchParams.get("window"));
    if (typeof w !== "string") return badWindow(pathname, w.error);
  }
  if (route.kind === "missing") return rewrite(request, notFoundTarget(route.lang, route.section));
  if (route.kind === "server" && !serverExists(siteDb(), route.name)) return rewrite(request, notFoundTarget(route.lang, "server"));
  if (route.kind === "run" && !runExists(siteDb(), route.id)) return rewrite(request, notFoundTarget(route.lang, "run"));
  // English pages reach their /en/… twin through next.config.mjs's rewrites (a rewrite here would be a proxied hop).
  return NextResponse.next();
}

function rewrite(request: NextRequest, pathname: string) {
  // From request.url, not nextUrl (which renames 127.0.0.1 to localhost): with skipProxyUrlNormalize (next.config.mjs)
  // the target keeps the renderer's own origin, so Next rewrites inside the process instead of proxying a second request.
  const url = new URL(request.url);
  url.pathname = pathname;
  const headers = new Headers(request.headers);
  headers.set(ROUTED, "1");
  return NextResponse.rewrite(url, { request: { headers } });
}

function badWindow(base: string, error: string) {
  const links = CENSUS_WINDOWS.map((v) => `<li><a href="${base}${v === "90d" ? "" : `?window=${v}`}">${v}</a></li>`).join("");
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad window · mcp-status</title></head><body><h1>Bad window</h1><p>${escapeHtml(error)}</p><ul>${links}</ul></body></html>`;
  return new NextResponse(body, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Everything but the API, built files, badges, cards and sitemaps (which never render a page).
export const config = { matcher: ["/((?!api/|_next/|badge/|card/|sitemaps/).*)"] };
