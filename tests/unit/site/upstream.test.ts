import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { createFrontCache } from "@/lib/site/front-cache";
import { createUpstream, type Upstream } from "@/lib/site/upstream";

// The front process of `npm start` hands requests to the renderer over loopback: a real renderer stand-in
// and a real front server, as in production.

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return (server.address() as AddressInfo).port;
}

async function front(rendererPort: number, cached = false, idleMs?: number): Promise<{ origin: string; upstream: Upstream }> {
  const upstream = createUpstream({ host: "127.0.0.1", port: rendererPort, idleMs });
  closers.push(() => upstream.close());
  const cache = createFrontCache({ maxBytes: 1 << 20, staleMs: 3_000, route: (req) => (cached && req.url === "/page" ? { key: "page", version: "1" } : null) });
  const port = await listen((req, res) => void cache.handle(req, res, upstream.pass));
  return { origin: `http://127.0.0.1:${port}`, upstream };
}

describe("upstream (front → renderer)", () => {
  test("passes method, path, headers and body through, and the answer back with its status and every header", async () => {
    let seen: { method?: string; url?: string; host?: string; body: string; forwardedFor?: string; connection?: string } | undefined;
    const renderer = await listen((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen = { method: req.method, url: req.url, host: req.headers.host, body, forwardedFor: req.headers["x-forwarded-for"] as string, connection: req.headers["x-custom"] as string };
        res.setHeader("set-cookie", ["a=1; Path=/", "b=2; Path=/"]);
        res.writeHead(303, { location: "/servers/x?reprobe=accepted", "content-type": "text/plain" });
        res.end("see other\n");
      });
    });
    const { origin } = await front(renderer);
    const res = await fetch(`${origin}/api/reprobe?x=1`, { method: "POST", body: "name=io.test%2Fx&token=t", headers: { "content-type": "application/x-www-form-urlencoded", "x-custom": "kept", host: "status.test" }, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/servers/x?reprobe=accepted");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await res.text()).toBe("see other\n");
    expect(seen).toMatchObject({ method: "POST", url: "/api/reprobe?x=1", body: "name=io.test%2Fx&token=t", forwardedFor: "127.0.0.1", connection: "kept" });
  });

  test("streams a long answer as it comes, and the front cache keeps a 200 that passed through it", async () => {
    let renders = 0;
    const renderer = await listen((_req, res) => {
      renders++;
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<p>first</p>");
      setTimeout(() => res.end("<p>last</p>"), 50);
    });
    const { origin } = await front(renderer, true);
    const first = await fetch(`${origin}/page`);
    expect(first.headers.get("x-page-cache")).toBe("fill");
    expect(await first.text()).toBe("<p>first</p><p>last</p>");
    const again = await fetch(`${origin}/page`);
    expect(again.headers.get("x-page-cache")).toBe("hit");
    expect(await again.text()).toBe("<p>first</p><p>last</p>");
    expect(renders).toBe(1);
  });

  test("a renderer that does not answer is a 502 that says so, and the front keeps serving", async () => {
    const gone = await listen(() => undefined);
    await closers.pop()!();
    const { origin } = await front(gone);
    const res = await fetch(`${origin}/anything`);
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/renderer did not answer \(ECONNREFUSED\)/);
    expect((await fetch(`${origin}/again`)).status).toBe(502);
  });

  // A raw renderer: answers the first request on each connection with keep-alive, then resets the
  // connection when a second request arrives on it, as a peer closing an idle socket does.
  async function resettingRenderer(): Promise<{ port: number; connections: () => number }> {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      let answered = false;
      socket.on("data", () => {
        if (answered) return void socket.resetAndDestroy();
        answered = true;
        socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 3\r\nconnection: keep-alive\r\n\r\nok\n");
      });
      socket.on("error", () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    return { port: (server.address() as AddressInfo).port, connections: () => connections };
  }

  test("a GET that meets a reset on a reused connection is sent once more on a new one", async () => {
    const renderer = await resettingRenderer();
    const { origin } = await front(renderer.port);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${origin}/page-${i}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("ok\n");
    }
    expect(renderer.connections()).toBe(3);
  });

  test("a POST that meets a reset is not sent twice: the visitor gets the 502", async () => {
    const renderer = await resettingRenderer();
    const { origin } = await front(renderer.port);
    expect((await fetch(`${origin}/first`)).status).toBe(200);
    const res = await fetch(`${origin}/api/reprobe`, { method: "POST", body: "server=x" });
    expect(res.status).toBe(502);
    expect(await res.text()).toMatch(/ECONNRESET/);
  });

  test("idle connections to the renderer are closed by the front before the renderer's keep-alive ends", async () => {
    let closedByPeer = 0;
    const server = http.createServer((_req, res) => res.end("ok"));
    server.keepAliveTimeout = 5_000;
    server.on("connection", (socket) => socket.on("end", () => closedByPeer++));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    closers.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    const { origin } = await front((server.address() as AddressInfo).port, false, 200);
    expect((await fetch(`${origin}/a`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 700));
    expect(closedByPeer).toBe(1);
  });
});
