import type { Transport } from "../probe/protocol";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One entry as the official registry lists it under /v0.1/servers. */
export interface RegistryEntry {
  name: string;
  description: string;
  title?: string;
  version: string;
  status: "active" | "deprecated" | "deleted";
  remotes: { type: Transport; url: string; headers?: { name: string; isRequired?: boolean; isSecret?: boolean; description?: string }[] }[];
}

export interface RunningRegistry {
  url: string;
  close(): Promise<void>;
  /** Requests served, for tests and logs. */
  hits: number;
}

function listing(entry: RegistryEntry) {
  const now = "2026-11-01T00:00:00Z";
  return {
    server: {
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      name: entry.name,
      title: entry.title,
      description: entry.description,
      version: entry.version,
      remotes: entry.remotes,
    },
    _meta: {
      "io.modelcontextprotocol.registry/official": { status: entry.status, publishedAt: now, updatedAt: now, isLatest: true },
    },
  };
}

/** A loopback registry in the /v0.1 shape: `version=latest`, `limit`, opaque `cursor` → `metadata.nextCursor`. */
export async function startRegistry(entries: readonly RegistryEntry[], host = "127.0.0.1", port = 0): Promise<RunningRegistry> {
  const state = { hits: 0 };
  const server: Server = createServer((req, res) => {
    state.hits++;
    const url = new URL(req.url ?? "/", `http://${host}`);
    if (url.pathname !== "/v0.1/servers" && url.pathname !== "/v0/servers") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
      return;
    }
    const limit = Math.min(100, Math.max(1, Number(url.searchParams.get("limit") ?? 30) || 30));
    const cursor = url.searchParams.get("cursor");
    const start = cursor ? Math.max(0, entries.findIndex((e) => `${e.name}:${e.version}` === cursor) + 1) : 0;
    const page = entries.slice(start, start + limit);
    const last = page.at(-1);
    const more = start + limit < entries.length && last;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        servers: page.map(listing),
        metadata: { count: page.length, ...(more ? { nextCursor: `${last.name}:${last.version}` } : {}) },
      }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    get hits() {
      return state.hits;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
