import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { parseConfig } from "@/lib/config";
import { createFileServer } from "@/lib/front/files";
import { createFront } from "@/lib/front/front";
import { frontRoute } from "@/lib/front/routes";
import { createUpstream } from "@/lib/front/upstream";
import { openDb } from "@/db/client";

// The front answers a day's open-data file from the folder itself (architecture.md §3): ETag, 304, one range, HEAD;
// a missing or malformed day goes to the renderer (here a real HTTP server standing where it stands in `npm start`).

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return (server.address() as AddressInfo).port;
}

async function start() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "front-files-"));
  closers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const db = openDb(path.join(dir, "site.db"));
  const seen: string[] = [];
  const renderer = http.createServer((req, res) => {
    seen.push(req.url!);
    res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not_found"}');
  });
  const upstream = createUpstream({ host: "127.0.0.1", port: await listen(renderer) });
  closers.push(() => upstream.close());
  const front = createFront({
    limits: parseConfig({}).front,
    route: (req) => frontRoute(req, { db, publicBaseUrl: undefined }),
    renderer: {
      upstream: () => upstream,
      retryAfterS: () => 3,
      status: () => ({ state: "up", pid: 1, since: "", restarts: 0, lastExit: null, nextStartAt: null }),
    },
    healthFacts: () => ({}),
    files: createFileServer({ dir, maxBytes: 1 << 20 }),
    log: () => undefined,
  });
  const origin = `http://127.0.0.1:${await listen(front.server)}`;
  return { dir, seen, front, origin };
}

async function get(url: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(url, { headers, method });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

test("a day's file is answered by the front: whole, 304, one range, 416 and HEAD, with no render", async () => {
  const s = await start();
  const bytes = Buffer.from(Array.from({ length: 5_000 }, (_, i) => i % 251));
  fs.writeFileSync(path.join(s.dir, "servers-2026-11-30.jsonl.gz"), bytes);
  const url = `${s.origin}/data/servers-2026-11-30.jsonl.gz`;

  const whole = await get(url);
  expect(whole.status).toBe(200);
  expect(whole.body.equals(bytes)).toBe(true);
  expect(whole.headers.get("content-type")).toBe("application/gzip");
  const etag = whole.headers.get("etag")!;
  expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
  // A second answer comes from the held bytes and is the same.
  expect((await get(url)).body.equals(bytes)).toBe(true);

  const notModified = await get(url, { "if-none-match": etag });
  expect(notModified.status).toBe(304);
  expect(notModified.body.length).toBe(0);

  const part = await get(url, { range: "bytes=100-199" });
  expect(part.status).toBe(206);
  expect(part.headers.get("content-range")).toBe("bytes 100-199/5000");
  expect(part.body.equals(bytes.subarray(100, 200))).toBe(true);
  expect((await get(url, { range: "bytes=-10" })).body.equals(bytes.subarray(4_990))).toBe(true);
  expect((await get(url, { range: "bytes=9000-" })).status).toBe(416);

  const head = await get(url, {}, "HEAD");
  expect(head.status).toBe(200);
  expect(head.headers.get("content-length")).toBe("5000");

  expect(s.seen).toEqual([]);
  expect(s.front.stats.snapshot().answers.file).toBe(7);
});

test("a file written again is answered new, not from the held bytes", async () => {
  const s = await start();
  const file = path.join(s.dir, "servers-2026-11-30.jsonl.gz");
  fs.writeFileSync(file, "first");
  const url = `${s.origin}/data/servers-2026-11-30.jsonl.gz`;
  const first = await get(url);
  expect(first.body.toString()).toBe("first");
  fs.writeFileSync(file, "second, longer");
  fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
  const second = await get(url);
  expect(second.body.toString()).toBe("second, longer");
  expect(second.headers.get("etag")).not.toBe(first.headers.get("etag"));
});

test("a missing or malformed day goes to the renderer, which words the 404 and the 400", async () => {
  const s = await start();
  expect((await get(`${s.origin}/data/servers-2026-11-29.jsonl.gz`)).status).toBe(404);
  expect((await get(`${s.origin}/data/servers-2026-02-30.jsonl.gz`)).status).toBe(404);
  expect(s.seen).toEqual(["/data/servers-2026-11-29.jsonl.gz", "/data/servers-2026-02-30.jsonl.gz"]);
  expect(s.front.stats.snapshot().answers.file).toBe(0);
});
