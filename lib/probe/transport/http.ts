// All HTTP of one probe (architecture.md §5): a request, its answer read to the end or to a cap, and an Exchange
// recorded for each. What it stands on has a file each: dns.ts, certificates.ts, connections.ts, body.ts, failure.ts.
import type { LookupAddress } from "node:dns";
import type { Readable } from "node:stream";
import { request, type Agent } from "undici";
import type { AddressPolicy } from "../address-policy";
import { acquireBefore, type HostGate } from "../host-gate";
import { SseParser, type SseEvent } from "../sse";
import type { CertificateFacts, Exchange, ExchangePhase, ProbeLimits } from "../types";
import { decoded } from "./body";
import { CertificateBook, type TrustAnchors } from "./certificates";
import { guardedAgent, type SharedConnections } from "./connections";
import { PinnedNames, resolveChecked, AddressRefusedError, type DnsLookup } from "./dns";
import { describeFailure, type Failure, type FailureKind } from "./failure";
import { REDACTED } from "../../vocabulary/owners";

export interface HttpRequestSpec {
  phase: ExchangePhase;
  method: "GET" | "POST" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /**
   * Called for each SSE event when the answer is `text/event-stream`; return true once the wanted
   * event arrived, and reading stops there.
   */
  onEvent?: (ev: SseEvent) => boolean;
}

export interface HttpAnswer {
  exchange: Exchange;
  seq: number;
  /** Absent when no response arrived. */
  status?: number;
  /** Lower-cased names; repeated fields joined with ", ". */
  headers: Record<string, string>;
  /** Every WWW-Authenticate field, in order (repeated fields are kept apart for the parser). */
  wwwAuthenticate: string[];
  contentType: string;
  /** Decoded body text (up to the cap); for SSE answers, the text read until the wanted event. */
  text: string;
  isSse: boolean;
  /** Why no (complete) answer arrived. */
  error?: string;
  failure?: FailureKind;
  truncated: boolean;
}

/** A GET whose SSE body keeps flowing after this returns (the 2024-11-05 transport's stream). */
export interface OpenStream {
  answer: HttpAnswer;
  /** Resolves when the stream ends, fails, or is closed; `error` says why when it was not closed by us. */
  done: Promise<{ error?: string; failure?: FailureKind }>;
  close(): void;
}

const KEPT_HEADERS = [
  "content-type",
  "content-encoding",
  "content-length",
  "www-authenticate",
  "retry-after",
  "mcp-session-id",
  "mcp-protocol-version",
  "location",
  "allow",
  "date",
];

export interface HttpSessionOptions {
  policy: AddressPolicy;
  limits: ProbeLimits;
  userAgent: string;
  hostGate?: HostGate;
  /** Aborts every request when the per-server deadline passes. */
  deadline: AbortSignal;
  exchanges: Exchange[];
  /** DNS resolution; defaults to the system resolver (dns.lookup, every address). Tests inject names. */
  dnsLookup?: DnsLookup;
  /** A round's kept-open connections; without it the probe opens its own and closes them at its end. */
  shared?: SharedConnections;
  /** Trust anchors for the probe's own connections (tests' certificates); the shared ones bring their own. */
  ca?: TrustAnchors;
  /** An owner's headers (architecture.md §11): sent only on requests to exactly this origin, recorded as ‹redacted›. */
  ownerHeaders?: { origin: string; headers: Record<string, string> };
}

/**
 * All HTTP of one probe: an undici Agent whose DNS answers are checked and pinned (the round's shared one,
 * or one of its own), no redirects, caps on time and decompressed bytes, and an Exchange recorded for
 * every request.
 */
export class HttpSession {
  private readonly agent: Agent;
  private readonly ownsAgent: boolean;
  private readonly certificates: CertificateBook;
  private readonly names: PinnedNames;
  private seq = 0;

  constructor(private readonly o: HttpSessionOptions) {
    const shared = o.shared;
    // A failed lookup is kept too: one answer per probe, and no retry storm.
    this.names = new PinnedNames((host) => (shared ? shared.resolve(host) : resolveChecked(host, o.policy, o.dnsLookup)), true);
    this.ownsAgent = !o.shared;
    this.certificates = o.shared?.certificates ?? new CertificateBook();
    this.agent = o.shared ? o.shared.agent : guardedAgent(o.limits, (h) => this.resolve(h), 5_000, this.certificates, o.ca);
  }

  /** The certificate presented on the connection to an https URL's host, once one was made. */
  certificateFor(url: URL): CertificateFacts | undefined {
    if (url.protocol !== "https:") return undefined;
    return this.certificates.get(`${url.hostname}:${url.port || 443}`);
  }

  get exchanges(): Exchange[] {
    return this.o.exchanges;
  }

  /** The guarded Agent (checked, pinned DNS; timeouts) for a client that brings its own fetch, e.g. the
   * cross-reader; such a client must call resolve() first, since literal addresses never reach the hook. */
  get dispatcher(): Agent {
    return this.agent;
  }

  /**
   * Resolves a host once per probe and checks every answer; later connections reuse the checked
   * addresses, so a second DNS answer cannot point us elsewhere (rebinding).
   */
  resolve(hostname: string): Promise<LookupAddress[]> {
    return this.names.resolve(hostname);
  }

  /** Checks a host against the policy without sending anything; null when allowed, else why not. */
  async checkHost(hostname: string): Promise<string | null> {
    try {
      await this.resolve(hostname);
      return null;
    } catch (e) {
      if (e instanceof AddressRefusedError) return e.message;
      return null; // DNS failure: the request itself will fail and record why
    }
  }

  async close(): Promise<void> {
    if (this.ownsAgent) await this.agent.destroy().catch(() => undefined);
  }

  /** One request, its answer read to the end (or to the wanted SSE event, or a cap). */
  async send(spec: HttpRequestSpec): Promise<HttpAnswer> {
    const started = await this.start(spec, false);
    if (!started.body) return started.answer;
    await this.readBody(started.answer, started.body, spec.onEvent, started.t0);
    started.release();
    return started.answer;
  }

  /** A GET whose body is read in the background, each SSE event handed to `onEvent`. */
  async openStream(spec: HttpRequestSpec & { onEvent: (ev: SseEvent) => boolean }): Promise<OpenStream> {
    const started = await this.start(spec, true);
    const body = started.body;
    if (!body) return { answer: started.answer, done: Promise.resolve({ error: started.answer.error }), close: () => undefined };
    let closed = false;
    const done = this.readBody(started.answer, body, spec.onEvent, started.t0, () => closed).then(() =>
      closed ? {} : { error: started.answer.error ?? "the stream ended", failure: started.answer.failure },
    );
    return {
      answer: started.answer,
      done,
      close: () => {
        closed = true;
        body.destroy();
      },
    };
  }

  /** The owner's headers when `url` is on exactly their origin (scheme, host and port); never across a redirect (none is
   * followed) and never to a metadata host elsewhere. */
  private ownerHeadersFor(url: string): Record<string, string> | null {
    const owner = this.o.ownerHeaders;
    if (!owner) return null;
    try {
      return new URL(url).origin === owner.origin ? owner.headers : null;
    } catch {
      return null;
    }
  }

  private newExchange(spec: HttpRequestSpec, headers: Record<string, string>): Exchange {
    const ex: Exchange = {
      seq: ++this.seq,
      phase: spec.phase,
      method: spec.method,
      url: spec.url,
      requestHeaders: headers,
      responseHeaders: {},
      durationMs: 0,
    };
    if (spec.body !== undefined) ex.requestBody = spec.body.slice(0, this.o.limits.excerptChars);
    this.o.exchanges.push(ex);
    return ex;
  }

  private async start(
    spec: HttpRequestSpec,
    stream: boolean,
  ): Promise<{ answer: HttpAnswer; body?: Readable; release: () => void; t0: number }> {
    const headers: Record<string, string> = {
      "user-agent": this.o.userAgent,
      "accept-encoding": "gzip, deflate, br",
      ...spec.headers,
    };
    const owner = this.ownerHeadersFor(spec.url);
    const ex = this.newExchange(
      spec,
      owner ? { ...headers, ...Object.fromEntries(Object.keys(owner).map((n) => [n, REDACTED])) } : headers,
    );
    const answer: HttpAnswer = {
      exchange: ex,
      seq: ex.seq,
      headers: {},
      wwwAuthenticate: [],
      contentType: "",
      text: "",
      isSse: false,
      truncated: false,
    };
    const t0 = performance.now();
    const fail = (err: unknown): { answer: HttpAnswer; release: () => void; t0: number } => {
      const { message, kind, network, code } = this.failure(err);
      answer.error = message;
      answer.failure = kind;
      ex.error = message;
      // No status arrived: a network-level cause is recorded as such (a reset mid-body is not one).
      if (network) ex.network = network;
      if (code) ex.errorCode = code;
      ex.durationMs = Math.round(performance.now() - t0);
      return { answer, release: () => undefined, t0 };
    };

    let url: URL;
    try {
      url = new URL(spec.url);
    } catch {
      return fail(new Error(`invalid URL ${spec.url}`));
    }
    if (this.o.deadline.aborted) return fail(this.o.deadline.reason);
    let release: () => void = () => undefined;
    try {
      // Literal addresses never reach the lookup hook, so they are checked here.
      await this.resolve(url.hostname);
      if (this.o.hostGate) release = await acquireBefore(this.o.hostGate, url.host, this.o.deadline);
      const res = await request(url, {
        method: spec.method,
        headers: owner ? { ...headers, ...owner } : headers,
        body: spec.body,
        dispatcher: this.agent,
        signal: this.o.deadline,
      });
      answer.status = res.statusCode;
      ex.status = res.statusCode;
      this.o.hostGate?.answered?.(url.host, res.statusCode, headerValue(res.headers["retry-after"]));
      for (const [name, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        const values = Array.isArray(value) ? value : [value];
        answer.headers[name] = values.join(", ");
        if (name === "www-authenticate") answer.wwwAuthenticate = values;
        if (KEPT_HEADERS.includes(name)) ex.responseHeaders[name] = answer.headers[name]!;
      }
      answer.contentType = (answer.headers["content-type"] ?? "").toLowerCase();
      answer.isSse = answer.contentType.startsWith("text/event-stream");
      if (stream) {
        // The stream lives on while we POST to the same host, so it cannot hold the gate.
        release();
        release = () => undefined;
      }
      return { answer, body: res.body as unknown as Readable, release, t0 };
    } catch (err) {
      release();
      return fail(err);
    }
  }

  /** Reads a body, decoding and capping it; fills the answer and the exchange. */
  private async readBody(
    answer: HttpAnswer,
    body: Readable,
    onEvent: ((ev: SseEvent) => boolean) | undefined,
    t0: number,
    /** Set for a long-lived stream: tells whether we closed it ourselves (then its end is no error). */
    closedByUs?: () => boolean,
  ): Promise<void> {
    const streaming = closedByUs !== undefined;
    const ex = answer.exchange;
    const limits = this.o.limits;
    const sse = answer.isSse && onEvent ? new SseParser() : null;
    const decoder = new TextDecoder("utf-8");
    let bytes = 0;
    let events = 0;
    let excerpt = "";
    const chunks: Buffer[] = [];
    let stopped = false;
    const encoding = (answer.headers["content-encoding"] ?? "").trim().toLowerCase();
    const source = decoded(body, encoding, limits.maxBodyBytes);
    try {
      for await (const chunk of source) {
        const buf = chunk as Buffer;
        const room = limits.maxBodyBytes - bytes;
        const piece = buf.length > room ? buf.subarray(0, room) : buf;
        bytes += piece.length;
        const text = decoder.decode(piece, { stream: true });
        if (excerpt.length < limits.excerptChars) excerpt += text.slice(0, limits.excerptChars - excerpt.length);
        if (sse && onEvent) {
          for (const ev of sse.feed(text)) {
            events++;
            if (onEvent(ev)) {
              stopped = true;
              break;
            }
            if (!streaming && events >= limits.maxSseEvents) {
              answer.error = `no answer within ${limits.maxSseEvents} SSE events`;
              answer.failure = "sse_cap";
              stopped = true;
              break;
            }
          }
          if (streaming && stopped) stopped = false; // the stream keeps going; the reader decides when to close
        } else {
          chunks.push(piece);
        }
        if (stopped) break;
        if (buf.length > room) {
          answer.truncated = true;
          answer.error = `body exceeded ${limits.maxBodyBytes} bytes`;
          answer.failure = "cap";
          break;
        }
      }
    } catch (err) {
      if (!answer.error && !closedByUs?.()) {
        const { message, kind } = this.failure(err);
        answer.error = message;
        answer.failure = kind;
      }
    } finally {
      body.destroy();
    }
    if (sse) answer.text = excerpt;
    else answer.text = Buffer.concat(chunks).toString("utf8");
    ex.bodyExcerpt = excerpt;
    ex.bodyBytes = bytes;
    if (answer.truncated) ex.truncated = true;
    if (answer.error) ex.error = answer.error;
    ex.durationMs = Math.round(performance.now() - t0);
  }

  private failure(err: unknown): Failure {
    return describeFailure(err, this.o.limits, this.o.deadline.aborted);
  }
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
