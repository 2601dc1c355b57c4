import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport, type FetchLike } from "@modelcontextprotocol/client";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { Agent, fetch as undiciFetch } from "undici";
import { closeDb, openDb, type Db } from "@/db/client";
import { createMcpEndpoint, type McpEndpointOptions } from "@/lib/mcp/endpoint";
import { seedDatabase } from "../../e2e/seed";

// /mcp on a real loopback HTTP server over a seeded SQLite file (the e2e seed), with the front's one trusted
// fact: the socket's address appended to X-Forwarded-For.

export interface McpSite {
  url: string;
  db: Db;
  close(): Promise<void>;
}

export async function startMcpSite(options: Partial<McpEndpointOptions> = {}): Promise<McpSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-endpoint-"));
  const file = path.join(dir, "site.db");
  seedDatabase(file);
  const db = openDb(file);
  const endpoint = createMcpEndpoint({ db, publicBaseUrl: "https://status.example", ...options });
  const node = toNodeHandler({ fetch: endpoint });
  const server = http.createServer((req, res) => {
    const sent = req.headers["x-forwarded-for"];
    req.headers["x-forwarded-for"] = [sent, req.socket.remoteAddress].filter(Boolean).join(", ");
    void node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    db,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      closeDb(db);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fetch whose connections leave from `localAddress` (any 127/8 address is this machine's own): another client. */
export function fetchFrom(localAddress: string): FetchLike & typeof undiciFetch {
  const dispatcher = new Agent({ localAddress });
  return ((input: Parameters<typeof undiciFetch>[0], init: Parameters<typeof undiciFetch>[1] = {}) =>
    undiciFetch(input, { ...init, dispatcher })) as FetchLike & typeof undiciFetch;
}

export type Era = "modern" | "legacy";

/** The official SDK client: modern negotiates with server/discover, legacy is the plain 2025 initialize. */
export async function sdkClient(url: string, era: Era, fetch?: FetchLike): Promise<Client> {
  const client = new Client(
    { name: "mcp-status-tests", version: "1.0.0" },
    era === "modern" ? { versionNegotiation: { mode: "auto" } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), fetch ? { fetch } : {}));
  return client;
}

export const MODERN_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
};

/** A modern JSON-RPC request body with the full per-request _meta. */
export function modernBody(id: number | string, method: string, params: Record<string, unknown> = {}): string {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  };
  return JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } });
}
