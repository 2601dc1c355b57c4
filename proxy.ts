import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { originFrom, versionSegment } from "@/lib/site/cache-key";
import { nameFromSegments } from "@/lib/site/paths";
import { indexHref, parseIndexQuery } from "@/lib/site/query";
import { serverDataVersion, siteDataVersion } from "@/lib/store/versions";

// Server pages and the index are cached by Next (ISR) under internal paths that name the data version read
// here on every request, so a write from any process shows on the next request; nothing needs invalidating.

export const INDEX_CACHE_PREFIX = "/index-cache/";

const utcHour = () => new Date().toISOString().slice(0, 13);

export function proxy(request: NextRequest) {
  const url = request.nextUrl;
  const { pathname } = url;
  if (pathname.startsWith(INDEX_CACHE_PREFIX)) return new NextResponse("Not found\n", { status: 404 });
  const config = getConfig();
  const db = getDb(config);
  const origin = originFrom(request.headers, config.publicBaseUrl);
  // From request.url, not nextUrl: nextUrl renames 127.0.0.1 to localhost, which would make this an external rewrite.
  const target = new URL(request.url);
  if (pathname === "/") {
    // One cache entry per canonical query: parameter order, defaults and unknown keys do not multiply entries.
    const query = indexHref(parseIndexQuery(Object.fromEntries(url.searchParams))).replace(/^\/\??/, "");
    // The UTC day too: the 90-day strips move on at midnight even when no round ran.
    target.pathname = `${INDEX_CACHE_PREFIX}${versionSegment(`${siteDataVersion(db)}|${utcHour().slice(0, 10)}`, origin, query)}`;
    target.search = "";
  } else {
    const name = nameFromSegments(pathname.slice("/servers/".length).split("/"));
    // The hour too: the page's "probe again" form carries a token valid for two hours. The form's feedback
    // (?reprobe=…&retry=…) is part of the cached page.
    const feedback = new URLSearchParams();
    for (const k of ["reprobe", "retry"]) {
      const v = url.searchParams.get(k);
      if (v) feedback.set(k, v.slice(0, 64));
    }
    const version = `${serverDataVersion(db, name) ?? "unknown"}|${utcHour()}`;
    target.pathname = `${pathname}/${versionSegment(version, origin, feedback.toString())}`;
  }
  return NextResponse.rewrite(target);
}

export const config = { matcher: ["/", "/servers/:path+", "/index-cache/:path*"] };
