import { after } from "next/server";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { roundDepsFromConfig } from "@/lib/rounds/background";
import { startRound } from "@/lib/rounds/round";
import { methodNotAllowed, postRound } from "../_lib/handlers";

export const dynamic = "force-dynamic";

// POST /api/rounds with Authorization: Bearer $CRON_SECRET → 202 {id}; the round runs after the response.
// No CRON_SECRET configured → 403 {"error":"disabled"}; wrong or missing token → 401; a round running → 409;
// the database cannot be written → 503 {"error":"database_unwritable"}.
export function POST(request: Request) {
  const config = getConfig();
  return postRound(request, {
    secret: config.cronSecret,
    db: getDb(config),
    start: () => startRound(roundDepsFromConfig(config, { trigger: "api" })),
    background: (p) => after(p),
  });
}

// A browser or a curl without -X POST lands here: say which method starts a round instead of an empty 405.
export function GET() {
  return methodNotAllowed(
    ["POST"],
    "A round is started with POST (and Authorization: Bearer $CRON_SECRET); GET /api/rounds/{id} reads one.",
  );
}
