import http, { type IncomingMessage, type ServerResponse } from "node:http";

// Hands a request to the Next.js process behind the front cache and streams its answer back unchanged,
// through the response's own write/end (so the front cache can keep what passes). Connections to it are
// kept open.

/** The renderer's (and so the embedded scheduler's rounds') CPU priority (nice): below the front's, so a
 * burst of renders or a round's probing never delays answers the front already holds. */
export const RENDERER_NICENESS = 10;

// Hop-by-hop fields (RFC 9110 §7.6.1) belong to one connection, never forwarded.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

export interface Upstream {
  pass(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): void;
}

export function createUpstream(at: { host: string; port: number }): Upstream {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  return {
    pass(req, res) {
      return new Promise<void>((resolve) => {
        const headers: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
        const forwarded = req.socket.remoteAddress;
        if (forwarded) headers["x-forwarded-for"] = [req.headers["x-forwarded-for"], forwarded].filter(Boolean).join(", ");
        const up = http.request({ host: at.host, port: at.port, method: req.method, path: req.url, headers, agent }, (answer) => {
          for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage);
          answer.pipe(res);
          answer.once("error", () => res.destroy());
        });
        up.once("error", (e) => {
          if (!res.headersSent) {
            res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
            res.end(`The site's renderer did not answer (${(e as NodeJS.ErrnoException).code ?? e.message}).\n`);
          } else res.destroy();
        });
        res.once("close", () => {
          if (!res.writableFinished) up.destroy();
          resolve();
        });
        req.pipe(up);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
