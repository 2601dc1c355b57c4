import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { createByteLru } from "./byte-lru";
import {
  answerEtag,
  compressible,
  endToEnd,
  FRONT_CACHE_HEADER,
  notModified,
  notModifiedHeaders,
  prefersGzip,
  rawHeaders,
  storableHeaders,
} from "./headers";
import { frontError, type RenderFailure } from "./errors";
import type { FrontOutcome } from "../vocabulary/front";
import type { WholeAnswer } from "./upstream";

// Finished answers kept in memory per data version: a request whose version has not changed is answered
// without asking the renderer. The first request after a write waits for the new answer (so a reader who
// reloads after a round sees its verdict); requests arriving while it renders get the previous answer,
// but only within `staleMs` of the moment it was last confirmed current. An answer is rendered once, read
// to its end, compressed and given its validator before anyone gets a byte of it, so every reader (the
// first included) gets the same bytes, ETag and coding; a render that fails is never kept.

const gzipAsync = promisify(gzip);
const GZIP_MIN_BYTES = 1024;

/** One coding of an answer: its bytes, and the raw header list a hit sends with them (built once). */
interface Coded {
  body: Buffer;
  hitHead: string[];
}

interface Entry {
  version: string;
  status: number;
  headers: [string, string][];
  etag: string;
  plain: Coded;
  gzipped: Coded | null;
  /** The last time a request read the data version and found it equal to this entry's. */
  confirmedAt: number;
}

/** What a render left: an answer kept (or fit to keep), one to hand on as it is (not a 200, or it sets a
 * cookie), or why there is none. */
type Filled = { entry: Entry } | { answer: WholeAnswer } | { failure: RenderFailure };

/** Renders a cached route's canonical request; rejects with a RenderError when it cannot. */
export type Render = (r: { path: string; headers: OutgoingHttpHeaders }) => Promise<WholeAnswer>;

export class RenderError extends Error {
  constructor(readonly failure: RenderFailure) {
    super(`render ${failure}`);
  }
}

export interface FrontCacheOptions {
  maxBytes: number;
  staleMs: number;
  /** How long a request waits for a render another request started. */
  waitMs: number;
  render: Render;
  /** Seconds until the renderer is expected back, for Retry-After while it is away. */
  retryAfterS: () => number;
  now?: () => number;
}

export interface CachedRequest {
  key: string;
  version: string;
  render: { path: string; headers: OutgoingHttpHeaders };
}

export interface FrontCache {
  /** Answers from memory when the held answer is current; false (nothing written) when it is not. */
  hit(req: IncomingMessage, res: ServerResponse, route: CachedRequest): boolean;
  /** Everything else: the previous answer while the new one renders, a render, or why there is none. */
  handle(req: IncomingMessage, res: ServerResponse, route: CachedRequest): Promise<FrontOutcome | RenderFailure>;
  readonly size: number;
  readonly bytes: number;
}

/** The raw header list of a 200 with this coding's bytes, as `outcome`. */
const head = (headers: [string, string][], etag: string, body: Buffer, gzip: boolean, outcome: FrontOutcome) =>
  rawHeaders([
    ...headers,
    ["content-length", String(body.length)],
    ["etag", etag],
    [FRONT_CACHE_HEADER, outcome],
    ...(gzip ? [["content-encoding", "gzip"] as [string, string]] : []),
  ]);

async function toEntry(version: string, a: WholeAnswer, now: number): Promise<Entry | null> {
  if (a.status !== 200) return null;
  const headers = storableHeaders(a.headers);
  if (!headers) return null;
  const type = headers.find(([k]) => k === "content-type")?.[1];
  const gz = compressible(type) && a.body.length >= GZIP_MIN_BYTES ? await gzipAsync(a.body) : null;
  const etag = answerEtag(version, a.body);
  return {
    version,
    status: 200,
    headers,
    etag,
    plain: { body: a.body, hitHead: head(headers, etag, a.body, false, "hit") },
    gzipped: gz && { body: gz, hitHead: head(headers, etag, gz, true, "hit") },
    confirmedAt: now,
  };
}

// The headers are held three times: as fields, and in each coding's raw list.
const entryBytes = (key: string, e: Entry) =>
  e.plain.body.length +
  (e.gzipped?.body.length ?? 0) +
  key.length +
  e.version.length +
  3 * e.headers.reduce((n, [k, v]) => n + k.length + v.length, 0) +
  256;

function send(e: Entry, req: IncomingMessage, res: ServerResponse, outcome: FrontOutcome): void {
  if (req.headers["if-none-match"] !== undefined && notModified(req.headers["if-none-match"], e.etag)) {
    res.writeHead(304, rawHeaders([...notModifiedHeaders(e.headers), ["etag", e.etag], [FRONT_CACHE_HEADER, outcome]]));
    res.end();
    return;
  }
  const coded = e.gzipped && prefersGzip(req.headers["accept-encoding"]) ? e.gzipped : e.plain;
  res.writeHead(e.status, outcome === "hit" ? coded.hitHead : head(e.headers, e.etag, coded.body, coded === e.gzipped, outcome));
  res.end(req.method === "HEAD" ? undefined : coded.body);
}

/** An answer that is not kept, handed on as the renderer gave it (framing recomputed; cookies only to the
 * request that caused them). */
function sendAsIs(a: WholeAnswer, req: IncomingMessage, res: ServerResponse, own: boolean): void {
  const headers = endToEnd(a.headers).filter(([k]) => k !== "content-length" && k !== FRONT_CACHE_HEADER && (own || k !== "set-cookie"));
  res.writeHead(a.status, rawHeaders([...headers, ["content-length", String(a.body.length)], [FRONT_CACHE_HEADER, "pass"]]));
  res.end(req.method === "HEAD" ? undefined : a.body);
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | "late"> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve("late"), ms);
    void p.then((v) => (clearTimeout(timer), resolve(v)));
  });

export function createFrontCache(options: FrontCacheOptions): FrontCache {
  const now = options.now ?? Date.now;
  const entries = createByteLru<Entry>(options.maxBytes);
  const fills = new Map<string, Promise<Filled>>();

  /** Never rejects: whatever went wrong is a failure its waiters answer for. */
  async function fill(route: CachedRequest): Promise<Filled> {
    try {
      const answer = await options.render(route.render);
      const entry = await toEntry(route.version, answer, now());
      if (!entry) return { answer };
      entries.set(route.key, entry, entryBytes(route.key, entry));
      return { entry };
    } catch (e) {
      return { failure: e instanceof RenderError ? e.failure : "renderer_failed" };
    }
  }

  /** Answers from a finished render: its entry, the answer as it is, or a held entry / an error. */
  function finish(
    f: Filled | "late",
    held: Entry | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    own: boolean,
  ): FrontOutcome | RenderFailure {
    if (f !== "late" && "entry" in f) {
      const outcome = own ? "fill" : "hit";
      send(f.entry, req, res, outcome);
      return outcome;
    }
    if (f !== "late" && "answer" in f) {
      sendAsIs(f.answer, req, res, own);
      return "pass";
    }
    const failure = f === "late" ? "timeout" : f.failure;
    if (held) {
      send(held, req, res, "stale-if-error");
      return "stale-if-error";
    }
    frontError(res, failure, options.retryAfterS());
    return failure;
  }

  function hit(req: IncomingMessage, res: ServerResponse, route: CachedRequest): boolean {
    const held = entries.get(route.key);
    if (!held || held.version !== route.version) return false;
    held.confirmedAt = now();
    send(held, req, res, "hit");
    return true;
  }

  return {
    hit,
    async handle(req, res, route) {
      const { key } = route;
      if (hit(req, res, route)) return "hit";
      const held = entries.get(key);
      const running = fills.get(key);
      if (running) {
        if (held && now() - held.confirmedAt <= options.staleMs) {
          send(held, req, res, "stale");
          return "stale";
        }
        return finish(await within(running, options.waitMs), held, req, res, false);
      }
      const started = fill(route);
      fills.set(key, started);
      void started.finally(() => fills.get(key) === started && fills.delete(key));
      return finish(await started, held, req, res, true);
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.bytes;
    },
  };
}
