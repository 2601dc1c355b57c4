import http from "node:http";
import type { AddressInfo } from "node:net";

/** A real HTTP server on 127.0.0.1, port 0, with a request log; close it in finally/afterAll. */
export interface Loopback {
  url: string;
  port: number;
  log: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export async function startLoopback(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): Promise<Loopback> {
  const log: Loopback["log"] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      log.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON-RPC method of a logged body, if any. */
export function rpcMethod(body: string): string | undefined {
  try {
    const v = JSON.parse(body) as { method?: unknown };
    return typeof v.method === "string" ? v.method : undefined;
  } catch {
    return undefined;
  }
}
