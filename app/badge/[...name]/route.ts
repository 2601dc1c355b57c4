import { badgeStates } from "@/lib/store/servers";
import { BADGE_CACHE_CONTROL, badgeSvg } from "@/lib/site/badge";
import { resolveBadge } from "@/lib/site/badge-route";
import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../_lib/db";

export const dynamic = "force-dynamic";

// GET /badge/<registry name>[?check=<check id>] → SVG. Unknown servers get a grey "unknown" badge with 404.
export async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const result = resolveBadge(badgeStates(siteDb(), name), new URL(request.url).searchParams.get("check"));
  if (!result.ok) return new Response(`${result.error}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(badgeSvg(result.spec), {
    status: result.status,
    headers: {
      "content-type": "image/svg+xml; charset=utf-8",
      "cache-control": BADGE_CACHE_CONTROL,
    },
  });
}
