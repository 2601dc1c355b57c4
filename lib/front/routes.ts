import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import type { Db } from "../../db/client";
import { badgeQueryText } from "../site/badge-route";
import { LANGS, localePath } from "../site/chrome";
import { originFrom } from "../site/origin";
import { badgePath, cardPath, nameFromSegments, serverJsonPath, serverPath, shieldsEndpointPath } from "../site/paths";
import { canonicalIndexQuery, searchParamsOf } from "../site/query";
import { parseReprobeFlash, reprobeFlashQuery } from "../site/reprobe-form";
import { parseSubscribeFlash } from "../site/notify-text";
import { badgeVersion, cardVersion, indexVersion, serverPageVersion, siteDataVersion } from "../store/versions";

// The route table of the front: which requests it answers from memory, under which key and data version,
// and the one canonical request that renders that answer. A key holds exactly what the answer depends
// on: the route, the name, the query parameters the route reads (in one canonical form), the origin of
// copyable links when PUBLIC_BASE_URL is unset, and for client navigation the RSC request headers. So
// neither a parameter the route ignores nor a Host header (with PUBLIC_BASE_URL set) makes a new entry.

export type FrontRoute =
  /** The front's own liveness answer, naming the renderer's state. */
  | { kind: "health" }
  /** /metrics: the front's own figures merged with the renderer's (answered by the front while METRICS_TOKEN
   * is set, else passed, and the renderer says the route does not exist). */
  | { kind: "metrics" }
  /** Kept per `version` under `key`; `render` is the request that renders it. */
  | { kind: "cached"; key: string; version: string; render: { path: string; headers: OutgoingHttpHeaders } }
  /** Handed to the renderer as it came, within the render limits unless `ungated` (a route that bounds its
   * own load: /mcp answers a flood from one address with its 429 and the matching JSON-RPC error). */
  | { kind: "pass"; ungated?: true }
  /** A day's open-data file (/data/servers-YYYY-MM-DD.jsonl.gz), answered from the open-data folder when it is there. */
  | { kind: "file"; name: string };

export interface RouteContext {
  db: Db;
  publicBaseUrl: string | undefined;
}

const PASS: Extract<FrontRoute, { kind: "pass" }> = { kind: "pass" };
const MCP: Extract<FrontRoute, { kind: "pass" }> = { kind: "pass", ungated: true };

// Headers of Next.js client navigation and prefetches (RSC): the answer is a different payload per value
// (the `_rsc` query parameter is a hash of them), so they are part of a page's key and sent with its render.
const RSC_VARIANT = ["rsc", "next-router-prefetch", "next-router-segment-prefetch", "next-router-state-tree", "next-url"] as const;
/** The User-Agent of the front's own renders: answers do not depend on it (next.config.mjs htmlLimitedBots). */
const RENDER_USER_AGENT = "mcp-status-front";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : v);
const headerReader = (h: IncomingHttpHeaders) => ({ get: (name: string) => one(h[name]) ?? null });

/** The registry name in a canonical path under `prefix` (as `canonical` writes it), else null: `/servers/a%2Fb`
 * and trailing slashes (Next answers those with a redirect) go to the renderer as they came. */
function nameUnder(pathname: string, prefix: string, canonical: (name: string) => string): string | null {
  if (!pathname.startsWith(prefix) || pathname.length === prefix.length || pathname.endsWith("/")) return null;
  const name = nameFromSegments(pathname.slice(prefix.length).split("/"));
  return canonical(name) === pathname ? name : null;
}

type Req = { method?: string; url?: string; headers: IncomingHttpHeaders };

const DATA_FILE_PREFIX = "/data/servers-";
const SITEMAP_FILE = /^\/sitemaps\/(0|[1-9]\d{0,6})\.xml$/;

const BADGES = [
  ["svg", "/badge/", (n: string) => badgePath(n)],
  ["shields", "/api/badge/", (n: string) => shieldsEndpointPath(n)],
] as const;

/** A route before its data version is read: a cached one says how to read its version at a moment. */
type Unversioned =
  | Exclude<FrontRoute, { kind: "cached" }>
  | { kind: "cached"; key: string; version: (now: Date) => string; render: { path: string; headers: OutgoingHttpHeaders } };

function cached(req: Req, key: string[], version: (now: Date) => string, path: string, headers: OutgoingHttpHeaders = {}): Unversioned {
  return {
    kind: "cached",
    key: key.join("\n"),
    version,
    render: { path, headers: { host: one(req.headers.host) ?? "localhost", "user-agent": RENDER_USER_AGENT, ...headers } },
  };
}

/** The request's origin into the key, and the fields it comes from into the render, when the answer's
 * absolute links name it (PUBLIC_BASE_URL unset). */
function withOrigin(req: Req, ctx: RouteContext, key: string[], headers: OutgoingHttpHeaders): void {
  if (ctx.publicBaseUrl) return;
  key.push(originFrom(headerReader(req.headers), undefined));
  for (const f of ["x-forwarded-host", "x-forwarded-proto"]) if (req.headers[f] !== undefined) headers[f] = one(req.headers[f]);
}

/** A page: its links name the origin (when PUBLIC_BASE_URL does not), and client navigation asks for RSC. */
function page(
  req: Req,
  ctx: RouteContext,
  key: string[],
  version: (now: Date) => string,
  path: string,
  searchParams: URLSearchParams,
): Unversioned {
  const h = req.headers;
  const query = key[2]!;
  const headers: OutgoingHttpHeaders = {};
  withOrigin(req, ctx, key, headers);
  let render = query ? `${path}?${query}` : path;
  if (h.rsc !== undefined) {
    for (const f of RSC_VARIANT) {
      key.push(`${f}=${one(h[f]) ?? ""}`);
      if (h[f] !== undefined) headers[f] = one(h[f]);
    }
    // Next checks the hash of the headers above against `_rsc` and redirects when they differ.
    const rsc = searchParams.get("_rsc");
    if (rsc !== null) render += `${query ? "&" : "?"}_rsc=${encodeURIComponent(rsc)}`;
  }
  return cached(req, key, version, render, headers);
}

/** Where a request goes; `now` dates the versions (hour and day parts). */
export function frontRoute(req: Req, ctx: RouteContext, now = new Date()): FrontRoute {
  return versioned(routeOf(req, ctx), now);
}

const versioned = (r: Unversioned, now: Date): FrontRoute =>
  r.kind === "cached" ? { kind: "cached", key: r.key, version: r.version(now), render: r.render } : r;

// Distinct request targets (with their Host) whose routes are kept; past it the table starts over.
const ROUTER_TARGETS = 8192;

/** frontRoute for one context, with the parsing of each target kept: a GET or HEAD without the headers that
 * shape a key besides Host (RSC, server actions, forwarded origin) routes as its target and Host alone did
 * before, so only its data version is read again. */
export function createFrontRouter(ctx: RouteContext): (req: Req, now?: Date) => FrontRoute {
  const held = new Map<string, Unversioned>();
  return (req, now = new Date()) => {
    const h = req.headers;
    if (
      (req.method !== "GET" && req.method !== "HEAD") ||
      typeof h.host !== "string" ||
      h.rsc !== undefined ||
      h["next-action"] !== undefined ||
      h["x-forwarded-host"] !== undefined ||
      h["x-forwarded-proto"] !== undefined
    )
      return frontRoute(req, ctx, now);
    // Neither a Host value nor a request target can hold a line break.
    const id = `${h.host}\n${req.url ?? "/"}`;
    let r = held.get(id);
    if (r === undefined) {
      if (held.size >= ROUTER_TARGETS) held.clear();
      r = routeOf(req, ctx);
      held.set(id, r);
    }
    return versioned(r, now);
  };
}

function routeOf(req: Req, ctx: RouteContext): Unversioned {
  // The target as sent, not normalised: only a path spelt exactly as the site writes it is held, and any
  // other spelling (dot segments, "//", encoded slashes) goes to the renderer as it came.
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const pathname = q < 0 ? target : target.slice(0, q);
  const searchParams = new URLSearchParams(q < 0 ? "" : target.slice(q + 1));
  if (pathname === "/api/health") return { kind: "health" };
  if (pathname === "/metrics") return { kind: "metrics" };
  // /mcp (any method) is the renderer's to answer every time, and its per-address limit is the one a client meets.
  if (pathname === "/mcp") return MCP;
  if (req.method !== "GET" && req.method !== "HEAD") return PASS;
  const h = req.headers;
  // Server actions are posts; a GET carrying one is not a page view.
  if (h["next-action"] !== undefined) return PASS;

  // The index and server pages in both languages (one page tree, app/[lang]/): the language leads the kind.
  for (const lang of LANGS) {
    const at = (path: string) => localePath(lang, path);
    if (pathname === at("/")) {
      const key = [`${lang}:index`, "", canonicalIndexQuery(searchParamsOf(searchParams))];
      return page(req, ctx, key, (now) => indexVersion(ctx.db, now), at("/"), searchParams);
    }
    const name = nameUnder(pathname, at("/servers/"), (n) => at(serverPath(n)));
    if (name !== null) {
      const subscribed = parseSubscribeFlash(searchParams.get("subscribe") ?? undefined);
      const flash = [reprobeFlashQuery(parseReprobeFlash(searchParamsOf(searchParams))), subscribed ? `subscribe=${subscribed}` : ""]
        .filter(Boolean)
        .join("&");
      return page(
        req,
        ctx,
        [`${lang}:page`, name, flash],
        (now) => serverPageVersion(ctx.db, name, now),
        at(serverPath(name)),
        searchParams,
      );
    }
  }
  let name: string | null;
  if (h.rsc !== undefined) return PASS;
  name = nameUnder(pathname, "/api/servers/", serverJsonPath);
  if (name !== null) {
    const json = name;
    return cached(req, ["json", json], (now) => serverPageVersion(ctx.db, json, now), serverJsonPath(json));
  }
  for (const [kind, prefix, canonical] of BADGES) {
    name = nameUnder(pathname, prefix, canonical);
    if (name === null) continue;
    const query = badgeQueryText(searchParams);
    const badge = name;
    return cached(req, [kind, badge, query], (now) => badgeVersion(ctx.db, badge, now), `${canonical(badge)}${query ? `?${query}` : ""}`);
  }
  // The link-preview card: per server and card version; its ?run= only names the version for unfurlers.
  name = nameUnder(pathname, "/card/", cardPath);
  if (name !== null) {
    const card = name;
    return cached(req, ["card", card], () => cardVersion(ctx.db, card) ?? "unknown", cardPath(card));
  }
  // Sitemaps list every server page with absolute URLs: per origin, changed by rounds and registry refreshes.
  if (pathname === "/sitemap.xml" || SITEMAP_FILE.test(pathname)) {
    const key = ["sitemap", pathname];
    const headers: OutgoingHttpHeaders = {};
    withOrigin(req, ctx, key, headers);
    return cached(req, key, () => siteDataVersion(ctx.db), pathname, headers);
  }
  if (pathname.startsWith(DATA_FILE_PREFIX) && !pathname.includes("/", DATA_FILE_PREFIX.length))
    return { kind: "file", name: pathname.slice("/data/".length) };
  // Built files: their names carry a content hash, so one copy serves until the process ends.
  if (pathname.startsWith("/_next/static/") && !pathname.includes("..")) return cached(req, ["asset", pathname], () => "build", pathname);
  // Everything else is the renderer's to answer every time.
  return PASS;
}
