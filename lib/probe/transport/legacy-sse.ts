import { isResponseLike, parseJson, type RpcRequest } from "../jsonrpc";
import { describeAnswer, finishAnswer, SseAnswerPicker, type RpcAnswer } from "../rpc";
import type { SseEvent } from "../sse";
import type { ExchangePhase, ProbeLimits } from "../types";
import type { HttpAnswer, HttpSession, OpenStream } from "./http";

interface Waiter {
  picker: SseAnswerPicker;
  resolve: (why?: string) => void;
}

export type OpenResult =
  | { ok: true; channel: LegacySseChannel }
  /** The GET (or the wait for `endpoint`) did not give a usable stream; `answer` is the GET's. */
  | { ok: false; answer: HttpAnswer; cause: string };

/**
 * The 2024-11-05 HTTP+SSE transport: a GET stream that names a POST endpoint in its first `endpoint`
 * event, then carries the answers to what we POST there.
 */
export class LegacySseChannel {
  private nextId = 1;
  private readonly waiters = new Map<number, Waiter>();
  private endpointSeen?: (data: string) => void;
  private ended?: string;
  private stream?: OpenStream;

  private constructor(
    private readonly http: HttpSession,
    readonly sseUrl: string,
    private readonly limits: ProbeLimits,
    public endpoint = "",
  ) {}

  static async open(http: HttpSession, sseUrl: string, limits: ProbeLimits): Promise<OpenResult> {
    const ch = new LegacySseChannel(http, sseUrl, limits);
    const endpointData = new Promise<string | null>((resolve) => {
      ch.endpointSeen = resolve;
      setTimeout(() => resolve(null), limits.headersTimeoutMs).unref();
    });
    const stream = await http.openStream({
      phase: "sse_stream",
      method: "GET",
      url: sseUrl,
      headers: { accept: "text/event-stream" },
      onEvent: (ev) => ch.onEvent(ev),
    });
    ch.stream = stream;
    const a = stream.answer;
    if (a.status === undefined) return { ok: false, answer: a, cause: `the SSE GET got no answer (${a.error})` };
    if (a.status !== 200 || !a.isSse) {
      // Read the (capped) body first: a refusal's body is evidence.
      await stream.done;
      const what =
        a.status === 200
          ? `HTTP 200 with content-type ${a.contentType || "(none)"} instead of text/event-stream`
          : describeAnswer(finishAnswer(a, undefined, undefined, limits.excerptChars), true);
      return { ok: false, answer: a, cause: `the SSE GET answered ${what}` };
    }
    void stream.done.then((r) => ch.onEnd(r.error ?? "the SSE stream ended"));
    const data = await Promise.race([endpointData, stream.done.then(() => null)]);
    if (data === null) {
      stream.close();
      return {
        ok: false,
        answer: a,
        cause: ch.ended
          ? `${ch.ended} before an endpoint event`
          : `no endpoint event arrived on the SSE stream within ${limits.headersTimeoutMs} ms`,
      };
    }
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), sseUrl);
    } catch {
      stream.close();
      return { ok: false, answer: a, cause: `the endpoint event carried an unusable URL (${data.slice(0, 80)})` };
    }
    // A stream that sends our requests to another origin would let any listing aim the probe elsewhere.
    if (endpoint.origin !== new URL(sseUrl).origin) {
      stream.close();
      return { ok: false, answer: a, cause: `the endpoint event points at another origin (${endpoint.origin}); refused` };
    }
    ch.endpoint = endpoint.toString();
    return { ok: true, channel: ch };
  }

  private onEvent(ev: SseEvent): boolean {
    if (ev.event === "endpoint") {
      this.endpointSeen?.(ev.data);
      this.endpointSeen = undefined;
      return false;
    }
    const parsed = parseJson(ev.data);
    const id = parsed.ok && isResponseLike(parsed.value) ? parsed.value.id : undefined;
    for (const [wid, w] of this.waiters) {
      if (w.picker.take(ev)) {
        this.waiters.delete(wid);
        w.resolve();
      } else if (w.picker.events >= this.limits.maxSseEvents) {
        this.waiters.delete(wid);
        w.resolve(`no answer within ${this.limits.maxSseEvents} SSE events`);
      }
      if (id === wid) break;
    }
    return false;
  }

  private onEnd(why: string): void {
    this.ended = why;
    for (const [id, w] of this.waiters) {
      this.waiters.delete(id);
      w.resolve(`${why} before the answer arrived`);
    }
  }

  async call(phase: ExchangePhase, method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
    const id = this.nextId++;
    const picker = new SseAnswerPicker(id);
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<string | undefined>((resolve) => {
      if (this.ended) return resolve(`${this.ended} before the answer arrived`);
      this.waiters.set(id, { picker, resolve });
      timer = setTimeout(() => resolve(`no answer on the SSE stream within ${this.limits.bodyTimeoutMs} ms`), this.limits.bodyTimeoutMs);
    });
    const req: RpcRequest = { jsonrpc: "2.0", id, method, params };
    const post = await this.http.send({
      phase,
      method: "POST",
      url: this.endpoint,
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify(req),
    });
    const direct = finishAnswer(post, id, undefined, this.limits.excerptChars);
    // A refusal or an inline answer on the POST itself is the answer; otherwise it comes on the stream.
    if (post.status === undefined || post.status >= 300 || direct.json !== undefined) {
      this.waiters.delete(id);
      clearTimeout(timer);
      return direct;
    }
    const why = await arrived;
    clearTimeout(timer);
    this.waiters.delete(id);
    const answer = finishAnswer({ ...post, isSse: true }, id, picker, this.limits.excerptChars);
    if (!picker.best && why) {
      answer.jsonError = why;
      post.exchange.error = why;
    }
    return answer;
  }

  async notify(phase: ExchangePhase, method: string): Promise<HttpAnswer> {
    return this.http.send({
      phase,
      method: "POST",
      url: this.endpoint,
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method }),
    });
  }

  /** The GET stream's exchange, evidence for the handshake. */
  get streamSeq(): number {
    return this.stream?.answer.seq ?? 0;
  }

  close(): void {
    this.stream?.close();
  }
}
