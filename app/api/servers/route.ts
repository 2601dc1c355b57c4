import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { getServers } from "../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/servers?page=&pageSize=&q=&<check id>=<state>&includeLeft=1
export function GET(request: Request) {
  return getServers(request, getDb(getConfig()));
}
