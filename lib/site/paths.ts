import type { CheckId } from "../vocabulary/checks";

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

/** The open data (architecture.md §3): the downloads page, the daily census rows, and one file per day of every server's state. */
/** The downloads page (`/data/` redirects here, as every trailing slash does). */
export const DATA_PATH = "/data";
export const CENSUS_CSV_PATH = "/data/census.csv";
export const CENSUS_JSON_PATH = "/data/census.json";
export const serversFileName = (day: string) => `servers-${day}.jsonl.gz`;
export const serversFilePath = (day: string) => `/data/${serversFileName(day)}`;
const SERVERS_FILE = /^servers-(\d{4}-\d{2}-\d{2})\.jsonl\.gz$/;
/** The day a file name under /data/ names: a day, `malformed` for a servers-… name whose date is not a calendar day in the
 * YYYY-MM-DD form, null for any other name. */
export function serversFileDay(fileName: string): string | "malformed" | null {
  if (!fileName.startsWith("servers-")) return null;
  const m = SERVERS_FILE.exec(fileName);
  if (!m) return "malformed";
  const day = m[1]!;
  const t = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day ? day : "malformed";
}

/** The claim page (architecture.md §11): a capability URL holding the claim token. */
export const claimPagePath = (claimToken: string) => `/claims/${encodeURIComponent(claimToken)}`;
/** The manage page of a verified claim: a capability URL holding the manage token. */
export const ownerPagePath = (manageToken: string) => `/owners/${encodeURIComponent(manageToken)}`;
