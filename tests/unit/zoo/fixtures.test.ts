// The zoo's own contract: seed bodies byte for byte, and many behaviours mounted on one listener.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { probeServer } from "@/lib/probe";
import { judge } from "@/lib/checks";
import { createZooHandler, startZooServer, type ZooRequestHandler } from "@/lib/demo/zoo";
import { LOOPBACK_ONLY, statesOf } from "./harness";

const DISCOVER = {
  jsonrpc: "2.0",
  id: "discover-1",
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
};

function postDiscover(url: string) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "server/discover",
    },
    body: JSON.stringify(DISCOVER),
  });
}

describe("zoo fixtures", () => {
  test("the Python SDK 1.x server answers discover with the body quoted in seed 003", async () => {
    const server = await startZooServer("legacy-python-sdk-server-error-id");
    try {
      const res = await postDiscover(server.url);
      expect(res.status).toBe(400);
      expect(await res.text()).toBe(
        /* wire */ '{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Unsupported protocol version: 2026-07-28. Supported versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"}}',
      );
      expect(server.log.map((r) => r.jsonrpcMethod)).toEqual(["server/discover"]);
    } finally {
      await server.close();
    }
  });

  test("the strict modern server refuses a request whose header disagrees with _meta", async () => {
    const server = await startZooServer("modern-healthy-paged");
    try {
      const res = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", "mcp-protocol-version": "2025-11-25", "mcp-method": "tools/list" },
        body: JSON.stringify({ ...DISCOVER, id: 2, method: "tools/list" }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32020);
    } finally {
      await server.close();
    }
  });

  test("a fleet mounts several behaviours on one listener by path prefix, and the probe reads each", async () => {
    const names = ["modern-healthy-paged", "legacy-session-required", "credential-gate-valid-prm", "http-sse-2024-11-05"];
    const handlers = new Map<string, ZooRequestHandler>(names.map((n) => [n, createZooHandler(n, { prefix: `/${n}` })]));
    const http = createServer((req, res) => {
      const first = (req.url ?? "/").split("/")[1]?.split("?")[0] ?? "";
      const handler = handlers.get(first);
      if (handler) void handler(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const probe = (name: string, transport: "streamable-http" | "sse" = "streamable-http") =>
        probeServer({ url: `${origin}/${name}/${transport === "sse" ? "sse" : "mcp"}`, transport }, { addressPolicy: LOOPBACK_ONLY });
      const modern = statesOf(judge(await probe("modern-healthy-paged")));
      expect(modern.tools_list).toBe("verified");
      expect(statesOf(judge(await probe("legacy-session-required"))).error_taxonomy).toBe("verified");
      const gated = await probe("credential-gate-valid-prm");
      expect(statesOf(judge(gated)).auth_metadata).toBe("verified");
      expect(gated.authMetadata?.kind === "ok" && gated.authMetadata.resource).toBe(`${origin}/credential-gate-valid-prm/mcp`);
      expect(statesOf(judge(await probe("http-sse-2024-11-05", "sse"))).tools_list).toBe("verified");
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
