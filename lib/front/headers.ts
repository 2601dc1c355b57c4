import { createHash } from "node:crypto";
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";

// The rules a replay follows (architecture.md §7): which header fields cross a hop, which an answer keeps, which
// coding a client accepts, and the one validator an answer carries.

type AnyHeaders = IncomingHttpHeaders | OutgoingHttpHeaders;

// Fields that belong to one connection (RFC 9110 §7.6.1), never forwarded or stored.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
  "proxy-authenticate",
  "proxy-authorization",
]);

// Fields a stored answer does not keep: they describe one response (framing, date, the renderer's own
// cache state and validator), and the front writes its own where one is needed.
const PER_RESPONSE = new Set([
  "content-length",
  "date",
  "etag",
  "last-modified",
  "x-powered-by",
  "x-nextjs-cache",
  "x-nextjs-prerender",
  "x-nextjs-stale-time",
  "x-nextjs-postponed",
]);

/** The header naming how the front answered: hit, stale, stale-if-error, fill or pass. */
export const FRONT_CACHE_HEADER = "x-page-cache";

const headerText = (v: string | number | string[] | undefined): string =>
  v === undefined ? "" : Array.isArray(v) ? v.join(", ") : String(v);

/** The field names a message's own Connection header lists: hop-by-hop for this message too. */
function connectionNamed(headers: AnyHeaders): Set<string> {
  const named = new Set<string>();
  for (const token of headerText(headers.connection).split(",")) {
    const t = token.trim().toLowerCase();
    if (t) named.add(t);
  }
  return named;
}

/** The end-to-end fields of a message: hop-by-hop ones and those its Connection header names left out. */
export function endToEnd(headers: AnyHeaders): [string, string | string[]][] {
  const named = connectionNamed(headers);
  const out: [string, string | string[]][] = [];
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (v === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push([name, Array.isArray(v) ? v : String(v)]);
  }
  return out;
}

/** Fields as Node's writeHead takes them raw (name, value, name, value …), repeated fields one by one. */
export function rawHeaders(fields: Iterable<readonly [string, string | string[]]>): string[] {
  const out: string[] = [];
  for (const [k, v] of fields) for (const one of Array.isArray(v) ? v : [v]) out.push(k, one);
  return out;
}

/** The fields an answer is stored with, or null when it must not be stored at all (it sets a cookie, or
 * comes compressed: the front compresses stored answers itself). Vary always names Accept-Encoding. */
export function storableHeaders(headers: AnyHeaders): [string, string][] | null {
  const out: [string, string][] = [];
  let vary = "";
  for (const [name, v] of endToEnd(headers)) {
    if (name === "set-cookie" || name === "content-encoding") return null;
    if (PER_RESPONSE.has(name) || name === FRONT_CACHE_HEADER) continue;
    if (name === "vary") vary = headerText(v);
    else out.push([name, headerText(v)]);
  }
  out.push(["vary", /\baccept-encoding\b/i.test(vary) ? vary : [vary, "Accept-Encoding"].filter(Boolean).join(", ")]);
  return out;
}

/** The qualities an Accept-Encoding header (RFC 9110 §12.5.3) gives codings by name, and to `*`. */
function qualities(acceptEncoding: string | string[] | undefined): Map<string, number> {
  const q = new Map<string, number>();
  for (const part of headerText(acceptEncoding).split(",")) {
    const [token, ...params] = part.split(";").map((s) => s.trim());
    const name = token?.toLowerCase();
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = /^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(p);
      if (m) value = Number(m[1]);
    }
    const key = name === "x-gzip" ? "gzip" : name;
    q.set(key, Math.max(q.get(key) ?? 0, value));
  }
  return q;
}

/** Whether to send the gzip copy: the client gives gzip (by name or `*`) a quality above 0, and does not
 * rank identity above it. No Accept-Encoding at all gets identity, which every client reads. */
export function prefersGzip(acceptEncoding: string | string[] | undefined): boolean {
  // Clients send the same few values again and again: the last answer is kept.
  if (acceptEncoding === lastAccept.header) return lastAccept.gzip;
  const q = qualities(acceptEncoding);
  const gzip = q.get("gzip") ?? q.get("*") ?? 0;
  const identity = q.get("identity");
  const prefers = gzip > 0 && (identity === undefined || gzip >= identity);
  if (typeof acceptEncoding === "string") lastAccept = { header: acceptEncoding, gzip: prefers };
  return prefers;
}
let lastAccept: { header: string | undefined; gzip: boolean } = { header: undefined, gzip: false };

/** The one validator of a stored answer, the same for its identity and gzip codings (weak: they are
 * equivalent representations, RFC 9110 §8.8.1), computed from its data version and bytes. */
export function answerEtag(version: string, body: Buffer): string {
  return `W/"${createHash("sha1").update(version).update("\n").update(body).digest("base64url").slice(0, 27)}"`;
}

/** If-None-Match against an answer's validator, by weak comparison (RFC 9110 §13.1.2); `*` matches any. */
export function notModified(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  const text = headerText(ifNoneMatch);
  if (!text) return false;
  const opaque = etag.replace(/^W\//, "");
  return text.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === opaque;
  });
}

// A 304 carries the fields a 200 would that describe caching (RFC 9110 §15.4.5).
const NOT_MODIFIED_KEEPS = new Set(["cache-control", "content-location", "expires", "vary", "content-security-policy"]);

/** The fields of a 304 for a stored answer with these headers. */
export const notModifiedHeaders = (headers: readonly [string, string][]) => headers.filter(([k]) => NOT_MODIFIED_KEEPS.has(k));

// Types worth compressing; images other than SVG, and fonts, are compressed already.
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|[a-z.+-]*\+(json|xml))|image\/svg\+xml)/i;

/** Whether an answer of this content type is worth a gzip copy. */
export const compressible = (contentType: string | undefined) => COMPRESSIBLE.test(contentType ?? "");
