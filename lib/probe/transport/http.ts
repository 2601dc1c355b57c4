import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import { Transform, pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { TLSSocket, type PeerCertificate } from "node:tls";
import { Agent, buildConnector, request } from "undici";
import type { AddressPolicy } from "../address-policy";
import { isIpLiteral, unbracket } from "../address-policy";
import { SseParser, type SseEvent } from "../sse";
import type { CertificateFacts, Exchange, ExchangePhase, ProbeLimits } from "../types";
import type { NetworkErrorKind } from "../protocol";
import { acquireBefore, type HostGate } from "../host-gate";

/** The address policy refused a host or one of its DNS answers. */
export class AddressRefusedError extends Error {
  readonly code = "MCP_STATUS_ADDRESS_REFUSED";
}

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

export type FailureKind = "timeout" | "deadline" | "network" | "policy" | "cap" | "decode" | "sse_cap";

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
}

export type DnsLookup = (hostname: string) => Promise<LookupAddress[]>;

const systemLookup: DnsLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Resolves a host and checks every answer against the policy (literal addresses are checked as they are). */
async function resolveChecked(hostname: string, policy: AddressPolicy, dnsLookup: DnsLookup = systemLookup): Promise<LookupAddress[]> {
  const host = unbracket(hostname);
  if (isIpLiteral(host)) {
    const why = policy.check(host);
    if (why) throw new AddressRefusedError(why);
    return [{ address: host, family: host.includes(":") ? 6 : 4 }];
  }
  const addrs = await dnsLookup(host);
  if (addrs.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: "ENOTFOUND" });
  for (const a of addrs) {
    const why = policy.check(a.address);
    if (why) throw new AddressRefusedError(`${host} resolves to ${why.replace(/^\S+ is /, `${a.address}, `)}`);
  }
  return addrs;
}

/** Trust anchors for tests' own certificates: they replace the system's roots, so production never sets them. */
export type TrustAnchors = string | Buffer | (string | Buffer)[];

/** OpenSSL verify results and Node's name check that mean "this certificate is not accepted" (architecture.md §2.8). */
export const TLS_VERIFY_CODES = [
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "HOSTNAME_MISMATCH",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_REVOKED",
  "CERT_SIGNATURE_FAILURE",
] as const;

/** The certificates presented per host:port, as connections were made (a reused connection keeps its own). */
export class CertificateBook {
  private readonly byHost = new Map<string, CertificateFacts>();
  record(facts: CertificateFacts): void {
    this.byHost.set(facts.host, facts);
  }
  get(hostPort: string): CertificateFacts | undefined {
    return this.byHost.get(hostPort);
  }
}

const iso = (d: string | undefined) => {
  const t = d ? Date.parse(d) : NaN;
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function certificateFacts(host: string, cert: PeerCertificate, rejected: string | undefined): CertificateFacts {
  const issuer = first(cert.issuer?.O) ?? first(cert.issuer?.CN);
  const subject = first(cert.subject?.CN);
  const altNames = cert.subjectaltname?.split(/,\s*/).filter(Boolean).slice(0, 20);
  return {
    host,
    ...(subject ? { subject: subject.slice(0, 200) } : {}),
    ...(issuer ? { issuer: issuer.slice(0, 200) } : {}),
    ...(iso(cert.valid_from) ? { validFrom: iso(cert.valid_from) } : {}),
    ...(iso(cert.valid_to) ? { validTo: iso(cert.valid_to) } : {}),
    ...(altNames?.length ? { altNames: altNames.map((n) => n.slice(0, 200)) } : {}),
    ...(rejected ? { rejected } : {}),
  };
}

/**
 * undici's connector, with the certificate's verdict taken after the handshake instead of inside it, so the
 * probe can record what was presented even when it refuses it (an expired certificate's date). Node computes
 * `authorized` exactly as it would before refusing; an unaccepted socket is destroyed before any byte of a
 * request is written.
 */
function recordingConnector(
  opts: buildConnector.BuildOptions,
  book: CertificateBook,
  ca: TrustAnchors | undefined,
): buildConnector.connector {
  // No TLS session cache: a resumed session skips Node's name check, and a refused certificate's session
  // must never be resumed into an accepted connection.
  const base = buildConnector({
    ...opts,
    maxCachedSessions: 0,
    rejectUnauthorized: false,
    ...(ca ? { ca } : {}),
  } as buildConnector.BuildOptions);
  return (o, cb) =>
    base(o, (err, socket) => {
      if (err || !socket) return cb(err ?? new Error("no socket"), null);
      if (!(socket instanceof TLSSocket)) return cb(null, socket);
      const rejected = socket.authorized ? undefined : String(socket.authorizationError ?? "UNABLE_TO_VERIFY_LEAF_SIGNATURE");
      const cert = socket.getPeerCertificate();
      if (cert && Object.keys(cert).length) book.record(certificateFacts(`${o.hostname}:${o.port || 443}`, cert, rejected));
      if (rejected) {
        socket.destroy();
        return cb(Object.assign(new Error(`certificate not accepted: ${rejected}`), { code: rejected }), null);
      }
      cb(null, socket);
    });
}

/** An undici Agent whose connections only reach addresses `resolve` checked (and pinned). */
function guardedAgent(
  limits: ProbeLimits,
  resolve: (hostname: string) => Promise<LookupAddress[]>,
  keepAliveMs: number,
  book: CertificateBook,
  ca?: TrustAnchors,
): Agent {
  const lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    cb: (err: Error | null, address?: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname).then(
      (addrs) => {
        const fam = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family ?? 0);
        const usable = fam === 4 || fam === 6 ? addrs.filter((a) => a.family === fam) : addrs;
        const first = usable[0];
        if (!first) return cb(Object.assign(new Error(`no IPv${fam} address for ${hostname}`), { code: "ENOTFOUND" }));
        if (options.all) cb(null, usable);
        else cb(null, first.address, first.family);
      },
      (err: Error) => cb(err),
    );
  };
  return new Agent({
    connect: recordingConnector({ timeout: limits.connectTimeoutMs, lookup } as buildConnector.BuildOptions, book, ca),
    headersTimeout: limits.headersTimeoutMs,
    bodyTimeout: limits.bodyTimeoutMs,
    keepAliveTimeout: keepAliveMs,
    keepAliveMaxTimeout: keepAliveMs,
  });
}

/**
 * Connections a round keeps open between its probes: one Agent, so consecutive probes of servers on one
 * host reuse a warm connection (no new TCP and TLS handshake each time). Successful DNS answers are checked
 * and pinned for the round; a failed lookup is not kept here (each probe keeps its own). An idle connection
 * is closed after 1 s, before the shortest common server idle timeouts (gunicorn's 2 s, Node's 5 s), so a
 * reused one is not closed under us.
 */
export class SharedConnections {
  readonly agent: Agent;
  readonly certificates = new CertificateBook();
  private readonly pinned = new Map<string, Promise<LookupAddress[]>>();

  constructor(private readonly o: { policy: AddressPolicy; limits: ProbeLimits; dnsLookup?: DnsLookup; ca?: TrustAnchors }) {
    this.agent = guardedAgent(o.limits, (h) => this.resolve(h), 1_000, this.certificates, o.ca);
  }

  resolve(hostname: string): Promise<LookupAddress[]> {
    const host = unbracket(hostname);
    let p = this.pinned.get(host);
    if (!p) {
      p = resolveChecked(host, this.o.policy, this.o.dnsLookup);
      this.pinned.set(host, p);
      p.catch(() => this.pinned.get(host) === p && this.pinned.delete(host));
    }
    return p;
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }
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
  private readonly pinned = new Map<string, Promise<LookupAddress[]>>();
  private seq = 0;

  constructor(private readonly o: HttpSessionOptions) {
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
    const host = unbracket(hostname);
    let p = this.pinned.get(host);
    if (!p) {
      p = this.o.shared ? this.o.shared.resolve(host) : resolveChecked(host, this.o.policy, this.o.dnsLookup);
      // A failed lookup is kept too: one answer per probe, and no retry storm.
      this.pinned.set(host, p);
    }
    return p;
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
    const ex = this.newExchange(spec, headers);
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
      const { message, kind, network, code } = this.describe(err);
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
        headers,
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
        const { message, kind } = this.describe(err);
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

  private describe(err: unknown): { message: string; kind: FailureKind; network?: NetworkErrorKind; code?: string } {
    const l = this.o.limits;
    if (this.o.deadline.aborted) return { message: `the probe's ${l.deadlineMs} ms deadline ran out`, kind: "deadline" };
    const chain: unknown[] = [];
    for (let e: unknown = err; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
    for (const e of chain) {
      if (e instanceof AddressRefusedError) return { message: `address refused: ${e.message}`, kind: "policy" };
      if (e instanceof BodyCapError) return { message: e.message, kind: "cap" };
    }
    const first = chain[0] as { code?: string; message?: string } | undefined;
    const code = chain.map((e) => (e as { code?: string }).code).find((c) => c && c !== "UND_ERR_SOCKET") ?? first?.code;
    switch (code) {
      case "UND_ERR_CONNECT_TIMEOUT":
        return { message: `no connection within ${l.connectTimeoutMs} ms`, kind: "timeout", network: "connect_timeout", code };
      case "UND_ERR_HEADERS_TIMEOUT":
        return { message: `no response headers within ${l.headersTimeoutMs} ms`, kind: "timeout", code };
      case "UND_ERR_BODY_TIMEOUT":
        return { message: `the body stalled for ${l.bodyTimeoutMs} ms`, kind: "timeout", code };
      case "ENOTFOUND":
        return { message: `DNS lookup failed (${code})`, kind: "network", network: "nxdomain", code };
      case "EAI_AGAIN":
      case "EAI_FAIL":
      case "ESERVFAIL":
      case "ETIMEOUT":
      case "ECONNREFUSED_DNS":
        return { message: `DNS lookup failed (${code})`, kind: "network", network: "dns_unavailable", code };
      case "ECONNREFUSED":
        return { message: "connection refused", kind: "network", network: "refused", code };
      case "ETIMEDOUT":
      case "EHOSTUNREACH":
      case "ENETUNREACH":
        return { message: `no connection (${code})`, kind: "network", network: "connect_timeout", code };
      case "ECONNRESET":
      case "UND_ERR_SOCKET":
        return { message: "the connection was closed mid-answer", kind: "network", network: "reset", code: code ?? "ECONNRESET" };
      case "Z_DATA_ERROR":
      case "Z_BUF_ERROR":
      case "ERR_BROTLI_DECOMPRESSION_FAILED":
        return { message: `the compressed body could not be decoded (${code})`, kind: "decode", code };
      default:
        break;
    }
    if (code && ((TLS_VERIFY_CODES as readonly string[]).includes(code) || /CERT|SSL|TLS|ERR_TLS/.test(code)))
      return { message: `TLS failed (${code})`, kind: "network", network: "tls", code };
    const msg = first?.message ?? String(err);
    return { message: code ? `${code}: ${msg}` : msg, kind: "network", code };
  }
}

class BodyCapError extends Error {}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** The body with its Content-Encoding undone, compressed bytes capped too (a gzip header can be endless). */
function decoded(body: Readable, encoding: string, cap: number): AsyncIterable<unknown> {
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : null;
  if (!decoder) return body;
  let raw = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      raw += chunk.length;
      if (raw > cap) cb(new BodyCapError(`compressed body exceeded ${cap} bytes`));
      else cb(null, chunk);
    },
  });
  return pipeline(body, counter, decoder, () => undefined);
}
