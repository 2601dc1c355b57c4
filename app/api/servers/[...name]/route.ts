import { createAnswerCache } from "@/lib/site/answer-cache";
import { nameFromSegments } from "@/lib/site/paths";
import { serverPageVersion } from "@/lib/store/versions";
import { siteDb } from "../../../_lib/db";
import { answerResponse, serverAnswer } from "../../_lib/handlers";

export const dynamic = "force-dynamic";

// One JSON text per server and data version.
const cache = createAnswerCache(32 * 1024 * 1024);

// GET /api/servers/<registry name>: names contain "/", hence the catch-all segment.
export async function GET(_request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const db = siteDb();
  const version = serverPageVersion(db, name, new Date());
  return answerResponse(cache.get(name, version, () => serverAnswer(name, db)));
}
