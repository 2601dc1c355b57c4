import { badgeAnswer, badgeResponse, resolveBadgeQuery } from "@/lib/site/badge-route";
import { nameFromSegments } from "@/lib/site/paths";
import { badgeStates } from "@/lib/store/servers/detail";
import { serverUptime } from "@/lib/store/uptime";
import { serverIdByName } from "@/lib/store/history";
import { ownerView } from "@/lib/store/owners";
import { serverHistory } from "./history";
import { siteDb } from "./db";

/** GET for a badge route, SVG or shields JSON. Computed on every request that reaches it: `npm start`'s front
 * keeps one answer per server, query and badge data version (lib/front; the UTC day is part of it: the
 * latency and uptime badges count back from now). */
export function badgeHandler(format: "svg" | "shields") {
  return async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }): Promise<Response> {
    const name = nameFromSegments((await params).name);
    const query = new URL(request.url).searchParams;
    const db = siteDb();
    const answer = badgeAnswer(
      resolveBadgeQuery(query, {
        states: () => badgeStates(db, name),
        latency: () => serverHistory(db, name, new Date())?.responseTimes ?? null,
        uptime: () => serverUptime(db, name, new Date()),
        owner: () => {
          const id = serverIdByName(db, name);
          return id === null ? null : ownerView(db, id, new Date());
        },
      }),
      format,
    );
    return badgeResponse(answer);
  };
}
