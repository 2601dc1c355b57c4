import type { Db } from "@/db/client";
import type { CheckId } from "@/lib/vocabulary/checks";
import { RoundId, type ApiShape } from "@/lib/api/schemas";
import type { StartResult } from "@/lib/rounds/round";
import { serverHistory } from "@/app/_lib/history";
import { overallOf } from "@/lib/checks/overall";
import type { TextAnswer } from "@/lib/site/answer";
import { crossReadSentence } from "@/lib/site/cross-read";
import { listQueryOf, ServerListParams } from "@/lib/site/query";
import { certificateView } from "@/lib/site/certificate";
import { hintSentence } from "@/lib/checks/hints";
import { withSentence } from "@/lib/checks/observation-text";
import { latestObservationsByName } from "@/lib/store/observations";
import { sameServerVersion } from "@/lib/store/tools";
import { healthFacts } from "@/lib/store/health";
import { getServerDetail } from "@/lib/store/servers/detail";
import { listServers } from "@/lib/store/servers/list";
import { incidentList } from "@/lib/store/incidents";
import { serverUptime } from "@/lib/store/uptime";
import { latestRoundRegions, regionUptime } from "@/lib/store/regions";
import { serverIdByName } from "@/lib/store/history";
import { regionalNoteSentence } from "@/lib/site/regions";
import { ownerViewAnswer } from "@/lib/site/owners";
import { ownerView } from "@/lib/store/owners";
import { getRound } from "@/lib/store/rounds";
import { latestCrossReads, siteStatus } from "@/lib/rounds/alerts/status";
import { authFailure, checkBearer } from "./auth";
import { refuseWhileUnwritable, unwritableAnswer } from "./unwritable";

// Route logic with its dependencies as parameters: route.ts files wire in the process config, tests pass their own.
// Every JSON answer is typed by its schema in lib/api/schemas (the source of /api/openapi.json).

const noStore = { "cache-control": "no-store" };

/** A method the route does not serve: 405 with the ones it does in Allow (RFC 9110 §15.5.6), and `message` saying which to use. */
export function methodNotAllowed(allow: readonly string[], message: string): Response {
  return Response.json({ error: "method_not_allowed", message } satisfies ApiShape<"ErrorAnswer">, {
    status: 405,
    headers: { ...noStore, allow: allow.join(", ") },
  });
}

export function postRound(
  request: Request,
  options: { secret: string | undefined; db: Db; start: () => StartResult; background: (p: Promise<unknown>) => void },
): Response {
  const denied = authFailure(checkBearer(request, options.secret));
  if (denied) return denied;
  const refused = refuseWhileUnwritable(options.db);
  if (refused) return refused;
  let r: StartResult;
  try {
    r = options.start();
  } catch (e) {
    const unwritable = unwritableAnswer(options.db, e);
    if (unwritable) return unwritable;
    throw e;
  }
  if (!r.started) {
    return Response.json({ error: "already_running", id: r.roundId, message: r.reason } satisfies ApiShape<"RoundRunning">, {
      status: 409,
      headers: noStore,
    });
  }
  options.background(r.done);
  return Response.json({ id: r.roundId, status: "running", progress: `/api/rounds/${r.roundId}` } satisfies ApiShape<"RoundStarted">, {
    status: 202,
    headers: noStore,
  });
}

export function getRoundStatus(request: Request, idParam: string, options: { secret: string | undefined; db: Db }): Response {
  const denied = authFailure(checkBearer(request, options.secret));
  if (denied) return denied;
  const id = RoundId.safeParse(idParam);
  if (!id.success)
    return Response.json({ error: "bad_request", message: "Round ids are positive integers." } satisfies ApiShape<"ErrorAnswer">, {
      status: 400,
    });
  const round = getRound(options.db, id.data);
  if (!round)
    return Response.json({ error: "not_found", message: `No round ${id.data}.` } satisfies ApiShape<"ErrorAnswer">, { status: 404 });
  return Response.json(round satisfies ApiShape<"RoundAnswer">, { headers: noStore });
}

export function getServers(request: Request, db: Db): Response {
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = ServerListParams.safeParse(params);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return Response.json(
      { error: "bad_request", message: `${i?.path.join(".") || "query"}: ${i?.message ?? "invalid"}` } satisfies ApiShape<"ErrorAnswer">,
      { status: 400 },
    );
  }
  return Response.json(listServers(db, listQueryOf(parsed.data)) satisfies ApiShape<"ServerListAnswer">, { headers: noStore });
}

/** Results keyed by check id, typed per id (Object.fromEntries would leave the values unchecked against the schema). */
function byCheck<T extends { check: CheckId }>(results: T[]): Partial<Record<CheckId, T>> {
  const out: Partial<Record<CheckId, T>> = {};
  for (const r of results) out[r.check] = r;
  return out;
}

const SERVER_JSON_INCIDENTS = 100;

/** The JSON answer for one server (its latest checks, history, response times, uptime and incidents), as text. */
export function serverAnswer(name: string, db: Db): TextAnswer {
  const detail = getServerDetail(db, name);
  if (!detail) {
    const body = JSON.stringify({
      error: "not_found",
      message: `No server named ${JSON.stringify(name)} is known.`,
    } satisfies ApiShape<"ErrorAnswer">);
    return { status: 404, contentType: "application/json", body };
  }
  // Checks keyed by id (CHECK_IDS order), like the probe CLI's --json report.
  // `hint` is the sentence (architecture.md §2.8), `hintCode` the misconfiguration it names.
  const checks = byCheck(
    detail.checks.map(({ hint, ...c }) => ({ ...c, hint: hint ? hintSentence(hint) : null, hintCode: hint?.code ?? null })),
  );
  const now = new Date();
  const history = serverHistory(db, name, now);
  const certificate = certificateView(detail.latestRun?.certificate, now);
  // The overall state (architecture.md §2) with the check that decided it and that check's reason (absent when Verified).
  const o = overallOf(detail.checks);
  const overall = {
    overall: o?.state ?? null,
    overallCause: o?.cause ?? null,
    overallCheck: o?.check ?? null,
    overallReason: o?.reason ?? null,
  };
  // architecture.md §4: uptime per window, and the latest incidents (most recent first) without the server's own name.
  const uptime = serverUptime(db, name, now);
  const incidents = incidentList(db, { server: name, limit: SERVER_JSON_INCIDENTS }).rows.map(({ serverName: _, ...i }) => i);
  const crossRead = detail.crossRead && { ...detail.crossRead, sentence: crossReadSentence(detail.crossRead) };
  // architecture.md §8: each region's read in the latest round, how they voted, and uptime per region.
  const round = latestRoundRegions(db, detail.latestRun?.id ?? null, detail.checks);
  const quorum = round.quorum && { ...round.quorum, note: round.quorum.note ? regionalNoteSentence(round.quorum.note) : null };
  const serverId = serverIdByName(db, name);
  const uptimeFrom = new Date(now.getTime() - 30 * 86_400_000).toISOString();
  const regionUptimes = serverId === null ? [] : regionUptime(db, serverId, uptimeFrom);
  // architecture.md §2.9: facts about the latest complete read's tool definitions, and changes under one serverInfo.version.
  const observations = latestObservationsByName(db, name).map(withSentence);
  const toolChanges = detail.toolChanges.map((c) => ({ ...c, sameServerVersion: sameServerVersion(c) }));
  // The clients verdict's codes and facts are for the page's two languages; the JSON carries `clients`' sentences.
  const { clientsVerdict: _verdict, ...fields } = detail;
  const body = JSON.stringify({
    ...fields,
    ...overall,
    checks,
    certificate,
    crossRead,
    toolChanges,
    observations,
    history: history?.days ?? [],
    responseTimes: history?.responseTimes ?? null,
    uptime,
    // architecture.md §11: the owner's view beside the public checks; never a value.
    ownerView: ownerViewAnswer(serverId === null ? null : ownerView(db, serverId, now)),
    incidents,
    regions: round.regions.map(({ runId: _, ...r }) => r),
    quorum,
    regionUptime: regionUptimes.map((u) => ({ ...u, ratio: u.reached > 0 ? u.up / u.reached : null, from: uptimeFrom })),
  } satisfies ApiShape<"ServerAnswer">);
  return { status: 200, contentType: "application/json", body };
}

/** GET /api/servers/<name>. */
export function getServer(name: string, db: Db): Response {
  const answer = serverAnswer(name, db);
  return new Response(answer.body, { status: answer.status, headers: { "content-type": answer.contentType, ...noStore } });
}

export function health(db: Db): Response {
  try {
    return Response.json({ ok: true, ...healthFacts(db) } satisfies ApiShape<"HealthAnswer">, { headers: noStore });
  } catch (e) {
    return Response.json({ ok: false, error: (e as Error).message } satisfies ApiShape<"HealthFailure">, { status: 503, headers: noStore });
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
