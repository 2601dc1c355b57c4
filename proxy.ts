import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { originFrom, versionSegment } from "@/lib/site/cache-key";
import { canonicalIndexQuery, reprobeFeedback } from "@/lib/site/cached-routes";
import { indexVersion, serverPageVersion } from "@/lib/store/versions";
import { nameFromSegments } from "@/lib/site/paths";

// Server pages and the index are cached by Next (ISR) under internal paths that name the data version read
// here on every request, so a write from any process shows on the next request; nothing needs invalidating.
// In production the front cache of `npm start` (server.ts) answers most requests before they get here; this
// serves what it does not hold (client navigation, a first render, `next start` without it).

export const INDEX_CACHE_PREFIX = "/index-cache/";

export function proxy(request: NextRequest) {
  const url = request.nextUrl;
  const { pathname } = url;
  if (pathname.startsWith(INDEX_CACHE_PREFIX)) return new NextResponse("Not found\n", { status: 404 });
  const config = getConfig();
  const db = getDb(config);
  const origin = originFrom(request.headers, config.publicBaseUrl);
  // From request.url, not nextUrl: nextUrl renames 127.0.0.1 to localhost, which would make this an external rewrite.
  const target = new URL(request.url);
  const now = new Date();
  if (pathname === "/") {
    target.pathname = `${INDEX_CACHE_PREFIX}${versionSegment(indexVersion(db, now), origin, canonicalIndexQuery(url.searchParams))}`;
    target.search = "";
  } else {
    const name = nameFromSegments(pathname.slice("/servers/".length).split("/"));
    target.pathname = `${pathname}/${versionSegment(serverPageVersion(db, name, now), origin, reprobeFeedback(url.searchParams))}`;
  }
  return NextResponse.rewrite(target);
}

export const config = { matcher: ["/", "/servers/:path+", "/index-cache/:path*"] };
