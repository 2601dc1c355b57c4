import { verifyClaim } from "@/lib/rounds/owners/claims";
import { clientAddress } from "@/lib/mcp/rate-limit";
import { claimPagePath, ownerPagePath } from "@/lib/site/paths";
import { crossSitePost } from "@/lib/site/reprobe-form";
import { ownerRouteDeps } from "../../../api/_lib/owner-deps";
import { ownOrigins } from "../../../api/_lib/reprobe";

export const dynamic = "force-dynamic";

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });

// POST /claims/<claim>/verify: the claim page's button. One fetch of the proof; 303 to the manage page, or back with the refusal.
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const deps = ownerRouteDeps(request);
  const cross = crossSitePost(request.headers, ownOrigins(request, deps.publicBaseUrl));
  if (cross) return new Response(`Refused: only this site's own pages may post here (${cross}).\n`, { status: 403 });
  const a = await verifyClaim(deps, { claim: token, client: clientAddress(request.headers) });
  if (a.ok) return seeOther(`${ownerPagePath(a.manage.split("/").pop()!)}?done=verified`);
  const q = new URLSearchParams({ error: a.error, ...(a.fetched?.status ? { status: String(a.fetched.status) } : {}) });
  return seeOther(`${claimPagePath(token)}?${q}`);
}
