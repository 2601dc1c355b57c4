// architecture.md §2.10: after a modern handshake, the one legacy handshake an initialize-first client makes (the TypeScript
// SDK by default, the MCP Inspector, every 2025-era client): initialize, notifications/initialized, the first tools/list
// page, and the session's DELETE only when the server handed out a session. Nothing else: no SSE GET, no second page.
import { LEGACY_REVISIONS } from "./protocol";
import type { ProbeContext } from "./context";
import { initializeParams } from "./handshake";
import { isSlowDown, rateLimited } from "./host-gate";
import { InitializeResult, looseError, parseJson } from "./jsonrpc";
import { describeBody, excerpt, StreamableChannel, type RpcAnswer } from "./rpc";
import type { HttpAnswer } from "./transport/http";
import type { AnswerFacts, ClientMethod, Exchange, ExchangePhase, InitializeFirstRead, ProbeObservation } from "./types";

type Outcome = InitializeFirstRead["outcome"];

/** The facts of an answer a sentence names: status, JSON-RPC code and message, else what the body was. */
export function answerFacts(a: RpcAnswer): AnswerFacts {
  if (a.status === undefined) return { body: excerpt(describeBody(a), 300) };
  const err = looseError(a.json);
  if (err) return { status: a.status, rpcCode: err.code, ...(err.message ? { message: excerpt(err.message, 160) } : {}) };
  return { status: a.status, body: excerpt(describeBody(a), 300) };
}

/** The same facts read back from a stored exchange (its JSON body or the SSE event that answered). */
export function exchangeFacts(x: Exchange): AnswerFacts {
  if (x.status === undefined) return { body: `no answer (${x.error ?? "unknown error"})` };
  const text = x.sseAnswer ?? x.bodyExcerpt ?? "";
  const parsed = parseJson(text);
  const err = parsed.ok ? looseError(parsed.value) : null;
  if (err) return { status: x.status, rpcCode: err.code, ...(err.message ? { message: excerpt(err.message, 160) } : {}) };
  return { status: x.status };
}

/** An answer that stops the client where it is: none at all, a slow-down, a credential gate. */
function stopped(ctx: ProbeContext, a: HttpAnswer & { json?: unknown }, method: ClientMethod, phase: ExchangePhase): Outcome | null {
  if (a.status === undefined || a.failure === "deadline") {
    return a.failure === "deadline" || ctx.deadline.aborted
      ? { kind: "deadline", method }
      : { kind: "no_answer", method, cause: a.error ?? "no answer" };
  }
  if (isSlowDown(a.status, a.headers["retry-after"]) || rateLimited(a.json)) return { kind: "slow_down", method, status: a.status };
  if (a.status === 401 && ctx.challengeOf(a, phase)) return { kind: "credential_gate", method, status: a.status };
  return null;
}

const is2xx = (s: number | undefined) => s !== undefined && s >= 200 && s < 300;

async function steps(ctx: ProbeContext, ch: StreamableChannel): Promise<Outcome> {
  const init = await ch.call("initialize", "initialize", initializeParams());
  const stop = stopped(ctx, init, "initialize", "initialize");
  if (stop) return stop;
  const result = (init.json as { result?: unknown } | undefined)?.result;
  const parsed = is2xx(init.status) && !looseError(init.json) ? InitializeResult.safeParse(result) : undefined;
  if (!parsed?.success) return { kind: "refused", method: "initialize", answer: answerFacts(init) };
  const revision = parsed.data.protocolVersion;
  const sessionId = init.headers["mcp-session-id"];
  ch.mode = { kind: "legacy", ...(sessionId ? { sessionId } : {}) };
  if (!(LEGACY_REVISIONS as readonly string[]).includes(revision)) return { kind: "no_common_revision", protocolVersion: revision };
  ch.mode = { kind: "legacy", protocolVersion: revision, ...(sessionId ? { sessionId } : {}) };
  if (ctx.deadline.aborted) return { kind: "deadline", method: "notifications/initialized" };

  const note = await ch.notify("initialized", "notifications/initialized");
  const noteStop = stopped(ctx, note, "notifications/initialized", "initialized");
  if (noteStop) return noteStop;
  if (!is2xx(note.status)) return { kind: "refused", method: "notifications/initialized", answer: { status: note.status } };
  if (ctx.deadline.aborted) return { kind: "deadline", method: "tools/list" };

  const page = await ch.call("tools_list", "tools/list");
  const pageStop = stopped(ctx, page, "tools/list", "tools_list");
  if (pageStop) return pageStop;
  const r = (page.json as { result?: unknown } | undefined)?.result;
  const tools = typeof r === "object" && r !== null && !Array.isArray(r) ? (r as { tools?: unknown; nextCursor?: unknown }) : undefined;
  if (!is2xx(page.status) || looseError(page.json) || !Array.isArray(tools?.tools)) {
    return { kind: "refused", method: "tools/list", answer: answerFacts(page) };
  }
  const next = tools.nextCursor;
  return { kind: "read", protocolVersion: revision, tools: tools.tools.length, morePages: typeof next === "string" && next !== "" };
}

/** Sent only when a modern handshake decided the probe and no initialize went out yet (a late fallback already sent
 * one): a legacy server's handshake already was what an initialize-first client sends. A server that left the modern
 * tools/list without any answer (a hang, a reset) is not asked again. */
export function needsInitializeFirstRead(obs: ProbeObservation): boolean {
  if (obs.transport !== "streamable-http" || obs.handshake?.kind !== "modern") return false;
  if (obs.exchanges.some((x) => x.phase === "initialize")) return false;
  const tl = obs.toolsList;
  const first = tl?.kind === "failed" ? obs.exchanges.find((x) => x.seq === tl.seqs[0]) : undefined;
  return !(first && first.status === undefined);
}

/** The legacy handshake of an initialize-first client, on a channel of its own; never throws for what a server does. */
export async function readAsInitializeFirst(ctx: ProbeContext, url: string): Promise<InitializeFirstRead> {
  const mark = ctx.http.exchanges.length;
  const ch = new StreamableChannel(ctx.http, url, ctx.limits.excerptChars);
  ch.mode = { kind: "legacy" };
  const outcome = await steps(ctx, ch);
  // A session the server handed out is given back, as a client closing it would; without one, nothing more is sent.
  if (!ctx.deadline.aborted && outcome.kind !== "slow_down") await ch.endSession();
  return { outcome, seqs: ctx.http.exchanges.slice(mark).map((x) => x.seq) };
}
