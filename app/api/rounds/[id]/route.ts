import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { getRoundStatus } from "../../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/rounds/<id>: the round's status and counters (same bearer rule as POST /api/rounds).
export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const config = getConfig();
  return getRoundStatus(request, (await params).id, { secret: config.cronSecret, db: getDb(config) });
}
