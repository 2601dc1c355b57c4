import http from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// Real parts for the notification tests: an SMTP server from `smtp-server` on loopback that keeps every mail it is given, and
// plain HTTP receivers on loopback that answer as a script says. Both are started and stopped by the test.

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  headers: Map<string, unknown>;
  raw: string;
}

export async function startSmtp(): Promise<{
  url: string;
  mails: ReceivedMail[];
  until(total: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        void simpleParser(raw).then((m) => {
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: m.subject ?? "",
            text: m.text ?? "",
            headers: m.headers as Map<string, unknown>,
            raw,
          });
          for (const w of waiters.splice(0)) w();
          cb();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Resolves once `total` mails have arrived in all. */
    async until(total: number) {
      while (mails.length < total) await new Promise<void>((resolve) => waiters.push(resolve));
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers each request with the next status of `script` (the last one repeats). */
export async function startReceiver(script: number[] | ((n: number) => number | "hang") = [200]) {
  const hits: Hit[] = [];
  const waiters: (() => void)[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const n = hits.length - 1;
      const status = typeof script === "function" ? script(n) : (script[Math.min(n, script.length - 1)] ?? 200);
      for (const w of waiters.splice(0)) w();
      if (status === "hang") return;
      res.writeHead(status, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    hits,
    /** Resolves once `total` requests have arrived in all. */
    async until(total: number) {
      while (hits.length < total) await new Promise<void>((resolve) => waiters.push(resolve));
      return hits;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
