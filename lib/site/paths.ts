import type { CheckId } from "../checks/vocabulary";

// Registry names contain "/" (io.github.owner/server), so each segment is encoded on its own and
// routes take them as catch-all segments.
export function encodeName(name: string): string {
  return name.split("/").map(encodeURIComponent).join("/");
}

/** Joins catch-all segments back into a registry name. Next hands segments over still percent-encoded
 * in some versions and decoded in others; decoding only when it round-trips keeps both right. */
export function nameFromSegments(segments: readonly string[]): string {
  return segments
    .map((s) => {
      if (!/%[0-9a-fA-F]{2}/.test(s)) return s;
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    })
    .join("/");
}

export const serverPath = (name: string) => `/servers/${encodeName(name)}`;
export const checkAnchor = (check: CheckId) => `check-${check}`;
export const serverJsonPath = (name: string) => `/api/servers/${encodeName(name)}`;
export const badgePath = (name: string, check?: CheckId) => `/badge/${encodeName(name)}${check ? `?check=${check}` : ""}`;
export const shieldsEndpointPath = (name: string, check?: CheckId) => `/api/badge/${encodeName(name)}${check ? `?check=${check}` : ""}`;
export const serverFeedPath = (name: string) => `/changes/feed.xml?server=${encodeURIComponent(name)}`;
export const faqPath = (lang: "en" | "zh", slug?: string) => `${lang === "zh" ? "/zh" : ""}/faq${slug ? `/${slug}` : ""}`;
export const runPath = (id: number) => `/runs/${id}`;
export const serverStatesFeedPath = (name: string) => `/changes/states.xml?server=${encodeURIComponent(name)}`;
/** `/incidents`, across servers or for one (`?server=`), and its Atom feed. */
export const incidentsPath = (server?: string) => `/incidents${server ? `?server=${encodeURIComponent(server)}` : ""}`;
export const incidentsFeedPath = (server?: string) => `/incidents/feed.xml${server ? `?server=${encodeURIComponent(server)}` : ""}`;
/** The server's link-preview card (a PNG), as OpenGraph and Twitter name it. */
export const cardPath = (name: string) => `/card/${encodeName(name)}`;
