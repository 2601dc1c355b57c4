import { badgeStates } from "@/lib/store/servers";
import { BADGE_CACHE_CONTROL, badgeSvg } from "@/lib/site/badge";
import { resolveBadgeQuery } from "@/lib/site/badge-route";
import { serverHistory } from "@/app/_lib/history";
import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../_lib/db";

export const dynamic = "force-dynamic";

// GET /badge/<registry name>[?check=<check id> | ?metric=latency] → SVG. Unknown servers get a grey "unknown" badge with 404.
export async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const result = resolveBadgeQuery(new URL(request.url).searchParams, {
    states: () => badgeStates(siteDb(), name),
    latency: () => serverHistory(siteDb(), name, new Date())?.responseTimes ?? null,
  });
  if (!result.ok) return new Response(`${result.error}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(badgeSvg(result.spec), {
    status: result.status,
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": BADGE_CACHE_CONTROL,
    },
  });
}
