import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { nameFromSegments } from "@/lib/site/paths";
import { getServer } from "../../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/servers/<registry name>: names contain "/", hence the catch-all segment.
export async function GET(_request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  return getServer(nameFromSegments((await params).name), getDb(getConfig()));
}
