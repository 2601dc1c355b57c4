import net, { type AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { createAddressPolicy, probeServer } from "@/lib/probe";

// architecture.md §2.7: a request that got no HTTP answer because of the network records which network cause it was,
// so a round can tell its own outage from a server's. Real loopback sockets and real lookup failures.

const policy = createAddressPolicy({ allowPrivate: true });
const limits = { connectTimeoutMs: 1_000, headersTimeoutMs: 1_000, bodyTimeoutMs: 1_000, deadlineMs: 3_000 };

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const lookupFailing = (code: string) => async (): Promise<never> => {
  throw Object.assign(new Error(`getaddrinfo ${code} mcp.example.test`), { code });
};

describe("network-level failures are classified on the exchange", () => {
  test("a closed port is `refused`", async () => {
    const obs = await probeServer(
      { url: `http://127.0.0.1:${await closedPort()}/mcp`, transport: "streamable-http" },
      { addressPolicy: policy, limits },
    );
    expect(obs.exchanges[0]).toMatchObject({ network: "refused", errorCode: "ECONNREFUSED" });
    expect(obs.exchanges[0]!.status).toBeUndefined();
  });

  test("a reset before any answer is `reset`; a reset after the headers is not a network failure", async () => {
    const s = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.once("data", () => {
        if (!headersFirst) return void socket.resetAndDestroy();
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc"');
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    let headersFirst = false;
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`;
    try {
      const before = await probeServer({ url, transport: "streamable-http" }, { addressPolicy: policy, limits });
      expect(before.exchanges[0]).toMatchObject({ network: "reset" });
      headersFirst = true;
      const after = await probeServer({ url, transport: "streamable-http" }, { addressPolicy: policy, limits });
      expect(after.exchanges[0]!.status).toBe(200);
      expect(after.exchanges[0]!.network).toBeUndefined();
    } finally {
      s.close();
    }
  });

  test.each([
    ["ENOTFOUND", "nxdomain"],
    ["EAI_AGAIN", "dns_unavailable"],
  ])("a lookup that fails with %s is `%s`", async (code, kind) => {
    const obs = await probeServer(
      { url: "http://mcp.example.test/mcp", transport: "streamable-http" },
      { addressPolicy: policy, limits, dnsLookup: lookupFailing(code) },
    );
    expect(obs.exchanges[0]).toMatchObject({ network: kind, errorCode: code });
  });

  test("an HTTP error answer carries no network cause", async () => {
    const s = net.createServer((socket) => {
      socket.on("error", () => undefined);
      socket.once("data", () => socket.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"));
    });
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    try {
      const obs = await probeServer(
        { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`, transport: "streamable-http" },
        { addressPolicy: policy, limits },
      );
      expect(obs.exchanges[0]!.status).toBe(502);
      expect(obs.exchanges[0]!.network).toBeUndefined();
    } finally {
      s.close();
    }
  });
});
