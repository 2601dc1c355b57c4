import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../../_lib/db";
import { getServer } from "../../_lib/handlers";

export const dynamic = "force-dynamic";

// GET /api/servers/<registry name>: names contain "/", hence the catch-all segment. `npm start`'s front keeps
// one answer per server data version (lib/front).
export async function GET(_request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  return getServer(nameFromSegments((await params).name), siteDb());
}
