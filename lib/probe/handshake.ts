import { LEGACY_REVISIONS, MODERN_REVISION, SUPPORTED_VERSIONS_FIELDS } from "./protocol";
import type { ProbeContext } from "./context";
import { CLIENT_INFO, DiscoverResult, InitializeResult, isModernDecline, looseError } from "./jsonrpc";
import { describeAnswer, type RpcAnswer, type StreamableChannel } from "./rpc";
import type { HttpAnswer } from "./transport/http";
import type { LegacySseChannel } from "./transport/legacy-sse";
import type { ExchangePhase, HandshakeOutcome } from "./types";

/** Where the modern attempt left us: decided, or sent to initialize with the clause that explains why. */
export type ModernStep = { decided: HandshakeOutcome } | { fallback: string; seqs: number[] };

function resultOf(a: RpcAnswer): Record<string, unknown> | undefined {
  const v = a.json;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const r = (v as Record<string, unknown>).result;
  return typeof r === "object" && r !== null && !Array.isArray(r) ? (r as Record<string, unknown>) : undefined;
}

/** A -32020/-32021/-32022 in the body (any status, JSON or SSE), as a declined outcome. */
export function modernDecline(a: RpcAnswer, method: string): HandshakeOutcome | null {
  const err = looseError(a.json);
  if (!err || !isModernDecline(err.code) || a.status === undefined) return null;
  const out: HandshakeOutcome = { kind: "declined", code: err.code, message: err.message, status: a.status, seq: a.seq, method };
  // architecture.md §2.8: `data.supportedVersions` has been seen where the spec says `data.supported`; both are read.
  const data = err.data as Record<string, unknown> | null | undefined;
  for (const field of SUPPORTED_VERSIONS_FIELDS) {
    const supported = typeof data === "object" && data !== null ? data[field] : undefined;
    if (Array.isArray(supported) && supported.length && supported.every((s) => typeof s === "string")) {
      out.supported = supported as string[];
      break;
    }
  }
  return out;
}

function slowDownOutcome(ctx: ProbeContext): HandshakeOutcome | null {
  return ctx.slowDown ? { kind: "slow_down", slowDown: ctx.slowDown } : null;
}

/** architecture.md §2.1 steps 1–7: server/discover in the 2026-07-28 shape, and what its answer means. */
export async function discover(ctx: ProbeContext, ch: StreamableChannel): Promise<ModernStep> {
  const a = await ch.call("discover", "server/discover");
  ctx.note(a, "discover");
  const seqs = [a.seq];
  const slow = slowDownOutcome(ctx);
  if (slow) return { decided: { ...slow, seqs } };
  const declined = modernDecline(a, "server/discover");
  if (declined) return { decided: { ...declined, seqs } };
  const status = a.status;
  if (status === undefined) return { decided: { kind: "failed", cause: `server/discover got no answer (${a.error})`, seq: a.seq, seqs } };
  // Out of time mid-body: whatever the status, nothing more may be sent.
  if (a.failure === "deadline")
    return { decided: { kind: "failed", cause: `server/discover answered ${describeAnswer(a)}`, seq: a.seq, seqs } };
  // architecture.md §2.1.12: a 4xx is a refusal whatever became of its body (truncated, badly encoded, reset),
  // and it is not one of the three codes we never saw: fall back. Any status, any id, any body (seed 003).
  if (status >= 400 && status < 500) return { fallback: `server/discover answered ${describeAnswer(a)}`, seqs };
  // A 2xx/3xx/5xx cut short (a cap, a broken encoding, a reset, a stall) is a transfer failure, not a
  // "2xx non-discover" answer: we never saw what it said.
  if (a.failure) return { decided: { kind: "failed", cause: `server/discover answered ${describeAnswer(a)}`, seq: a.seq, seqs } };
  if (status >= 200 && status < 300) {
    const result = resultOf(a);
    const parsed = result ? DiscoverResult.safeParse(result) : undefined;
    const info = parsed?.success ? parsed.data._meta?.["io.modelcontextprotocol/serverInfo"] : undefined;
    const serverInfo = {
      ...(isServerInfo(info) ? { serverInfo: info } : {}),
      ...(parsed?.success && parsed.data.instructions !== undefined ? { instructions: parsed.data.instructions } : {}),
    };
    if (parsed?.success && parsed.data.supportedVersions.includes(MODERN_REVISION)) {
      return {
        decided: {
          kind: "modern",
          protocolVersion: MODERN_REVISION,
          supportedVersions: parsed.data.supportedVersions,
          ...serverInfo,
          seq: a.seq,
          seqs,
        },
      };
    }
    // architecture.md §2.1.11: only newer revisions is a modern server we cannot speak to, not a legacy signal.
    if (parsed?.success && onlyNewer(parsed.data.supportedVersions)) {
      return { decided: { kind: "discovered_newer", supportedVersions: parsed.data.supportedVersions, ...serverInfo, seq: a.seq, seqs } };
    }
    // Suite 0.10.0: a 2xx that is not a discover result sends us to initialize.
    return { fallback: `server/discover answered HTTP ${status} with ${discoverMiss(a, result)}`, seqs };
  }
  return { decided: { kind: "failed", cause: `server/discover answered ${describeAnswer(a, true)}`, seq: a.seq, seqs } };
}

function discoverMiss(a: RpcAnswer, result: Record<string, unknown> | undefined): string {
  if (!result || looseError(a.json)) return describeAnswer(a).replace(/^HTTP \d+ with /, "");
  const sv = result.supportedVersions;
  if (sv === undefined) return Object.keys(result).length === 0 ? "an empty result" : "a result without supportedVersions";
  if (!Array.isArray(sv) || !sv.every((v) => typeof v === "string")) return "a result whose supportedVersions is not a list of strings";
  if (sv.length === 0) return "a result with an empty supportedVersions";
  return `a result listing only ${sv.join(", ")}`;
}

/** Revisions are ISO dates, so string order is time order. */
function onlyNewer(versions: readonly string[]): boolean {
  return versions.length > 0 && versions.every((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && v > MODERN_REVISION);
}

function isServerInfo(v: unknown): v is { name?: string; version?: string } {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A 401 that ends the handshake: the credential gate, or a refusal with no (readable) instructions. */
function refusal401(ctx: ProbeContext, a: HttpAnswer, phase: ExchangePhase, seqs: number[]): HandshakeOutcome {
  const seen = ctx.challengeOf(a, phase);
  if (seen) return { kind: "credential_gate", challenge: seen, seqs };
  const broken = ctx.brokenChallengeOf(a, phase);
  const header = broken ? { header: { value: broken.header, problem: broken.problem } } : {};
  return { kind: "refused_no_challenge", phase, status: 401, ...header, seq: a.seq, seqs };
}

type InitOk = {
  ok: true;
  protocolVersion: string;
  common: boolean;
  serverInfo?: { name?: string; version?: string };
  instructions?: string;
  answer: RpcAnswer;
};

/** The answer that ends the handshake decides (architecture.md §2.1.8). */
function judgeInitialize(
  ctx: ProbeContext,
  a: RpcAnswer,
  phase: ExchangePhase,
  fallbackCause: string | undefined,
  seqs: number[],
): InitOk | { ok: false; outcome: HandshakeOutcome } {
  const fb = fallbackCause !== undefined ? { fallbackCause } : {};
  const slow = slowDownOutcome(ctx);
  if (slow) return { ok: false, outcome: { ...slow, seqs } };
  const result = resultOf(a);
  if (a.status !== undefined && a.status >= 200 && a.status < 300 && result && !looseError(a.json)) {
    const parsed = InitializeResult.safeParse(result);
    if (parsed.success) {
      const v = parsed.data.protocolVersion;
      const common = (LEGACY_REVISIONS as readonly string[]).includes(v);
      const instructions = parsed.data.instructions !== undefined ? { instructions: parsed.data.instructions } : {};
      return { ok: true, protocolVersion: v, common, serverInfo: parsed.data.serverInfo, ...instructions, answer: a };
    }
  }
  if (a.status === 401) return { ok: false, outcome: { ...refusal401(ctx, a, phase, seqs), ...fb } };
  const what = a.status === undefined ? `initialize got ${describeAnswer(a)}` : `initialize answered ${describeAnswer(a, true)}`;
  const detail = a.status !== undefined && resultOf(a) ? `${what}, which is not a valid InitializeResult` : what;
  return { ok: false, outcome: { kind: "failed", cause: detail, ...fb, seq: a.seq, seqs } };
}

export const initializeParams = () => ({ protocolVersion: LEGACY_REVISIONS[0], capabilities: {}, clientInfo: { ...CLIENT_INFO } });

/** The one legacy fallback on Streamable HTTP: initialize, then notifications/initialized. */
export async function legacyInitialize(
  ctx: ProbeContext,
  ch: StreamableChannel,
  fallbackCause: string,
  priorSeqs: number[],
  late = false,
): Promise<HandshakeOutcome> {
  ch.mode = { kind: "legacy" };
  const a = await ch.call("initialize", "initialize", initializeParams());
  ctx.note(a, "initialize");
  const seqs = [...priorSeqs, a.seq];
  const j = judgeInitialize(ctx, a, "initialize", fallbackCause, seqs);
  if (!j.ok) return j.outcome;
  // Header names are case-insensitive; undici lower-cases them for us.
  const sessionId = a.headers["mcp-session-id"];
  ch.mode = { kind: "legacy", ...(j.common ? { protocolVersion: j.protocolVersion } : {}), ...(sessionId ? { sessionId } : {}) };
  if (j.common) await sendInitialized(ctx, (p, m) => ch.notify(p, m), seqs);
  return {
    kind: "legacy",
    protocolVersion: j.protocolVersion,
    common: j.common,
    ...(j.serverInfo ? { serverInfo: j.serverInfo } : {}),
    ...(j.instructions !== undefined ? { instructions: j.instructions } : {}),
    ...(sessionId ? { sessionId } : {}),
    fallbackCause,
    ...(late ? { lateFallback: true } : {}),
    seq: a.seq,
    seqs,
  };
}

async function sendInitialized(
  ctx: ProbeContext,
  notify: (phase: ExchangePhase, method: string) => Promise<HttpAnswer>,
  seqs: number[],
): Promise<void> {
  if (ctx.stopped) return;
  const n = await notify("initialized", "notifications/initialized");
  ctx.note(n, "initialized");
  seqs.push(n.seq);
}

/** architecture.md §2.1.10: the 2024-11-05 transport's handshake, on an open stream. */
export async function sseInitialize(ctx: ProbeContext, ch: LegacySseChannel, streamSeq: number): Promise<HandshakeOutcome> {
  const a = await ch.call("initialize", "initialize", { ...initializeParams(), protocolVersion: "2024-11-05" });
  ctx.note(a, "initialize");
  const seqs = [streamSeq, a.seq];
  const j = judgeInitialize(ctx, a, "initialize", undefined, seqs);
  if (!j.ok) return j.outcome;
  if (j.common) await sendInitialized(ctx, (p, m) => ch.notify(p, m), seqs);
  return {
    kind: "sse",
    protocolVersion: j.protocolVersion,
    common: j.common,
    ...(j.serverInfo ? { serverInfo: j.serverInfo } : {}),
    ...(j.instructions !== undefined ? { instructions: j.instructions } : {}),
    seq: a.seq,
    seqs,
  };
}

/** The SSE GET itself refused: slow down, credential gate, refusal without instructions, or failure. */
export function sseOpenFailed(ctx: ProbeContext, a: HttpAnswer, cause: string): HandshakeOutcome {
  ctx.note(a, "sse_stream");
  const seqs = [a.seq];
  const slow = slowDownOutcome(ctx);
  if (slow) return { ...slow, seqs };
  if (a.status === 401) return refusal401(ctx, a, "sse_stream", seqs);
  return { kind: "failed", cause, seq: a.seq, seqs };
}
