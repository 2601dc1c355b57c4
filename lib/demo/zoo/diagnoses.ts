// Zoo servers for suite 0.13.0 (architecture.md §2.8): each known misconfiguration a hint names, beside a near miss that
// must not get one; the TLS and network cases the harness sets up itself; -32023 and -32022's
// supportedVersions. Their expectations are in diagnoses-expectations.ts.
import type { ZooBehaviour } from "./types";
import { SINGLE_PAGE, err, httpSseServer, legacyEndpoint, modernEndpoint, notFound, rpcId, sendJson, sendText } from "./wire";

/** The TS SDK v2 app helpers' localhost-only Host allowlist (research/protocol.md §7), byte for byte. */
const invalidHost: ZooBehaviour = (ctx) => {
  const host = (ctx.headers.host ?? "").replace(/:\d+$/, "");
  sendJson(ctx, 403, { jsonrpc: "2.0", error: { code: -32000, message: `Invalid Host: ${host}` }, id: null });
};

/** A 403 that names no Host allowlist: a refusal, but not that one. */
const forbidden: ZooBehaviour = (ctx) => sendJson(ctx, 403, { jsonrpc: "2.0", error: { code: -32000, message: "Forbidden" }, id: null });

/** Serves a behaviour's `/mcp` at another path, so a remote can be listed at a URL its transport does not use. */
const servedAt =
  (path: string, inner: ZooBehaviour): ZooBehaviour =>
  (ctx) =>
    inner({ ...ctx, path: ctx.path === path ? "/mcp" : ctx.path === "/mcp" ? "/not-here" : ctx.path });

const everything404: ZooBehaviour = (ctx) => sendText(ctx, 404, "text/plain", "Not Found");

/** Every POST answered with one status and a TS-SDK-style error body. */
const postsAnswered =
  (status: number, message: string): ZooBehaviour =>
  (ctx) =>
    ctx.method === "POST" && ctx.path === "/mcp" ? sendJson(ctx, status, err(null, -32000, message)) : notFound(ctx);

/** -32023 (draft SEP-3304) with data.retryAfterMs and no Retry-After header. */
const rateLimited =
  (status: number): ZooBehaviour =>
  (ctx) =>
    sendJson(ctx, status, err(rpcId(ctx), -32023, "Rate limited", { retryAfterMs: 90_000, limit: 60, remaining: 0 }));

export const DIAGNOSIS_BEHAVIOURS: Record<string, ZooBehaviour> = {
  "invalid-host-403": invalidHost,
  "forbidden-403-other-message": forbidden,
  "tools-call-403-invalid-host": modernEndpoint({ tools: SINGLE_PAGE, toolCall: invalidHost }),
  "redirect-http-to-https": (ctx) => sendText(ctx, 301, "text/plain", "", { location: `${ctx.base.replace(/^http:/, "https:")}/mcp` }),
  "redirect-sse-to-mcp": (ctx) =>
    sendText(ctx, 308, "text/plain", "", { location: `${new URL(ctx.base).pathname.replace(/\/$/, "")}/mcp` }),
  "redirect-without-location": (ctx) => sendText(ctx, 302, "text/plain", "moved"),
  "listed-sse-speaks-streamable-http": servedAt(
    "/sse",
    legacyEndpoint({
      discover: (ctx) => sendJson(ctx, 400, err(null, -32000, "Bad Request: Unsupported protocol version")),
      sessions: true,
    }),
  ),
  // A 2024-11-05 HTTP+SSE server whose stream lives at /mcp: a POST there finds no route (404).
  "listed-streamable-http-speaks-sse": httpSseServer("/mcp"),
  "listed-sse-not-mcp": everything404,
  "not-acceptable-406": postsAnswered(406, "Not Acceptable: Client must accept application/json"),
  "unsupported-media-type-415": postsAnswered(415, "Unsupported Media Type: Content-Type must be application/json; charset=utf-8"),
  "discover-406-then-initialize-works": legacyEndpoint({ discover: (ctx) => sendJson(ctx, 406, err(null, -32000, "Not Acceptable")) }),
  "connection-reset-before-answer": (ctx) => void ctx.res.socket?.resetAndDestroy(),
  "rate-limited-32023-429": legacyEndpoint({ discover: rateLimited(429) }),
  "rate-limited-32023-http-200": legacyEndpoint({ discover: rateLimited(200) }),
  "declined-32022-supported-versions": legacyEndpoint({
    discover: (ctx) =>
      sendJson(
        ctx,
        400,
        err(rpcId(ctx), -32022, "Unsupported protocol version", { supportedVersions: ["2099-01-01"], requested: "2026-07-28" }),
      ),
  }),
  // The harness serves these over TLS with certificates it makes, or breaks the network under them.
  "tls-valid": modernEndpoint({ tools: SINGLE_PAGE }),
  "tls-expiring-soon": modernEndpoint({ tools: SINGLE_PAGE }),
  "tls-expired": modernEndpoint({ tools: SINGLE_PAGE }),
  "tls-wrong-name": modernEndpoint({ tools: SINGLE_PAGE }),
  "tls-unknown-issuer": modernEndpoint({ tools: SINGLE_PAGE }),
  "tls-plain-http-on-https": modernEndpoint({ tools: SINGLE_PAGE }),
  "connection-refused": modernEndpoint({ tools: SINGLE_PAGE }),
  "name-not-found": modernEndpoint({ tools: SINGLE_PAGE }),
  "dns-resolver-unavailable": modernEndpoint({ tools: SINGLE_PAGE }),
};
