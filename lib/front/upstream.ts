import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { endToEnd, rawHeaders } from "./headers";

// The hop from the front to its renderer (`next start` on loopback). Connections are kept open but
// retired before the renderer would close them; a GET or HEAD that meets a reset on a reused socket
// before any byte came back is sent once more; a renderer that sends no headers within the limit is a
// timeout, never a wait without end.

/** The renderer's (and so the embedded scheduler's rounds') CPU priority (nice): below the front's, so a
 * burst of renders or a round's probing never delays answers the front already holds. */
export const RENDERER_NICENESS = 10;

/** How long the renderer keeps an idle connection (`next start --keepAliveTimeout`). */
export const RENDERER_KEEP_ALIVE_MS = 10_000;
/** How long the front keeps an idle connection to the renderer: well under the renderer's, so a request is
 * never written to a socket the renderer is closing. */
export const UPSTREAM_IDLE_MS = 4_000;

// Fields about this client's own exchange with the front, not the front's with the renderer.
const REQUEST_ONLY = new Set(["expect", "content-length"]);
// A reused socket that the peer closed under us surfaces as one of these before any byte came back.
const STALE_SOCKET = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

/** Why a hop gave no usable answer: no headers within the limit, no answer at all, or an answer cut off
 * after its headers. */
export type HopFailure = "timeout" | "unreachable" | "cut";

export class HopError extends Error {
  constructor(
    readonly failure: HopFailure,
    readonly code: string,
  ) {
    super(`renderer ${failure}${code ? ` (${code})` : ""}`);
  }
}

export interface HopRequest {
  method: string;
  /** Origin-form target: path and query. */
  path: string;
  headers: OutgoingHttpHeaders;
  /** The whole request body, read by the front before the hop (so a slow upload never holds a render). */
  body?: Buffer;
  /** When to give up (epoch ms): on the headers for `send` and `pipe`, on the whole answer for `whole`. */
  deadline: number;
}

/** A whole answer, read to its end. */
export interface WholeAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface Upstream {
  /** Resolves with the renderer's answer once its headers arrived; rejects with a HopError. */
  send(r: HopRequest): Promise<IncomingMessage>;
  /** The answer read to its end (a body cut off rejects with failure "cut"). */
  whole(r: HopRequest): Promise<WholeAnswer>;
  /** Streams the answer to `res` with its end-to-end headers; resolves when `res` is done.
   * A failure before the headers rejects (nothing was written); after them `res` is cut off, never
   * completed. `onHead` runs once the headers came or the hop failed. */
  pipe(r: HopRequest, res: ServerResponse, o?: { onHead?: () => void }): Promise<void>;
  close(): void;
}

export function createUpstream(at: { host: string; port: number; idleMs?: number }): Upstream {
  // `timeout` closes a free socket after that long idle (and lowers to the renderer's Keep-Alive hint).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: at.idleMs ?? UPSTREAM_IDLE_MS });

  /** The answer's head; `holdTimer` keeps the deadline running after the headers (for `whole`). */
  function send(r: HopRequest, abandon?: AbortSignal, holdTimer = false): Promise<IncomingMessage> {
    return new Promise<IncomingMessage>((resolve, reject) => {
      // Only idempotent requests may be sent twice.
      const retryable = r.method === "GET" || r.method === "HEAD";
      let current: http.ClientRequest | undefined;
      let settled = false;
      const fail = (e: HopError) => {
        current?.destroy(e);
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(e);
      };
      const timer = setTimeout(() => fail(new HopError("timeout", "")), Math.max(0, r.deadline - Date.now()));
      abandon?.addEventListener("abort", () => fail(new HopError("unreachable", "client gone")), { once: true });
      // Framing is the hop's own: the body goes whole, with its length.
      const headers: OutgoingHttpHeaders = Object.fromEntries(endToEnd(r.headers).filter(([k]) => !REQUEST_ONLY.has(k)));
      if (r.body || (r.method !== "GET" && r.method !== "HEAD")) headers["content-length"] = String(r.body?.length ?? 0);
      const attempt = (n: number) => {
        let up: http.ClientRequest;
        try {
          up = http.request({ host: at.host, port: at.port, method: r.method, path: r.path, headers, agent }, (answer) => {
            if (settled) return void answer.destroy();
            settled = true;
            if (holdTimer) answer.once("close", () => clearTimeout(timer));
            else clearTimeout(timer);
            resolve(answer);
          });
        } catch (e) {
          // A target or field Node will not send (it refuses unescaped characters in a path, say).
          return fail(new HopError("unreachable", (e as NodeJS.ErrnoException).code ?? (e as Error).message));
        }
        current = up;
        up.on("error", (e) => {
          const code = (e as NodeJS.ErrnoException).code ?? e.message;
          if (!settled && retryable && n === 0 && up.reusedSocket && STALE_SOCKET.has(code)) return attempt(1);
          fail(new HopError("unreachable", code));
        });
        up.end(r.body);
      };
      attempt(0);
    });
  }

  return {
    send: (r) => send(r),
    async whole(r) {
      // The deadline covers the body too: it destroys the answer, which then closes before its end.
      const answer = await send(r, undefined, true);
      return new Promise<WholeAnswer>((resolve, reject) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.once("end", () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
        answer.on("error", () => undefined);
        // Closed before its end: the renderer failed after the headers, or the deadline passed.
        answer.once(
          "close",
          () => !answer.complete && reject(new HopError(Date.now() >= r.deadline ? "timeout" : "cut", "closed before the end")),
        );
      });
    },
    async pipe(r, res, { onHead } = {}) {
      const gone = new AbortController();
      const onClose = () => gone.abort();
      res.once("close", onClose);
      let answer: IncomingMessage;
      try {
        answer = await send(r, gone.signal);
      } finally {
        res.off("close", onClose);
        onHead?.();
      }
      await new Promise<void>((resolve) => {
        const cut = () => {
          // A partial answer must never look whole: no end, the connection is closed.
          res.destroy();
          resolve();
        };
        res.once("close", () => {
          if (!answer.complete) answer.destroy();
          resolve();
        });
        answer.on("error", () => undefined);
        answer.once("close", () => !answer.complete && cut());
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, rawHeaders(endToEnd(answer.headers)));
        answer.pipe(res);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
