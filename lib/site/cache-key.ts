import { createHash } from "node:crypto";

// Cached pages live under internal paths that carry the data version (and the origin their copyable links
// use), so a new version is a new cache entry: nothing has to be told to forget anything.

const SEP = "~";

function b64(s: string): string {
  return Buffer.from(s, "utf8").toString("base64url");
}

function unb64(s: string): string {
  return Buffer.from(s, "base64url").toString("utf8");
}

/** One path segment naming a data version and the origin (and, for the index, the query) it was rendered for. */
export function versionSegment(version: string, origin: string, extra = ""): string {
  const hash = createHash("sha1").update(`${version}\n${origin}\n${extra}`).digest("base64url").slice(0, 16);
  return [SEP + hash, b64(origin), b64(extra)].join(SEP);
}

/** The origin and extra text a version segment was made with; null when the segment is not one. */
export function parseVersionSegment(segment: string): { origin: string; extra: string } | null {
  const s = decodeURIComponent(segment);
  if (!s.startsWith(SEP)) return null;
  const [, , origin, extra] = s.split(SEP);
  if (origin === undefined || extra === undefined) return null;
  return { origin: unb64(origin), extra: unb64(extra) };
}

/** Absolute origin for copyable links: the configured public URL, else the request's own host. */
export function originFrom(headers: Pick<Headers, "get">, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/$/, "");
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? "localhost";
  const proto = headers.get("x-forwarded-proto") ?? (host.startsWith("127.0.0.1") || host.startsWith("localhost") ? "http" : "https");
  return `${proto}://${host}`;
}
