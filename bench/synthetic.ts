// Synthetic but realistic probe observations for the storage and site benchmarks: the same shapes the
// real probe produces (exchanges with headers and body excerpts, outcomes per phase), so the judges and
// the write path treat them exactly as they treat real ones.
import type { Exchange, ExchangePhase, ProbeObservation, ToolDefinition } from "@/lib/probe/types";

export const PROFILES = ["modern", "legacy", "gated", "failing", "risky"] as const;
export type Profile = (typeof PROFILES)[number];

/** Share of each profile in a registry-sized population, per 100 servers. */
export const PROFILE_MIX: Record<Profile, number> = { modern: 60, legacy: 22, gated: 8, failing: 6, risky: 4 };

export function profileFor(i: number): Profile {
  let slot = (i * 53) % 100;
  for (const p of PROFILES) {
    if (slot < PROFILE_MIX[p]) return p;
    slot -= PROFILE_MIX[p];
  }
  return "modern";
}

const WORDS = [
  "issue",
  "invoice",
  "repository",
  "calendar",
  "customer",
  "ticket",
  "document",
  "order",
  "metric",
  "forecast",
  "contact",
  "deployment",
];

/** A server's tool list at a given tool version: 1-12 tools; each version changes one description or adds a tool. */
export function toolsFor(i: number, version: number): ToolDefinition[] {
  const count = 1 + ((i * 13) % 12) + Math.floor(version / 2);
  return Array.from({ length: count }, (_, j) => {
    const word = WORDS[(i + j) % WORDS.length]!;
    const touched = version > 0 && j === version % count;
    return {
      name: `${word}_${j === 0 ? "search" : `action_${j}`}`,
      title: `${word[0]!.toUpperCase()}${word.slice(1)} ${j === 0 ? "search" : `action ${j}`}`,
      description: `Finds ${word} records that match a query and returns them as JSON, newest first.${touched ? ` Revised in v${version}.` : ""}`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: `Words to look for in the ${word}.` },
          limit: { type: "integer", minimum: 1, maximum: 100, description: "How many results to return." },
          ...(j % 3 === 0 ? { cursor: { type: "string", description: "Opaque cursor from a previous answer." } } : {}),
        },
        required: ["query"],
      },
    };
  });
}

const UA = "mcp-status/0.11 (+https://mcp-status.example/faq/probe)";

function requestHeaders(method: string, modern: boolean): Record<string, string> {
  return {
    "user-agent": UA,
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    ...(modern ? { "mcp-protocol-version": "2026-07-28", "mcp-method": method } : {}),
  };
}

class Exchanges {
  readonly list: Exchange[] = [];
  constructor(private readonly url: string) {}
  add(
    phase: ExchangePhase,
    method: string,
    status: number | undefined,
    body: string,
    extra: { modern?: boolean; headers?: Record<string, string>; error?: string; ms?: number; httpMethod?: "GET" | "POST" } = {},
  ): number {
    const seq = this.list.length + 1;
    const id = seq;
    const requestBody =
      extra.httpMethod === "GET"
        ? undefined
        : JSON.stringify({
            jsonrpc: "2.0",
            id,
            method,
            params: method === "tools/call" ? { name: "mcp_status_probe_no_such_tool", arguments: {} } : {},
          });
    this.list.push({
      seq,
      phase,
      method: extra.httpMethod ?? "POST",
      url: phase === "auth_metadata" ? `${new URL(this.url).origin}/.well-known/oauth-protected-resource/mcp` : this.url,
      requestHeaders: requestHeaders(method, extra.modern ?? false),
      requestBody,
      status,
      responseHeaders:
        status === undefined ? {} : { "content-type": "application/json", date: "Sun, 01 Nov 2026 00:00:00 GMT", ...extra.headers },
      bodyExcerpt: body.slice(0, 2_000),
      bodyBytes: body.length,
      truncated: body.length > 2_000,
      durationMs: extra.ms ?? 40,
      ...(extra.error ? { error: extra.error } : {}),
    });
    return seq;
  }
}

/** One observation of server `i` (profile, tool version) at `at`. */
export function syntheticObservation(i: number, profile: Profile, toolVersion: number, at: Date): ProbeObservation {
  const url = `https://mcp${i % 997}.example-host${i % 113}.com/s/${i}/mcp`;
  const ex = new Exchanges(url);
  const ms = 30 + ((i * 31) % 200);
  const startedAt = at.toISOString();
  const finishedAt = new Date(at.getTime() + ms * 4).toISOString();
  const tools = toolsFor(i, toolVersion);
  const toolsBody = JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools } });
  const base = { url, transport: "streamable-http" as const, startedAt, finishedAt };

  if (profile === "failing") {
    const seq = ex.add("discover", "server/discover", 503, "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>", {
      modern: true,
      headers: { "content-type": "text/html" },
      ms,
    });
    return {
      ...base,
      era: "unknown",
      handshake: { kind: "failed", cause: "server/discover answered HTTP 503 without Retry-After", seq, seqs: [seq] },
      toolsList: { kind: "not_attempted", why: "the handshake failed" },
      toolCall: { kind: "withheld", why: "the handshake failed" },
      authMetadata: { kind: "no_challenge" },
      exchanges: ex.list,
    };
  }

  if (profile === "gated") {
    const challengeHeader = `Bearer realm="mcp", error="invalid_token", resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`;
    const s1 = ex.add("discover", "server/discover", 401, '{"error":"unauthorized"}', {
      modern: true,
      headers: { "www-authenticate": challengeHeader },
      ms,
    });
    const s2 = ex.add("initialize", "initialize", 401, '{"error":"unauthorized"}', {
      headers: { "www-authenticate": challengeHeader },
      ms,
    });
    const prm = JSON.stringify({
      resource: `${new URL(url).origin}/mcp`,
      authorization_servers: ["https://auth.example.com"],
      scopes_supported: ["read", "write"],
    });
    const s3 = ex.add("auth_metadata", "", 200, prm, { httpMethod: "GET", ms });
    const challenge = {
      phase: "initialize" as const,
      status: 401,
      seq: s2,
      challenges: [
        {
          scheme: "Bearer",
          params: {
            realm: "mcp",
            error: "invalid_token",
            resource_metadata: `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`,
          },
        },
      ],
    };
    return {
      ...base,
      era: "unknown",
      handshake: { kind: "credential_gate", challenge, fallbackCause: "server/discover answered HTTP 401", seqs: [s1, s2] },
      toolsList: { kind: "not_attempted", why: "a credential is required" },
      toolCall: { kind: "withheld", why: "a credential is required" },
      authMetadata: {
        kind: "ok",
        url: `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`,
        resource: `${new URL(url).origin}/mcp`,
        authorizationServers: ["https://auth.example.com"],
        scopesSupported: ["read", "write"],
        seq: s3,
        challenge,
      },
      exchanges: ex.list,
    };
  }

  const modern = profile !== "legacy";
  let handshake: ProbeObservation["handshake"];
  if (modern) {
    const s = ex.add(
      "discover",
      "server/discover",
      200,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        result: {
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: { listChanged: true } },
          resultType: "complete",
          ttlMs: 0,
          cacheScope: "private",
          _meta: { serverInfo: { name: `server-${i}`, version: "1.4.2" } },
        },
      }),
      { modern: true, ms },
    );
    handshake = {
      kind: "modern",
      protocolVersion: "2026-07-28",
      supportedVersions: ["2026-07-28"],
      serverInfo: { name: `server-${i}`, version: "1.4.2" },
      seq: s,
      seqs: [s],
    };
  } else {
    const s1 = ex.add(
      "discover",
      "server/discover",
      400,
      /* wire */ '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Unsupported protocol version: 2026-07-28"}}',
      { modern: true, ms },
    );
    const s2 = ex.add(
      "initialize",
      "initialize",
      200,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: `server-${i}`, version: "0.9.1" } },
      }),
      { ms, headers: { "mcp-session-id": `sess-${i}-${at.getTime()}` } },
    );
    const s3 = ex.add("initialized", "notifications/initialized", 202, "", { ms: 5 });
    handshake = {
      kind: "legacy",
      protocolVersion: "2025-06-18",
      common: true,
      serverInfo: { name: `server-${i}`, version: "0.9.1" },
      sessionId: `sess-${i}`,
      fallbackCause: "server/discover answered HTTP 400 with -32000 under id null",
      seq: s2,
      seqs: [s1, s2, s3],
    };
  }
  const sl = ex.add("tools_list", "tools/list", 200, toolsBody, { modern, ms });
  const toolsList = { kind: "complete" as const, tools, pages: 1, malformed: [], seqs: [sl] };
  let toolCall: ProbeObservation["toolCall"];
  if (profile === "risky") {
    const sc = ex.add(
      "tools_call",
      "tools/call",
      500,
      "<!doctype html><html><body><h1>Internal Server Error</h1><pre>TypeError: cannot read properties of undefined</pre></body></html>",
      {
        modern,
        headers: { "content-type": "text/html" },
        ms,
      },
    );
    toolCall = {
      kind: "answered",
      status: 500,
      shape: { type: "malformed", description: "an HTML page with HTTP 500", form: "html" },
      seq: sc,
    };
  } else if (modern) {
    const sc = ex.add(
      "tools_call",
      "tools/call",
      200,
      '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Tool mcp_status_probe_no_such_tool not found"}}',
      { modern, ms },
    );
    toolCall = {
      kind: "answered",
      status: 200,
      shape: { type: "jsonrpc_error", code: -32602, message: "Tool mcp_status_probe_no_such_tool not found", transport: "json" },
      seq: sc,
    };
  } else {
    const sc = ex.add(
      "tools_call",
      "tools/call",
      200,
      '{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"MCP error -32602: Tool mcp_status_probe_no_such_tool not found"}],"isError":true}}',
      { ms },
    );
    toolCall = {
      kind: "answered",
      status: 200,
      shape: { type: "is_error_result", text: "MCP error -32602: Tool mcp_status_probe_no_such_tool not found" },
      seq: sc,
    };
  }
  return {
    ...base,
    era: modern ? "modern" : "legacy",
    handshake,
    toolsList,
    toolCall,
    authMetadata: { kind: "no_challenge" },
    exchanges: ex.list,
  };
}

/** A tiny deterministic PRNG (mulberry32), so runs are repeatable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
