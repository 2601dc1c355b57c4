import { ownerRouteDeps } from "../../_lib/owner-deps";
import { deleteClaim } from "../../_lib/owners";

export const dynamic = "force-dynamic";

// DELETE /api/owners/<token>: gives the claim up, with its configuration and owner subscriptions.
export async function DELETE(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return deleteClaim(request, (await params).token, ownerRouteDeps(request));
}
