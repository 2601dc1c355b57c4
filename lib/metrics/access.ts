import { bearerMatches } from "../site/bearer";
import type { ScrapePace } from "./scrapes";

// Who may read /metrics, the same in both processes: only a request with the METRICS_TOKEN bearer token,
// and only at the pace the process allows. Refusals name no metric.

export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const text = (status: number, body: string, extra: Record<string, string> = {}): PlainAnswer => ({
  status,
  headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra },
  body: `${body}\n`,
});

export const METRICS_PATH = "/metrics";

/** The refusal for a scrape, or null when it may be answered (after waiting its turn). */
export async function refuseScrape(options: {
  method: string | undefined;
  authorization: string | null | undefined;
  token: string;
  pace: ScrapePace;
}): Promise<PlainAnswer | null> {
  if (options.method !== "GET" && options.method !== "HEAD") return text(405, "Use GET.", { allow: "GET, HEAD" });
  if (!bearerMatches(options.authorization, options.token)) {
    return text(401, "Send Authorization: Bearer <METRICS_TOKEN>.", { "www-authenticate": 'Bearer realm="mcp-status metrics"' });
  }
  if (!(await options.pace.enter())) return text(503, "Too many scrapes are waiting; try again in a second.", { "retry-after": "1" });
  return null;
}

/** /metrics while METRICS_TOKEN is not set: the route does not exist. */
export const METRICS_OFF = text(404, "Not found: /metrics is on only when METRICS_TOKEN is set.");
