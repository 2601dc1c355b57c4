import http from "node:http";
import type { AddressInfo } from "node:net";
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

async function front(rendererPort: number, cached = false): Promise<{ origin: string; upstream: Upstream }> {
  const upstream = createUpstream({ host: "127.0.0.1", port: rendererPort });
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
});
