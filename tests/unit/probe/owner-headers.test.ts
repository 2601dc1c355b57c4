import { afterEach, describe, expect, test } from "vitest";
import { createAddressPolicy, probeServer, redactObservation } from "@/lib/probe";
import { startOwnerServer, type RunningOwnerServer } from "@/lib/demo/zoo/owners";

// architecture.md §11: the owner's headers go to the probed remote's origin only. Real loopback servers on three hosts: the
// remote, the metadata host its challenge points at, and a redirect target.

const KEY = "owner-value-5d1e0c9a7b";
const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
const servers: RunningOwnerServer[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
});

async function start(host: string, otherHost: string, key: string) {
  const s = await startOwnerServer("owner-key", { host, otherHost, state: { key } });
  servers.push(s);
  return s;
}

describe("the owner's headers", () => {
  test("reach the remote on every request, and never the metadata host its 401 points at", async () => {
    const remote = await start("127.0.0.1", "127.0.0.4", "not-the-owner's");
    const obs = await probeServer(
      { url: remote.url, transport: "streamable-http" },
      { addressPolicy: policy, ownerHeaders: { "x-api-key": KEY } },
    );
    expect(remote.log.length).toBeGreaterThan(0);
    expect(remote.log.every((r) => r.headers["x-api-key"] === KEY)).toBe(true);
    expect(remote.other.log.length).toBeGreaterThan(0);
    expect(JSON.stringify(remote.other.log)).not.toContain(KEY);
    // Recorded redacted as sent; the server's echo of the key is redacted by the caller's pass.
    expect(obs.exchanges.filter((x) => x.url.startsWith(remote.origin)).every((x) => x.requestHeaders["x-api-key"] === "‹redacted›")).toBe(
      true,
    );
    expect(JSON.stringify(obs)).toContain(KEY);
    expect(JSON.stringify(redactObservation(obs, [KEY]))).not.toContain(KEY);
  });

  test("are not carried across a redirect: the target gets nothing", async () => {
    const target = await start("127.0.0.7", "127.0.0.8", KEY);
    const remote = await start("127.0.0.1", "127.0.0.4", KEY);
    remote.state.mcpRedirect = target.url;
    const obs = await probeServer(
      { url: remote.url, transport: "streamable-http" },
      { addressPolicy: policy, ownerHeaders: { "x-api-key": KEY } },
    );
    expect(obs.handshake?.kind).toBe("failed");
    expect(target.log).toHaveLength(0);
  });

  test("a same-host URL on another port is another origin: it gets the request without them", async () => {
    const remote = await start("127.0.0.1", "127.0.0.1", "other");
    await probeServer({ url: remote.url, transport: "streamable-http" }, { addressPolicy: policy, ownerHeaders: { "x-api-key": KEY } });
    expect(remote.other.log.length).toBeGreaterThan(0);
    expect(remote.other.log.some((r) => r.headers["x-api-key"] !== undefined)).toBe(false);
  });
});
