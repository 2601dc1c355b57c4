import { ownerRouteDeps } from "../../../_lib/owner-deps";
import { deleteConfiguration, putConfiguration } from "../../../_lib/owners";

export const dynamic = "force-dynamic";

// PUT and DELETE /api/owners/<token>/configuration (architecture.md §11): write-only, 204 either way.
export async function PUT(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return putConfiguration(request, (await params).token, ownerRouteDeps(request));
}

export async function DELETE(request: Request, { params }: { params: Promise<{ token: string }> }) {
  return deleteConfiguration(request, (await params).token, ownerRouteDeps(request));
}
