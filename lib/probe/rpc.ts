import { MODERN_REVISION } from "./protocol";
import { describeId, isResponseLike, looseError, modernMeta, parseJson, type RpcRequest } from "./jsonrpc";
import type { HttpAnswer, HttpSession } from "./transport/http";
import type { SseEvent } from "./sse";
import type { ExchangePhase } from "./types";

/** An HTTP answer read as JSON-RPC. */
export interface RpcAnswer extends HttpAnswer {
  /** The JSON-RPC request id we sent. */
  requestId?: number;
  /** The parsed JSON body, or the JSON of the SSE event that answered. */
  json?: unknown;
  /** Why the body is not JSON, when it is not. */
  jsonError?: string;
  via: "json" | "sse" | "none";
  /** True when the answer's id equals ours. */
  idMatched: boolean;
}

export const JSON_AND_SSE = "application/json, text/event-stream";

/** Picks the answer to `id` from SSE events; remembers the first other response in case none matches. */
export class SseAnswerPicker {
  matched?: { json: unknown; data: string };
  other?: { json: unknown; data: string };
  events = 0;
  constructor(private readonly id: number) {}

  /** True once the answer to our id arrived. */
  take(ev: SseEvent): boolean {
    this.events++;
    const parsed = parseJson(ev.data);
    if (!parsed.ok || !isResponseLike(parsed.value)) return false; // notifications, server requests, noise
    if (parsed.value.id === this.id) {
      this.matched = { json: parsed.value, data: ev.data };
      return true;
    }
    this.other ??= { json: parsed.value, data: ev.data };
    return false;
  }

  get best(): { json: unknown; data: string } | undefined {
    return this.matched ?? this.other;
  }
}

/** Fills the JSON view of an answer from its body (JSON) or from the picked SSE event. */
export function finishAnswer(a: HttpAnswer, id: number | undefined, picker: SseAnswerPicker | undefined, excerptChars: number): RpcAnswer {
  const out: RpcAnswer = { ...a, requestId: id, via: "none", idMatched: false };
  if (a.status === undefined) return out;
  if (a.isSse && picker) {
    const best = picker.best;
    if (best) {
      out.json = best.json;
      out.via = "sse";
      out.idMatched = picker.matched !== undefined;
      a.exchange.sseAnswer = best.data.slice(0, excerptChars);
    } else {
      out.jsonError = a.error ?? `an SSE stream with no JSON-RPC answer (${picker.events} events)`;
    }
    return out;
  }
  const parsed = parseJson(a.text);
  if (parsed.ok) {
    out.json = parsed.value;
    out.via = "json";
    out.idMatched = isResponseLike(parsed.value) && parsed.value.id === id;
  } else {
    out.jsonError = parsed.error;
  }
  return out;
}

/** A short noun phrase for what an answer's body is, for reasons: "an HTML page", "-32600 under id \"server-error\"". */
export function describeBody(a: RpcAnswer, withMessage = false): string {
  if (a.status === undefined) return `no answer (${a.error ?? "unknown error"})`;
  if (a.status >= 300 && a.status < 400) {
    const loc = a.headers["location"];
    return loc ? `a redirect to ${loc} (not followed)` : "a redirect (not followed)";
  }
  if (a.failure && a.json === undefined) return `a body that could not be read (${a.error})`;
  const err = looseError(a.json);
  if (err) {
    const idPart = a.requestId !== undefined && err.id !== a.requestId ? ` under id ${describeId(err.id)}` : "";
    const msg = withMessage && err.message ? ` ("${excerpt(err.message, 100)}")` : "";
    return `${err.code}${idPart}${msg}`;
  }
  if (a.json !== undefined) {
    const v = a.json;
    if (typeof v === "object" && v !== null && !Array.isArray(v) && "result" in v) {
      const r = (v as { result: unknown }).result;
      if (typeof r === "object" && r !== null && !Array.isArray(r) && Object.keys(r).length === 0) return "an empty result";
      return "a JSON-RPC result";
    }
    if (Array.isArray(v)) return "a JSON array";
    if (typeof v === "object" && v !== null && !("jsonrpc" in v)) {
      return withMessage ? `JSON without a jsonrpc field (${excerpt(a.text, 60)})` : "JSON that is not JSON-RPC";
    }
    if (typeof v === "object" && v !== null && "error" in v) return "an error object without an integer code and a string message";
    if (typeof v !== "object" || v === null) return `a bare JSON ${v === null ? "null" : typeof v}`;
    return "JSON that is not a JSON-RPC response";
  }
  if (a.isSse) return a.jsonError ?? "an SSE stream with no answer";
  if (a.jsonError?.startsWith("JSON nested")) return `${a.jsonError}, which the probe refuses to read`;
  const text = a.text.trim();
  if (text === "") return a.error ? `an unreadable body (${a.error})` : "an empty body";
  if (a.contentType.includes("html") || text.startsWith("<")) return "an HTML page";
  if (/\n\s+at .+:\d+/.test(text) || /Traceback \(most recent call last\)/.test(text)) return "a stack trace";
  return `a non-JSON ${a.contentType.split(";")[0] || "untyped"} body (${excerpt(text, 60)})`;
}

/** "HTTP 400 with -32600 under id \"server-error\"", "no answer (connection refused)". */
export function describeAnswer(a: RpcAnswer, withMessage = false): string {
  if (a.status === undefined) return describeBody(a);
  return `HTTP ${a.status} with ${describeBody(a, withMessage)}`;
}

export function excerpt(text: string, n: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

// ---- channels ---------------------------------------------------------------------------------

/** How requests are framed once the era is known. */
export type StreamableMode = { kind: "modern" } | { kind: "legacy"; protocolVersion?: string; sessionId?: string };

/** One Streamable HTTP endpoint, spoken in the current mode. */
export class StreamableChannel {
  private nextId = 1;
  mode: StreamableMode = { kind: "modern" };

  constructor(
    private readonly http: HttpSession,
    readonly url: string,
    private readonly excerptChars: number,
  ) {}

  private headersFor(method: string, name?: string): Record<string, string> {
    const h: Record<string, string> = { accept: JSON_AND_SSE, "content-type": "application/json" };
    if (this.mode.kind === "modern") {
      h["mcp-protocol-version"] = MODERN_REVISION;
      h["mcp-method"] = method;
      if (name !== undefined) h["mcp-name"] = name;
    } else {
      // Legacy: the version header only after initialize agreed one; the session id echoed when minted.
      if (this.mode.protocolVersion) h["mcp-protocol-version"] = this.mode.protocolVersion;
      if (this.mode.sessionId) h["mcp-session-id"] = this.mode.sessionId;
    }
    return h;
  }

  async call(phase: ExchangePhase, method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
    const id = this.nextId++;
    const p = this.mode.kind === "modern" ? { ...params, _meta: modernMeta() } : params;
    const req: RpcRequest = { jsonrpc: "2.0", id, method, params: p };
    const name = method === "tools/call" && typeof params.name === "string" ? params.name : undefined;
    const picker = new SseAnswerPicker(id);
    const a = await this.http.send({
      phase,
      method: "POST",
      url: this.url,
      headers: this.headersFor(method, name),
      body: JSON.stringify(req),
      onEvent: (ev) => picker.take(ev),
    });
    return finishAnswer(a, id, picker, this.excerptChars);
  }

  async notify(phase: ExchangePhase, method: string): Promise<HttpAnswer> {
    const body = JSON.stringify({ jsonrpc: "2.0", method });
    return this.http.send({ phase, method: "POST", url: this.url, headers: this.headersFor(method), body });
  }

  /** Ends a legacy session; servers may answer 405, which is fine. */
  async endSession(): Promise<void> {
    if (this.mode.kind !== "legacy" || !this.mode.sessionId) return;
    const headers: Record<string, string> = { "mcp-session-id": this.mode.sessionId };
    if (this.mode.protocolVersion) headers["mcp-protocol-version"] = this.mode.protocolVersion;
    await this.http.send({ phase: "session_end", method: "DELETE", url: this.url, headers });
  }
}
