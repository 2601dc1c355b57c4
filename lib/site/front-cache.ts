import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { gzip } from "node:zlib";
import { createByteLru } from "./byte-lru";
import type { CachedRoute } from "./cached-routes";

// Finished answers kept in front of Next.js: a request whose data version has not changed is answered from
// memory, before Next's router, proxy and renderer run. An answer is captured from the first response Next
// sends for its version. The first request after a write waits for the new answer, so a reader who
// reloads after a round sees its verdict. Requests that arrive while that render runs get the previous
// answer, but only within `staleMs` of the last moment it was confirmed current, so no answer trails a
// committed write by more than that.

type Pass = (req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

interface Entry {
  version: string;
  status: number;
  headers: [string, string][];
  body: Buffer;
  etag: string;
  gzipped?: Buffer;
  gzipping?: boolean;
  /** The last time a request read the data version and found it equal to this entry's. */
  confirmedAt: number;
}

export type FrontOutcome = "hit" | "stale" | "fill" | "pass";

export interface FrontCacheOptions {
  maxBytes: number;
  /** How long after its last confirmation a previous answer may still be served while the new one renders. */
  staleMs: number;
  route: (req: IncomingMessage) => CachedRoute | null;
  now?: () => number;
}

/** Counts since the cache was made, for /metrics: answers by outcome, and requests handed to the renderer
 * that have not finished (fills and passes). */
export interface FrontCacheStats {
  answers: Readonly<Record<FrontOutcome, number>>;
  rendersInFlight: number;
}

export interface FrontCache {
  handle(req: IncomingMessage, res: ServerResponse, pass: Pass): Promise<FrontOutcome>;
  readonly size: number;
  readonly bytes: number;
  /** A read-only snapshot of the counts. */
  stats(): FrontCacheStats;
}

/** The header naming how the front cache answered: hit, stale (previous version while the new renders),
 * fill (rendered by Next and kept) or pass (not cacheable). */
export const FRONT_CACHE_HEADER = "x-page-cache";

// Per-response or per-connection headers: never replayed from a stored answer.
const DROPPED = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "date",
  "etag",
  "x-nextjs-cache",
  "x-nextjs-prerender",
  "x-nextjs-stale-time",
  "x-powered-by",
  "x-middleware-rewrite",
  FRONT_CACHE_HEADER,
]);
// Headers that make the request conditional or compressed; the captured render must be a whole plain body.
const CAPTURE_STRIPPED = ["accept-encoding", "if-none-match", "if-modified-since"];
const GZIP_MIN_BYTES = 1024;

function storedHeaders(res: ServerResponse): [string, string][] | null {
  const out: [string, string][] = [];
  let vary = "";
  for (const [k, v] of Object.entries(res.getHeaders() as OutgoingHttpHeaders)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    if (name === "set-cookie" || name === "content-encoding") return null;
    if (DROPPED.has(name)) continue;
    const value = Array.isArray(v) ? v.join(", ") : String(v);
    if (name === "vary") vary = value;
    else out.push([name, value]);
  }
  out.push(["vary", /accept-encoding/i.test(vary) ? vary : [vary, "Accept-Encoding"].filter(Boolean).join(", ")]);
  return out;
}

function toBuffer(chunk: unknown, encoding?: unknown): Buffer | null {
  if (chunk === undefined || chunk === null || typeof chunk === "function") return null;
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return null;
}

function etagOf(version: string, body: Buffer): string {
  return `"${createHash("sha1").update(version).update("\n").update(body).digest("base64url").slice(0, 27)}"`;
}

function acceptsGzip(req: IncomingMessage): boolean {
  const ae = req.headers["accept-encoding"];
  return typeof ae === "string" && /\bgzip\b(?!\s*;\s*q=0(\.0+)?\b)/i.test(ae);
}

export function createFrontCache(o: FrontCacheOptions): FrontCache {
  const now = o.now ?? Date.now;
  const entries = createByteLru<Entry>(o.maxBytes);
  const fills = new Map<string, Promise<void>>();
  const answers: Record<FrontOutcome, number> = { hit: 0, stale: 0, fill: 0, pass: 0 };
  let rendersInFlight = 0;
  /** The renderer's hop, counted while it runs. */
  const counted = (pass: Pass): Pass => async (req, res) => {
    rendersInFlight++;
    try {
      await pass(req, res);
    } finally {
      rendersInFlight--;
    }
  };

  function compressLater(key: string, e: Entry) {
    if (e.gzipping || e.body.length < GZIP_MIN_BYTES) return;
    e.gzipping = true;
    gzip(e.body, (err, out) => {
      if (err || entries.get(key) !== e) return;
      e.gzipped = out;
      entries.grow(key, out.length);
    });
  }

  function send(key: string, e: Entry, req: IncomingMessage, res: ServerResponse, outcome: "hit" | "stale") {
    const inm = req.headers["if-none-match"];
    if (typeof inm === "string" && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === e.etag)) {
      const keep = e.headers.filter(([k]) => k === "cache-control" || k === "vary" || k === "content-security-policy");
      res.writeHead(304, [...keep, ["etag", e.etag], [FRONT_CACHE_HEADER, outcome]].flat());
      res.end();
      return;
    }
    let body = e.body;
    const headers: string[] = e.headers.flat();
    if (acceptsGzip(req)) {
      if (e.gzipped) {
        body = e.gzipped;
        headers.push("content-encoding", "gzip");
      } else compressLater(key, e);
    }
    headers.push("content-length", String(body.length), "etag", e.etag, FRONT_CACHE_HEADER, outcome);
    res.writeHead(e.status, headers);
    res.end(req.method === "HEAD" ? undefined : body);
  }

  /** Hands the request to Next with a plain, unconditional body and keeps a 200 answer for `version`.
   * `ended` settles once the answer is stored (or the response ended or closed without one). */
  function capture(key: string, version: string, req: IncomingMessage, res: ServerResponse, pass: Pass): { ended: Promise<void>; passed: Promise<void> } {
    for (const h of CAPTURE_STRIPPED) delete req.headers[h];
    let ended!: () => void;
    const endedPromise = new Promise<void>((resolve) => (ended = resolve));
    res.once("close", ended);
    res.setHeader(FRONT_CACHE_HEADER, "fill");
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...a: unknown[]) => boolean;
    const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(Buffer.from(b));
      return write(chunk, ...rest);
    }) as ServerResponse["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(Buffer.from(b));
      // Kept as the body is handed over, not when a slow client has read it.
      if (res.statusCode === 200) {
        const headers = storedHeaders(res);
        if (headers) {
          const body = Buffer.concat(chunks);
          const size = body.length + key.length + version.length + headers.reduce((n, [k, v]) => n + k.length + v.length, 0) + 128;
          entries.set(key, { version, status: 200, headers, body, etag: etagOf(version, body), confirmedAt: now() }, size);
        }
      }
      ended();
      return end(chunk, ...rest);
    }) as ServerResponse["end"];
    const passed = Promise.resolve().then(() => pass(req, res));
    passed.catch(() => ended());
    return { ended: endedPromise, passed };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, pass: Pass): Promise<FrontOutcome> {
    let route: CachedRoute | null = null;
    if (o.maxBytes > 0) {
      try {
        route = o.route(req);
      } catch {
        route = null; // a failed version read leaves the answer to Next, which reports the error itself
      }
    }
    if (!route) {
      await pass(req, res);
      return "pass";
    }
    const { key, version } = route;
    const entry = entries.get(key);
    if (entry && entry.version === version) {
      entry.confirmedAt = now();
      send(key, entry, req, res, "hit");
      return "hit";
    }
    const fill = fills.get(key);
    if (fill) {
      if (entry && now() - entry.confirmedAt <= o.staleMs) {
        send(key, entry, req, res, "stale");
        return "stale";
      }
      await fill;
      const filled = entries.get(key);
      if (filled && filled.version === version) {
        send(key, filled, req, res, "hit");
        return "hit";
      }
      await pass(req, res);
      return "pass";
    }
    if (req.method === "HEAD") {
      await pass(req, res);
      return "pass";
    }
    const { ended, passed } = capture(key, version, req, res, pass);
    fills.set(key, ended);
    void ended.then(() => fills.get(key) === ended && fills.delete(key));
    await passed;
    return "fill";
  }

  return {
    async handle(req, res, pass) {
      const outcome = await handle(req, res, counted(pass));
      answers[outcome]++;
      return outcome;
    },
    stats: () => ({ answers: { ...answers }, rendersInFlight }),
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.bytes;
    },
  };
}
