import { ownerRouteDeps } from "../../../_lib/owner-deps";
import { postVerify } from "../../../_lib/owners";

export const dynamic = "force-dynamic";

// POST /api/claims/<claim>/verify (architecture.md §11): one fetch of the proof → 200 {manage} or 422 with what was fetched.
export async function POST(request: Request, { params }: { params: Promise<{ claim: string }> }) {
  return postVerify(request, (await params).claim, ownerRouteDeps(request));
}
