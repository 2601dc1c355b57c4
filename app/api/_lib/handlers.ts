import { z } from "zod";
import type { Db } from "@/db/client";
import type { StartResult } from "@/lib/rounds/round";
import { serverHistory } from "@/app/_lib/history";
import { healthFacts } from "@/lib/store/health";
import { listQueryOf, ServerListParams } from "@/lib/site/query";
import { getServerDetail, listServers } from "@/lib/store/servers";
import { getRound } from "@/lib/store/rounds";
import { latestCrossReads, siteStatus } from "@/lib/rounds/alerts/status";
import { authFailure, checkBearer } from "./auth";

// Route logic with its dependencies as parameters: route.ts files wire in the process config, tests pass their own.

const noStore = { "cache-control": "no-store" };

export function postRound(
  request: Request,
  o: { secret: string | undefined; start: () => StartResult; background: (p: Promise<unknown>) => void },
): Response {
  const denied = authFailure(checkBearer(request, o.secret));
  if (denied) return denied;
  const r = o.start();
  if (!r.started) {
    return Response.json({ error: "already_running", id: r.roundId, message: r.reason }, { status: 409, headers: noStore });
  }
  o.background(r.done);
  return Response.json({ id: r.roundId, status: "running", progress: `/api/rounds/${r.roundId}` }, { status: 202, headers: noStore });
}

export function getRoundStatus(request: Request, idParam: string, o: { secret: string | undefined; db: Db }): Response {
  const denied = authFailure(checkBearer(request, o.secret));
  if (denied) return denied;
  const id = z.coerce.number().int().positive().safeParse(idParam);
  if (!id.success) return Response.json({ error: "bad_request", message: "Round ids are positive integers." }, { status: 400 });
  const round = getRound(o.db, id.data);
  if (!round) return Response.json({ error: "not_found", message: `No round ${id.data}.` }, { status: 404 });
  return Response.json(round, { headers: noStore });
}

export function getServers(request: Request, db: Db): Response {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = ServerListParams.safeParse(params);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return Response.json(
      { error: "bad_request", message: `${i?.path.join(".") || "query"}: ${i?.message ?? "invalid"}` },
      { status: 400 },
    );
  }
  return Response.json(listServers(db, listQueryOf(parsed.data)), { headers: noStore });
}

/** GET /api/servers/<name>: the server's latest checks, history and response times. */
export function getServer(name: string, db: Db): Response {
  const detail = getServerDetail(db, name);
  if (!detail) {
    return Response.json({ error: "not_found", message: `No server named ${JSON.stringify(name)} is known.` }, { status: 404, headers: noStore });
  }
  // Checks keyed by id (CHECK_IDS order), like the probe CLI's --json report.
  const checks = Object.fromEntries(detail.checks.map((c) => [c.check, c]));
  const history = serverHistory(db, name, new Date());
  return Response.json({ ...detail, checks, history: history?.days ?? [], responseTimes: history?.responseTimes ?? null }, { headers: noStore });
}

export function health(db: Db): Response {
  try {
    return Response.json({ ok: true, ...healthFacts(db) }, { headers: noStore });
  } catch (e) {
    return Response.json({ ok: false, error: (e as Error).message }, { status: 503, headers: noStore });
  }
}

/** GET /api/status for an outside monitor: 503 while any alert is open, 200 otherwise. */
export function status(db: Db, now: Date = new Date()): Response {
  const body = siteStatus(db, now);
  return Response.json(body, { status: body.alerts.length > 0 ? 503 : 200, headers: noStore });
}

/** GET /api/cross-reads: the latest day's cross-read outcomes. */
export function crossReads(db: Db): Response {
  return Response.json(latestCrossReads(db), { headers: noStore });
}
