import { badgeStates } from "@/lib/store/servers";
import { BADGE_CACHE_CONTROL, shieldsEndpoint } from "@/lib/site/badge";
import { resolveBadge } from "@/lib/site/badge-route";
import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../../_lib/db";

export const dynamic = "force-dynamic";

// GET /api/badge/<registry name>[?check=<check id>] → shields.io endpoint JSON.
export async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const result = resolveBadge(badgeStates(siteDb(), name), new URL(request.url).searchParams.get("check"));
  if (!result.ok) return Response.json({ error: result.error }, { status: 400 });
  return Response.json(shieldsEndpoint(result.spec), { status: result.status, headers: { "cache-control": BADGE_CACHE_CONTROL } });
}
