import { badgeStates } from "@/lib/store/servers";
import { serverDataVersion } from "@/lib/store/versions";
import { createAnswerCache } from "@/lib/site/answer-cache";
import { badgeAnswer, badgeResponse } from "@/lib/site/badge-route";
import { nameFromSegments } from "@/lib/site/paths";
import { siteDb } from "../../../_lib/db";

export const dynamic = "force-dynamic";

// One answer per server, check and data version.
const cache = createAnswerCache(8 * 1024 * 1024);

// GET /api/badge/<registry name>[?check=<check id>] → shields.io endpoint JSON.
export async function GET(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const check = new URL(request.url).searchParams.get("check");
  const db = siteDb();
  const version = serverDataVersion(db, name) ?? "unknown";
  return badgeResponse(cache.get(`${name}\n${check ?? ""}`, version, () => badgeAnswer(badgeStates(db, name), check, "shields")));
}
