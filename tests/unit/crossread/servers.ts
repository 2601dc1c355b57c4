// Loopback MCP servers for the cross-reader: each answers a modern session and a legacy session its own way,
// and logs every request (method, JSON-RPC method, headers, requests in flight) so politeness can be asserted.
import http from "node:http";
import type { AddressInfo } from "node:net";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-06-18";

export interface SplitServerSpec {
  /** How server/discover is answered: a modern session, HTTP 500 (the probe stops), or a legacy refusal (the probe falls back). */
  discover: "modern" | "status500" | "legacy400";
  /** Whether `initialize` starts a legacy session; false answers it 404. */
  initialize: boolean;
  /** The tool list a modern session reads (default: legacyTools). */
  modernTools?: unknown[];
  /** The tool list a legacy session reads, served in pages of `pageSize`. */
  legacyTools: unknown[];
  pageSize?: number;
  robots?: string;
}

export interface LoggedCall {
  httpMethod: string;
  path: string;
  rpcMethod?: string;
  userAgent?: string;
  origin?: string;
  authorization?: string;
  inFlight: number;
}

export interface SplitServer {
  url: string;
  host: string;
  log: LoggedCall[];
  maxInFlight: number;
  close(): Promise<void>;
}

export const tool = (name: string, description: string, extra: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  ...extra,
});

export async function startSplitServer(spec: SplitServerSpec): Promise<SplitServer> {
  const log: LoggedCall[] = [];
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      let body: { id?: unknown; method?: string; params?: Record<string, unknown> } = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
      } catch {
        body = {};
      }
      log.push({
        httpMethod: req.method ?? "",
        path,
        rpcMethod: body.method,
        userAgent: req.headers["user-agent"],
        origin: req.headers.origin,
        authorization: req.headers.authorization,
        inFlight,
      });
      // A little latency, so overlapping requests would be seen.
      setTimeout(() => answer(spec, req, res, path, body), 5);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    host: `127.0.0.1:${port}`,
    log,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function answer(
  spec: SplitServerSpec,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  body: { id?: unknown; method?: string; params?: Record<string, unknown> },
): void {
  if (path === "/robots.txt") {
    if (spec.robots) return void res.writeHead(200, { "content-type": "text/plain" }).end(spec.robots);
    return void res.writeHead(404).end();
  }
  if (path !== "/mcp") return void res.writeHead(404).end();
  if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
  const id = body.id ?? null;
  const ok = (result: unknown, headers: Record<string, string> = {}) => json(res, 200, { jsonrpc: "2.0", id, result }, headers);
  const modern = req.headers["mcp-protocol-version"] === MODERN;
  switch (body.method) {
    case "server/discover":
      if (spec.discover === "status500") return void res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
      if (spec.discover === "legacy400")
        return json(res, 400, {
          jsonrpc: "2.0",
          id: "server-error",
          error: { code: -32600, message: `Unsupported protocol version: ${MODERN}` },
        });
      return ok({
        resultType: "complete",
        supportedVersions: [MODERN],
        capabilities: { tools: { listChanged: false } },
        ttlMs: 0,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "split", version: "1.0.0" } },
      });
    case "initialize":
      if (!spec.initialize) return json(res, 404, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found: initialize" } });
      return ok(
        { protocolVersion: LEGACY, capabilities: { tools: { listChanged: false } }, serverInfo: { name: "split", version: "1.0.0" } },
        { "mcp-session-id": "s-1" },
      );
    case "notifications/initialized":
      return void res.writeHead(202).end();
    case "tools/list": {
      if (modern) return ok({ tools: spec.modernTools ?? spec.legacyTools, resultType: "complete", ttlMs: 0, cacheScope: "public" });
      const size = spec.pageSize ?? 100;
      const start = typeof body.params?.cursor === "string" ? Number(body.params.cursor) : 0;
      const page = spec.legacyTools.slice(start, start + size);
      const next = start + size < spec.legacyTools.length ? { nextCursor: String(start + size) } : {};
      return ok({ tools: page, ...next });
    }
    case "tools/call":
      return json(res, 200, { jsonrpc: "2.0", id, error: { code: -32602, message: "Unknown tool" } });
    default:
      return json(res, 404, { jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
  }
}
