import { gzipSync, brotliCompressSync, constants as zc } from "node:zlib";
import { afterAll, describe, expect, test } from "vitest";
import { createAddressPolicy, DEFAULT_USER_AGENT, probeServer, type ProbeLimits } from "@/lib/probe";
import { judge } from "@/lib/checks";
import { startLoopback, type Loopback } from "./loopback";

const policy = createAddressPolicy({ allowPrivate: true });
const small: Partial<ProbeLimits> = {
  connectTimeoutMs: 1_000,
  headersTimeoutMs: 1_000,
  bodyTimeoutMs: 800,
  deadlineMs: 2_500,
  maxBodyBytes: 64 * 1024,
};
const SLACK_MS = 1_000;

const servers: Loopback[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
async function serve(handler: Parameters<typeof startLoopback>[0]): Promise<Loopback> {
  const s = await startLoopback(handler);
  servers.push(s);
  return s;
}

async function timedProbe(url: string, limits = small) {
  const t0 = performance.now();
  const obs = await probeServer({ url, transport: "streamable-http" }, { addressPolicy: policy, limits });
  return { obs, elapsed: performance.now() - t0 };
}

describe("HTTP limits against hostile loopback servers", () => {
  test("a huge body stops at the byte cap", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    const { obs, elapsed } = await timedProbe(`${s.url}/mcp`);
    const first = obs.exchanges[0]!;
    expect(first.truncated).toBe(true);
    expect(first.bodyBytes).toBeLessThanOrEqual(64 * 1024);
    expect(first.error).toMatch(/exceeded 65536 bytes/);
    expect(elapsed).toBeLessThan(2_500 + SLACK_MS);
  });

  test.each([
    ["gzip", (b: Buffer) => gzipSync(b, { level: 9 })],
    ["br", (b: Buffer) => brotliCompressSync(b, { params: { [zc.BROTLI_PARAM_QUALITY]: 5 } })],
  ])("a %s bomb stops at the decompressed cap", async (encoding, compress) => {
    const bomb = compress(Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces in a few hundred KiB at most
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": encoding });
      res.end(bomb);
    });
    const before = process.memoryUsage().rss;
    const { obs, elapsed } = await timedProbe(`${s.url}/mcp`);
    const first = obs.exchanges[0]!;
    expect(first.bodyBytes).toBeLessThanOrEqual(64 * 1024);
    expect(first.truncated).toBe(true);
    expect(elapsed).toBeLessThan(2_500 + SLACK_MS);
    // Not a precise memory bound, but 64 MiB decoded would show.
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });

  test("a server that hangs after its headers costs at most the body timeout per request and the deadline overall", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
    });
    const { obs, elapsed } = await timedProbe(`${s.url}/mcp`);
    expect(obs.exchanges[0]!.error).toMatch(/stalled for 800 ms/);
    expect(judge(obs)[0]!.state).toBe("failed");
    expect(elapsed).toBeLessThan(2_500 + SLACK_MS);
  });

  test("a server that never sends headers is cut at the headers timeout", async () => {
    const s = await serve(() => undefined);
    const { obs, elapsed } = await timedProbe(`${s.url}/mcp`);
    expect(obs.exchanges[0]!.error).toMatch(/no response headers within 1000 ms/);
    expect(judge(obs)[0]!.reason).toMatch(/no answer/);
    expect(elapsed).toBeLessThan(2_500 + SLACK_MS);
  });

  test("a slow drip never outlasts the per-server deadline", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const t = setInterval(() => res.write(": drip\n"), 100);
      res.on("close", () => clearInterval(t));
    });
    const { obs, elapsed } = await timedProbe(`${s.url}/mcp`);
    expect(obs.deadlineHit).toBe(true);
    expect(obs.exchanges[0]!.error).toMatch(/deadline/);
    expect(elapsed).toBeLessThan(2_500 + SLACK_MS);
    expect(elapsed).toBeGreaterThanOrEqual(2_400);
  });

  test("a redirect is an outcome, never followed", async () => {
    const target = await serve((_req, res) => res.writeHead(200).end("{}"));
    const s = await serve((_req, res) => {
      res.writeHead(307, { location: `${target.url}/elsewhere` });
      res.end();
    });
    const { obs } = await timedProbe(`${s.url}/mcp`);
    expect(target.log).toHaveLength(0);
    expect(s.log).toHaveLength(1);
    const [hs] = judge(obs);
    expect(hs!.state).toBe("failed");
    expect(hs!.reason).toMatch(/HTTP 307 with a redirect to .*elsewhere \(not followed\)/);
  });

  test("requests carry our User-Agent and no Origin, cookie or Authorization", async () => {
    const s = await serve((_req, res) => res.writeHead(404).end());
    await timedProbe(`${s.url}/mcp`);
    expect(s.log.length).toBeGreaterThanOrEqual(2);
    for (const r of s.log) {
      expect(r.headers["user-agent"]).toBe(DEFAULT_USER_AGENT);
      expect(r.headers.origin).toBeUndefined();
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
    }
  });

  test("a prototype-polluting body does not pollute", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"polluted":true},"supportedVersions":["2026-07-28"]}}');
    });
    const { obs } = await timedProbe(`${s.url}/mcp`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(obs.handshake?.kind).toBe("modern");
  });
});
