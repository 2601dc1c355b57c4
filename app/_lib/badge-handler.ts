import { createAnswerCache } from "@/lib/site/answer-cache";
import { badgeAnswer, badgeKey, badgeResponse, resolveBadgeQuery } from "@/lib/site/badge-route";
import { badgeVersion } from "@/lib/store/versions";
import { nameFromSegments } from "@/lib/site/paths";
import { badgeStates } from "@/lib/store/servers";
import { serverUptime } from "@/lib/store/uptime";
import { serverHistory } from "./history";
import { siteDb } from "./db";

/** GET for a badge route, SVG or shields JSON: one answer per server, query and data version (and UTC day:
 * the latency and uptime badges count back from now). */
export function badgeHandler(format: "svg" | "shields", cacheBytes: number) {
  const cache = createAnswerCache(cacheBytes);
  return async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }): Promise<Response> {
    const name = nameFromSegments((await params).name);
    const query = new URL(request.url).searchParams;
    const db = siteDb();
    const version = badgeVersion(db, name, new Date());
    const answer = cache.get(badgeKey(name, query), version, () =>
      badgeAnswer(
        resolveBadgeQuery(query, {
          states: () => badgeStates(db, name),
          latency: () => serverHistory(db, name, new Date())?.responseTimes ?? null,
          uptime: () => serverUptime(db, name, new Date()),
        }),
        format,
      ),
    );
    return badgeResponse(answer);
  };
}
