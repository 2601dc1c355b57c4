import { createMcpHandler } from "@modelcontextprotocol/server";
import type { Db } from "../../db/client";
import { MODERN_REVISION } from "../probe/protocol";
import { originFrom } from "../site/origin";
import { clientAddress, RateLimiter, rateKey, type RateLimit } from "./rate-limit";
import { buildMcpServer } from "./server";

// POST/GET/DELETE /mcp: the official SDK's handler (modern server/discover and legacy initialize, no sessions,
// so any process behind the front can answer any request) behind the per-address limit. Answers carry no
// cookie and are never stored by a cache: each reads the database afresh.

/** draft SEP-3304: RateLimited, sent with HTTP 429 and data.retryAfterMs. */
export const RATE_LIMITED = -32023;
/** Tool arguments are small; a 10,000-character query still fits with room to spare. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface McpEndpointOptions {
  db: Db;
  publicBaseUrl: string | undefined;
  limiter?: RateLimiter;
  now?: () => Date;
  onerror?: (e: Error) => void;
}

const NO_STORE = "no-store";

/** Reads at most `max` bytes of a body; null when it is longer or unreadable. */
async function boundedText(request: Request, max: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  } catch {
    return null;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The id and era of a request we refuse without serving: echoed so a client can match the error. */
function refusedRequest(headers: Headers, body: string | null): { id: string | number | null; notification: boolean; modern: boolean } {
  let message: unknown;
  try {
    message = body ? JSON.parse(body) : undefined;
  } catch {
    message = undefined;
  }
  const m = typeof message === "object" && message !== null && !Array.isArray(message) ? (message as Record<string, unknown>) : {};
  const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
  const meta = (m.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const inBody = meta?.["io.modelcontextprotocol/protocolVersion"];
  const claimed = headers.get("mcp-protocol-version") ?? (typeof inBody === "string" ? inBody : "");
  // Revisions are ISO dates: 2026-07-28 and later are the modern era.
  return { id, notification: typeof m.method === "string" && !("id" in m), modern: claimed >= MODERN_REVISION };
}

async function rateLimited(request: Request, retryAfterMs: number, rate: RateLimit): Promise<Response> {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const headers = { "retry-after": String(seconds), "cache-control": NO_STORE };
  const r = refusedRequest(request.headers, request.method === "POST" ? await boundedText(request, MAX_BODY_BYTES) : null);
  if (r.notification) return new Response(null, { status: 429, headers });
  const limit = `${rate.burst} requests at once, then ${rate.perMinute} a minute per client address`;
  const message = `Rate limited: this endpoint allows ${limit}; retry after ${seconds} s.`;
  // A 2025-era client knows no -32023; it reads the status and Retry-After.
  const error = r.modern ? { code: RATE_LIMITED, message, data: { retryAfterMs } } : { code: -32000, message };
  return Response.json({ jsonrpc: "2.0", id: r.id, error }, { status: 429, headers });
}

/** Drops cookies and connection-level fields (the server in front owns the connection) and marks the answer
 * uncacheable. */
function sealed(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const h of ["set-cookie", "connection", "keep-alive"]) headers.delete(h);
  headers.set("cache-control", NO_STORE);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export function createMcpEndpoint(options: McpEndpointOptions): (request: Request) => Promise<Response> {
  const limiter = options.limiter ?? new RateLimiter();
  const now = options.now ?? (() => new Date());
  const handler = createMcpHandler(
    (ctx) => {
      const origin = originFrom(ctx.requestInfo?.headers ?? new Headers(), options.publicBaseUrl);
      return buildMcpServer(() => ({ db: options.db, origin, now: now() }));
    },
    { legacy: "stateless", maxRequestBodySize: MAX_BODY_BYTES, onerror: options.onerror },
  );
  return async (request) => {
    const verdict = limiter.take(rateKey(clientAddress(request.headers)), now().getTime());
    if (!verdict.ok) return rateLimited(request, verdict.retryAfterMs, limiter.limit);
    return sealed(await handler.fetch(request));
  };
}
