import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { crossReads } from "../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/cross-reads → {day, servers: [{name, outcome, paths}]} for the latest cross-read day.
export function GET() {
  return crossReads(getDb(getConfig()));
}
