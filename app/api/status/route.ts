import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { status } from "../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/status: last finished round, coverage, the latest cross-read counts and open alerts; 503 while an alert is open.
export function GET() {
  return status(getDb(getConfig()));
}
