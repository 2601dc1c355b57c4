import type { LookupAddress } from "node:dns";
import { afterAll, describe, expect, test } from "vitest";
import { createAddressPolicy, probeServer, type AddressPolicy, type HostGate } from "@/lib/probe";
import { judge } from "@/lib/checks";
import { HttpSession } from "@/lib/probe/transport/http";
import { DEFAULT_LIMITS, type Exchange } from "@/lib/probe/types";
import { rpcMethod, startLoopback, type Loopback } from "./loopback";

const servers: Loopback[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
async function serve(handler: Parameters<typeof startLoopback>[0]): Promise<Loopback> {
  const s = await startLoopback(handler);
  servers.push(s);
  return s;
}

const json = (res: import("node:http").ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

/** A legacy server that mints a session and insists on it, answering the reserved call with -32602. */
function legacyServer(res: import("node:http").ServerResponse, body: string, headers: import("node:http").IncomingHttpHeaders): void {
  const m = JSON.parse(body || "{}") as { id?: number; method?: string };
  if (m.method === "server/discover")
    return json(res, 400, /* wire */ { jsonrpc: "2.0", id: "server-error", error: { code: -32600, message: "Bad Request" } });
  if (m.method === "initialize")
    return json(
      res,
      200,
      { jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: {} } },
      { "MCP-Session-ID": "s-42" },
    );
  if (headers["mcp-session-id"] !== "s-42")
    return json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32000, message: "no session" } });
  if (m.method === "notifications/initialized") return void res.writeHead(202).end();
  if (m.method === "tools/list")
    return json(res, 200, {
      jsonrpc: "2.0",
      id: m.id,
      result: { tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "" },
    });
  if (m.method === "tools/call") return json(res, 200, { jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "Unknown tool" } });
  res.writeHead(405).end();
}

describe("requests as the protocol wants them", () => {
  test("modern requests carry _meta and the 2026-07-28 headers; tools/call names the tool", async () => {
    const s = await serve((_req, res, body) => {
      const m = JSON.parse(body) as { id: number; method: string };
      if (m.method === "server/discover")
        return json(res, 200, { jsonrpc: "2.0", id: m.id, result: { supportedVersions: ["2026-07-28"], capabilities: {} } });
      if (m.method === "tools/list") return json(res, 200, { jsonrpc: "2.0", id: m.id, result: { tools: [] } });
      return json(res, 200, { jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "Unknown tool" } });
    });
    const obs = await probeServer(
      { url: `${s.url}/mcp`, transport: "streamable-http" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }) },
    );
    // After the modern handshake, the initialize-first client's handshake (architecture.md §2.10): here refused with -32602.
    expect(s.log.map((r) => rpcMethod(r.body))).toEqual(["server/discover", "tools/list", "tools/call", "initialize"]);
    expect(s.log[3]!.headers["mcp-protocol-version"]).toBeUndefined();
    expect(JSON.parse(s.log[3]!.body).params._meta).toBeUndefined();
    for (const r of s.log.slice(0, 3)) {
      const m = JSON.parse(r.body) as { method: string; params: { _meta: Record<string, unknown>; name?: string; arguments?: unknown } };
      expect(r.headers["mcp-protocol-version"]).toBe("2026-07-28");
      expect(r.headers["mcp-method"]).toBe(m.method);
      expect(r.headers.accept).toBe("application/json, text/event-stream");
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.headers["mcp-session-id"]).toBeUndefined();
      expect(m.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
      expect(m.params._meta["io.modelcontextprotocol/clientCapabilities"]).toEqual({});
      expect(m.params._meta["io.modelcontextprotocol/clientInfo"]).toMatchObject({ name: "mcp-status-probe" });
    }
    const call = s.log[2]!;
    expect(call.headers["mcp-name"]).toBe("mcp_status_probe_no_such_tool");
    expect(JSON.parse(call.body).params).toMatchObject({ name: "mcp_status_probe_no_such_tool", arguments: {} });
    expect(judge(obs).map((r) => r.state)).toEqual(["verified", "verified", "verified", "verified", "not_checked"]);
  });

  test("legacy: no version header on initialize, then the agreed version and the session id (any case) on every request", async () => {
    const s = await serve((req, res, body) => legacyServer(res, body, req.headers));
    const obs = await probeServer(
      { url: `${s.url}/mcp`, transport: "streamable-http" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }) },
    );
    const methods = s.log.map((r) => (r.method === "DELETE" ? "DELETE" : rpcMethod(r.body)));
    // An empty nextCursor ends a legacy list (only 2026-07-28 makes "" a cursor).
    expect(methods).toEqual(["server/discover", "initialize", "notifications/initialized", "tools/list", "tools/call", "DELETE"]);
    const init = s.log[1]!;
    expect(init.headers["mcp-protocol-version"]).toBeUndefined();
    expect(init.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(init.body).params).toMatchObject({ protocolVersion: "2025-11-25", capabilities: {} });
    for (const r of s.log.slice(2)) {
      expect(r.headers["mcp-protocol-version"]).toBe("2025-06-18");
      expect(r.headers["mcp-session-id"]).toBe("s-42");
      expect(r.headers["mcp-method"]).toBeUndefined();
    }
    const hs = obs.handshake;
    expect(hs?.kind === "legacy" && hs.sessionId).toBe("s-42");
    expect(judge(obs).map((r) => r.state)).toEqual(["verified", "verified", "verified", "verified", "not_checked"]);
  });
});

describe("DNS answers are checked and pinned", () => {
  test("a name that resolves to loopback is refused before anything is sent", async () => {
    const s = await serve((_req, res) => res.writeHead(200).end());
    const obs = await probeServer(
      { url: `http://localhost:${s.port}/mcp`, transport: "streamable-http" },
      { addressPolicy: createAddressPolicy({ allowPrivate: false }) },
    );
    expect(s.log).toHaveLength(0);
    expect(obs.exchanges).toHaveLength(0);
    expect(obs.blocked).toMatchObject({ kind: "address_policy", host: "localhost" });
    expect(obs.blocked?.kind === "address_policy" && obs.blocked.detail).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback address/,
    );
  });

  test("IP literals are checked too, v4 and v6", async () => {
    for (const url of ["http://127.0.0.1:9/mcp", "http://[::1]:9/mcp", "http://[::ffff:7f00:1]:9/mcp", "http://10.0.0.1/mcp"]) {
      const obs = await probeServer({ url, transport: "streamable-http" }, { addressPolicy: createAddressPolicy({ allowPrivate: false }) });
      expect(obs.blocked?.kind, url).toBe("address_policy");
      expect(obs.exchanges, url).toHaveLength(0);
    }
  });

  test("the connection goes to the checked address, and a second answer cannot rebind it", async () => {
    const s = await serve((req, res, body) => legacyServer(res, body, req.headers));
    const answers: LookupAddress[][] = [[{ address: "127.0.0.1", family: 4 }], [{ address: "10.9.9.9", family: 4 }]];
    let lookups = 0;
    // A name the system resolver cannot know: reaching the server proves the connect used our lookup.
    const dnsLookup = async (host: string) => {
      expect(host).toBe("rebind.probe.invalid");
      return answers[Math.min(lookups++, 1)]!;
    };
    const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
    const obs = await probeServer(
      { url: `http://rebind.probe.invalid:${s.port}/mcp`, transport: "streamable-http" },
      { addressPolicy: policy, dnsLookup },
    );
    expect(lookups).toBe(1);
    expect(s.log.length).toBeGreaterThanOrEqual(5);
    expect(judge(obs)[2]!.state).toBe("verified");
  });

  test("one refused answer among several refuses the name", async () => {
    const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
    const dnsLookup = async () => [
      { address: "127.0.0.1", family: 4 },
      { address: "192.168.0.7", family: 4 },
    ];
    const obs = await probeServer(
      { url: "http://mixed.probe.invalid/mcp", transport: "streamable-http" },
      { addressPolicy: policy, dnsLookup },
    );
    expect(obs.blocked?.kind === "address_policy" && obs.blocked.detail).toMatch(
      /mixed\.probe\.invalid resolves to 192\.168\.0\.7, a private/,
    );
  });

  test("each address is checked once per probe, however many requests follow", async () => {
    const s = await serve((req, res, body) => legacyServer(res, body, req.headers));
    const inner = createAddressPolicy({ allowPrivate: true });
    let checks = 0;
    const counting: AddressPolicy = { allowPrivate: true, check: (a) => (checks++, inner.check(a)) };
    const exchanges: Exchange[] = [];
    const http = new HttpSession({
      policy: counting,
      limits: DEFAULT_LIMITS,
      userAgent: "t",
      deadline: new AbortController().signal,
      exchanges,
      dnsLookup: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    try {
      for (let i = 0; i < 3; i++)
        await http.send({ phase: "discover", method: "POST", url: `http://pinned.probe.invalid:${s.port}/mcp`, body: "{}" });
    } finally {
      await http.close();
    }
    expect(exchanges.map((e) => e.status)).toEqual([400, 400, 400]);
    expect(checks).toBe(1);
  });
});

describe("politeness", () => {
  test("every request goes through the host gate, one at a time", async () => {
    const s = await serve((req, res, body) => legacyServer(res, body, req.headers));
    let inFlight = 0;
    let maxInFlight = 0;
    const hosts: string[] = [];
    const gate: HostGate = {
      async acquire(host) {
        hosts.push(host);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return () => void inFlight--;
      },
    };
    await probeServer(
      { url: `${s.url}/mcp`, transport: "streamable-http" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }), hostGate: gate },
    );
    expect(hosts).toHaveLength(s.log.length);
    expect(new Set(hosts)).toEqual(new Set([`127.0.0.1:${s.port}`]));
    expect(maxInFlight).toBe(1);
    expect(inFlight).toBe(0);
  });

  test("an opted-out host gets no request at all", async () => {
    const s = await serve((_req, res) => res.writeHead(200).end());
    const obs = await probeServer(
      { url: `${s.url}/mcp`, transport: "streamable-http" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }), isOptedOut: (h) => (h === "127.0.0.1" ? "robots.txt" : null) },
    );
    expect(s.log).toHaveLength(0);
    expect(obs.blocked).toEqual({ kind: "opted_out", host: "127.0.0.1", reason: "robots.txt" });
  });
});

describe("2024-11-05 HTTP+SSE transport", () => {
  test("an endpoint on another origin is refused and nothing is posted there", async () => {
    const other = await serve((_req, res) => res.writeHead(202).end());
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: endpoint\ndata: ${other.url}/messages?s=1\n\n`);
    });
    const obs = await probeServer(
      { url: `${s.url}/sse`, transport: "sse" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }), limits: { deadlineMs: 3_000 } },
    );
    expect(other.log).toHaveLength(0);
    const [hs] = judge(obs);
    expect(hs!.state).toBe("failed");
    expect(hs!.reason).toMatch(/another origin/);
  });

  test("a stream that never names its endpoint is cut at the headers timeout, within the deadline", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const t = setInterval(() => res.write(": still here\n\n"), 50);
      res.on("close", () => clearInterval(t));
    });
    const t0 = performance.now();
    const obs = await probeServer(
      { url: `${s.url}/sse`, transport: "sse" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }), limits: { headersTimeoutMs: 800, deadlineMs: 3_000 } },
    );
    expect(performance.now() - t0).toBeLessThan(3_000);
    const [hs] = judge(obs);
    expect(hs!.state).toBe("failed");
    expect(hs!.reason).toMatch(/^No endpoint event arrived on the SSE stream within 800 ms\.$/);
  });

  test.each([
    [
      401,
      { "www-authenticate": 'Bearer resource_metadata="http://127.0.0.1:1/prm"' },
      "not_checked",
      /Credential required: the SSE stream answered HTTP 401/,
    ],
    [401, {}, "failed", /^The SSE stream was refused with HTTP 401 and no WWW-Authenticate header/],
    [429, { "retry-after": "30" }, "not_checked", /slow down.*Retry-After 30 s/],
    [404, {}, "failed", /^The SSE GET answered HTTP 404 with an empty body\.$/],
  ] as const)("the SSE GET answering %i decides the handshake", async (status, headers, state, reason) => {
    const s = await serve((_req, res) => res.writeHead(status, headers).end());
    const obs = await probeServer(
      { url: `${s.url}/sse`, transport: "sse" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }) },
    );
    const [hs] = judge(obs);
    expect(hs!.state).toBe(state);
    expect(hs!.reason).toMatch(reason);
    // One GET; after a 404 the probe looks once whether the URL answers Streamable HTTP instead (architecture.md §2.8).
    expect(s.log.filter((r) => r.method === "GET")).toHaveLength(1);
    expect(s.log.length).toBe(status === 404 ? 3 : 1);
    expect(hs!.hint).toBeUndefined();
  });

  test("a relative endpoint resolves against the SSE URL; the stream is closed at the end without an error", async () => {
    let streamClosed = false;
    const pending: import("node:http").ServerResponse[] = [];
    const s = await serve((req, res, body) => {
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(": hello\n\nevent: endpoint\ndata: messages?session=abc\n\n");
        res.on("close", () => (streamClosed = true));
        pending.push(res);
        return;
      }
      const m = JSON.parse(body) as { id?: number; method: string };
      res.writeHead(202).end("Accepted");
      const stream = pending[0]!;
      const send = (v: unknown) => stream.write(`event: message\ndata: ${JSON.stringify(v)}\n\n`);
      if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2024-11-05", capabilities: {} } });
      if (m.method === "tools/list") {
        send({ jsonrpc: "2.0", method: "notifications/message", params: {} });
        send({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "x", inputSchema: { type: "object" } }] } });
      }
      if (m.method === "tools/call")
        send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "Unknown tool" }], isError: true } });
    });
    const obs = await probeServer(
      { url: `${s.url}/sub/sse`, transport: "sse" },
      { addressPolicy: createAddressPolicy({ allowPrivate: true }) },
    );
    expect(s.log.filter((r) => r.method === "POST").map((r) => r.url)).toEqual(Array(4).fill("/sub/messages?session=abc"));
    expect(judge(obs).map((r) => r.state)).toEqual(["verified", "verified", "verified", "verified", "not_checked"]);
    expect(obs.era).toBe("legacy");
    expect(obs.exchanges[0]!.error).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(streamClosed).toBe(true);
  });
});
