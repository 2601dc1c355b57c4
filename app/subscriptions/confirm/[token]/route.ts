import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { getConfirm } from "../../../api/_lib/subscriptions";

export const dynamic = "force-dynamic";

// GET /subscriptions/confirm/<token>: the link of the confirmation email (architecture.md §10).
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  return getConfirm((await params).token, { db: getDb(getConfig()), now: new Date() });
}
