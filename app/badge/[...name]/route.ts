import { badgeStates } from "@/lib/store/servers";
import { serverDataVersion } from "@/lib/store/versions";
import { createAnswerCache } from "@/lib/site/answer-cache";
import { badgeAnswer, badgeKey, badgeResponse, resolveBadgeQuery } from "@/lib/site/badge-route";
import { serverHistory } from "@/app/_lib/history";
import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../_lib/db";

export const dynamic = "force-dynamic";

// One answer per server, query and data version (and UTC day: the latency badge reads the last 24 h).
const cache = createAnswerCache(16 * 1024 * 1024);

// GET /badge/<registry name>[?check=<check id> | ?metric=latency] → SVG. Unknown servers get a grey "unknown" badge with 404.
export async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const query = new URL(request.url).searchParams;
  const db = siteDb();
  const version = `${serverDataVersion(db, name) ?? "unknown"}|${new Date().toISOString().slice(0, 10)}`;
  const answer = cache.get(badgeKey(name, query), version, () =>
    badgeAnswer(
      resolveBadgeQuery(query, {
        states: () => badgeStates(db, name),
        latency: () => serverHistory(db, name, new Date())?.responseTimes ?? null,
      }),
      "svg",
    ),
  );
  return badgeResponse(answer);
}
