import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { health } from "../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/health: 200 while the database answers; includes the last round and registry freshness.
export function GET() {
  return health(getDb(getConfig()));
}
