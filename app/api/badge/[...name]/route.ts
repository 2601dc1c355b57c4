import { badgeStates } from "@/lib/store/servers";
import { BADGE_CACHE_CONTROL, shieldsEndpoint } from "@/lib/site/badge";
import { resolveBadgeQuery } from "@/lib/site/badge-route";
import { serverHistory } from "@/app/_lib/history";
import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../../_lib/db";

export const dynamic = "force-dynamic";

// GET /api/badge/<registry name>[?check=<check id> | ?metric=latency] → shields.io endpoint JSON.
export async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const result = resolveBadgeQuery(new URL(request.url).searchParams, {
    states: () => badgeStates(siteDb(), name),
    latency: () => serverHistory(siteDb(), name, new Date())?.responseTimes ?? null,
  });
  if (!result.ok) return Response.json({ error: result.error }, { status: 400 });
  return Response.json(shieldsEndpoint(result.spec), { status: result.status, headers: { "cache-control": BADGE_CACHE_CONTROL } });
}
