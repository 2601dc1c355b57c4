import http, { type IncomingMessage, type ServerResponse } from "node:http";

// Hands a request to the Next.js process behind the front cache and streams its answer back unchanged,
// through the response's own write/end (so the front cache can keep what passes). Connections to it are
// kept open, but retired before the renderer would close them.

/** The renderer's (and so the embedded scheduler's rounds') CPU priority (nice): below the front's, so a
 * burst of renders or a round's probing never delays answers the front already holds. */
export const RENDERER_NICENESS = 10;

/** How long the renderer keeps an idle connection (`next start --keepAliveTimeout`). */
export const RENDERER_KEEP_ALIVE_MS = 10_000;
/** How long the front keeps an idle connection to the renderer: well under the renderer's, so a request is
 * never written to a socket the renderer is closing. */
export const UPSTREAM_IDLE_MS = 4_000;

// Hop-by-hop fields (RFC 9110 §7.6.1) belong to one connection, never forwarded.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);
// A reused socket that the peer closed under us surfaces as one of these before any byte came back.
const STALE_SOCKET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

export interface Upstream {
  pass(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): void;
}

export function createUpstream(at: { host: string; port: number; idleMs?: number }): Upstream {
  // `timeout` closes a free socket after that long idle (and lowers to the renderer's Keep-Alive hint).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: at.idleMs ?? UPSTREAM_IDLE_MS });
  return {
    pass(req, res) {
      return new Promise<void>((resolve) => {
        const headers: http.OutgoingHttpHeaders = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
        const forwarded = req.socket.remoteAddress;
        if (forwarded) headers["x-forwarded-for"] = [req.headers["x-forwarded-for"], forwarded].filter(Boolean).join(", ");
        // Only bodiless, idempotent requests may be sent twice.
        const bodiless = !req.headers["transfer-encoding"] && (req.headers["content-length"] ?? "0") === "0";
        const retryable = (req.method === "GET" || req.method === "HEAD") && bodiless;
        let current: http.ClientRequest | undefined;
        const send = (attempt: number) => {
          const up = http.request({ host: at.host, port: at.port, method: req.method, path: req.url, headers, agent }, (answer) => {
            for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) res.setHeader(k, v);
            res.writeHead(answer.statusCode ?? 502, answer.statusMessage);
            answer.pipe(res);
            answer.once("error", () => res.destroy());
          });
          current = up;
          up.once("error", (e) => {
            const code = (e as NodeJS.ErrnoException).code ?? "";
            if (retryable && attempt === 0 && up.reusedSocket && !res.headersSent && STALE_SOCKET.has(code)) return send(1);
            if (!res.headersSent) {
              res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
              res.end(`The site's renderer did not answer (${code || e.message}).\n`);
            } else res.destroy();
          });
          if (retryable) up.end();
          else req.pipe(up);
        };
        res.once("close", () => {
          if (!res.writableFinished) current?.destroy();
          resolve();
        });
        send(0);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
