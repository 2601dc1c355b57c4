import { afterEach, describe, expect, test } from "vitest";
import { fetchRegistry, RegistryError } from "@/lib/registry/client";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";

const http = (url: string) => [{ type: "streamable-http", url }];
const noSleep = { sleep: async () => undefined, log: () => undefined };

let reg: FixtureRegistry | undefined;
afterEach(async () => {
  await reg?.close();
  reg = undefined;
});

describe("registry client", () => {
  test("follows URL-encoded cursors to the end and keeps only active remote servers", async () => {
    reg = await startFixtureRegistry(
      [
        entry("io.github.a/one", http("https://one.example/mcp")),
        entry("io.github.a/two", [
          { type: "sse", url: "https://two.example/sse" },
          { type: "streamable-http", url: "https://two.example/mcp" },
        ]),
        entry("io.github.a/old", http("https://old.example/mcp"), { status: "deprecated" }),
        entry("io.github.a/gone", http("https://gone.example/mcp"), { status: "deleted" }),
        entry("io.github.a/pkg-only", undefined),
        entry("io.github.a/sse-only", [{ type: "sse", url: "https://three.example/sse" }]),
        entry("io.github.a/last", http("https://last.example/mcp")),
      ],
      { pageSize: 2 },
    );
    const res = await fetchRegistry(reg.url, noSleep);
    expect(res.pages).toBe(4);
    expect(res.servers.map((s) => s.name)).toEqual(["io.github.a/one", "io.github.a/two", "io.github.a/sse-only", "io.github.a/last"]);
    expect(res).toMatchObject({ entries: 7, inactive: 2, withoutRemote: 1 });
    // A full read asks for deleted entries too, so an owner's deletion (and its message) is seen, not only an absence.
    expect(res.withdrawn.map((w) => [w.name, w.status])).toEqual([
      ["io.github.a/old", "deprecated"],
      ["io.github.a/gone", "deleted"],
    ]);
    // The first streamable-http remote wins over an earlier sse one.
    expect(res.servers[1]).toMatchObject({ url: "https://two.example/mcp", transport: "streamable-http", needsConfig: null });
    expect(res.servers[2]).toMatchObject({ transport: "sse" });
    expect(reg.requests[0]).toBe("/v0.1/servers?version=latest&limit=100&include_deleted=true");
    expect(reg.requests[1]).toBe(
      `/v0.1/servers?version=latest&limit=100&include_deleted=true&cursor=${encodeURIComponent("io.github.a/two:1.0.0")}`,
    );
  });

  test("URL variables without a default and required headers need configuration; an optional secret header alone does not", async () => {
    reg = await startFixtureRegistry([
      entry("t/template", [{ type: "streamable-http", url: "https://{tenant_id}.api.example/mcp", variables: { tenant_id: {} } }]),
      entry("t/secret", [{ type: "streamable-http", url: "https://s.example/mcp", headers: [{ name: "Authorization", isSecret: true }] }]),
      entry("t/required", [{ type: "streamable-http", url: "https://r.example/mcp", headers: [{ name: "X-Api-Key", isRequired: true }] }]),
      entry("t/optional", [{ type: "streamable-http", url: "https://o.example/mcp", headers: [{ name: "X-Trace", isRequired: false }] }]),
    ]);
    const { servers } = await fetchRegistry(reg.url, noSleep);
    const by = Object.fromEntries(servers.map((s) => [s.name, s.needsConfig]));
    expect(by["t/template"]).toBe("its URL has {tenant_id} with no default, for the user to fill in");
    expect(by["t/secret"]).toBeNull();
    expect(by["t/required"]).toMatch(/requires the header X-Api-Key/);
    expect(by["t/optional"]).toBeNull();
  });

  test("a 429 is backed off for its Retry-After and retried", async () => {
    reg = await startFixtureRegistry([entry("a/one", http("https://one.example/mcp")), entry("a/two", http("https://two.example/mcp"))], {
      pageSize: 1,
    });
    reg.faults.rateLimitNext = 1;
    reg.faults.retryAfter = "7";
    const waits: number[] = [];
    const res = await fetchRegistry(reg.url, { sleep: async (ms) => void waits.push(ms), log: () => undefined, pageDelayMs: 0 });
    expect(res.servers).toHaveLength(2);
    expect(res.retries).toBe(1);
    expect(waits).toEqual([7000]);
  });

  test("pages are spaced out to stay under the registry's rate limit", async () => {
    reg = await startFixtureRegistry([entry("a/one", http("https://one.example/mcp")), entry("a/two", http("https://two.example/mcp"))], {
      pageSize: 1,
    });
    const waits: number[] = [];
    await fetchRegistry(reg.url, { sleep: async (ms) => void waits.push(ms), log: () => undefined });
    expect(waits).toEqual([100]);
  });

  test("retries are bounded", async () => {
    reg = await startFixtureRegistry([entry("a/one", http("https://one.example/mcp"))]);
    reg.faults.rateLimitNext = 100;
    await expect(fetchRegistry(reg.url, { ...noSleep, maxRetries: 3 })).rejects.toThrow(/kept answering 429 after 3 retries/);
    expect(reg.requests).toHaveLength(4);
  });

  test.each([
    ["a truncated body", '{"servers":['],
    ["a list of the wrong shape", '{"servers":"oops"}'],
    ["an HTML page", "<html>maintenance</html>"],
  ])("a garbage page (%s) aborts with a clear error", async (_label, body) => {
    reg = await startFixtureRegistry([entry("a/one", http("https://one.example/mcp")), entry("a/two", http("https://two.example/mcp"))], {
      pageSize: 1,
    });
    reg.faults.garbagePage = 1;
    reg.faults.garbageBody = body;
    const err = await fetchRegistry(reg.url, noSleep).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as Error).message).toMatch(/registry page .* (is not JSON|is not a server list)/);
  });

  test("with updatedSince only entries updated since then are asked for, deleted ones included", async () => {
    reg = await startFixtureRegistry([
      entry("a/old", http("https://old.example/mcp"), { updatedAt: "2026-11-01T00:00:00Z" }),
      entry("a/new", http("https://new.example/mcp"), { updatedAt: "2026-12-01T10:00:00Z" }),
      entry("a/dropped", http("https://dropped.example/mcp"), {
        status: "deleted",
        statusMessage: "Moved to io.example/next",
        updatedAt: "2026-12-01T11:00:00Z",
      }),
    ]);
    const res = await fetchRegistry(reg.url, { ...noSleep, updatedSince: "2026-12-01T00:00:00.000Z" });
    expect(reg.requests[0]).toBe(`/v0.1/servers?version=latest&limit=100&updated_since=${encodeURIComponent("2026-12-01T00:00:00.000Z")}`);
    expect(res.servers.map((s) => s.name)).toEqual(["a/new"]);
    expect(res.withdrawn).toEqual([
      { name: "a/dropped", status: "deleted", statusMessage: "Moved to io.example/next", registryUpdatedAt: "2026-12-01T11:00:00Z" },
    ]);
  });

  test("an owner's status message is kept as given, control characters dropped and cut to 500 characters", async () => {
    reg = await startFixtureRegistry([
      entry("a/dep", http("https://dep.example/mcp"), {
        status: "deprecated",
        statusMessage: `<b>Use v2</b>\u0000\u001b[31m${"x".repeat(600)}`,
      }),
      entry("a/live", http("https://live.example/mcp"), { statusMessage: "   " }),
    ]);
    const res = await fetchRegistry(reg.url, noSleep);
    const msg = res.withdrawn[0]!.statusMessage!;
    expect(msg.startsWith("<b>Use v2</b>[31m")).toBe(true);
    expect(msg).toHaveLength(500);
    expect(res.servers[0]!.registryStatusMessage).toBeNull();
  });

  test("a page larger than the byte cap stops the read there with a clear error", async () => {
    reg = await startFixtureRegistry([entry("a/one", http("https://one.example/mcp")), entry("a/two", http("https://two.example/mcp"))], {
      pageSize: 1,
    });
    reg.faults.endlessPage = 1;
    const cap = 256 * 1024;
    const err = await fetchRegistry(reg.url, { ...noSleep, maxPageBytes: cap }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as Error).message).toMatch(/^registry page 2 \(.*\) is larger than 262144 bytes; the read stopped there$/);
    // The endless body was cut off near the cap, not read on: what the server managed to write is bounded by socket buffers.
    await expect.poll(() => reg!.endlessBytes).toBeGreaterThan(cap);
    expect(reg.endlessBytes).toBeLessThan(cap + 16 * 1024 * 1024);
  });

  test("a page whose declared length is over the cap is refused before its body is read", async () => {
    reg = await startFixtureRegistry([entry("a/one", http("https://one.example/mcp"), { description: "d".repeat(4000) })]);
    await expect(fetchRegistry(reg.url, { ...noSleep, maxPageBytes: 1000 })).rejects.toThrow(
      /registry page 1 .* is larger than 1000 bytes/,
    );
    const res = await fetchRegistry(reg.url, { ...noSleep, maxPageBytes: 100_000 });
    expect(res.servers).toHaveLength(1);
  });

  test("an HTTP error status is an error, not an empty registry", async () => {
    reg = await startFixtureRegistry([]);
    await expect(fetchRegistry(`${reg.url}/nope`, noSleep)).rejects.toThrow(/answered HTTP 404/);
  });
});
