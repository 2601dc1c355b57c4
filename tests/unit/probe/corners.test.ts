// Issue 9's probe corners that need their own limits: the probe's budget against a request timing out,
// and the official SDK client's rule for whether metadata's `resource` covers the server.
import { afterAll, describe, expect, test } from "vitest";
import { createAddressPolicy, probeServer } from "@/lib/probe";
import { metadataProblems, resourceMismatch } from "@/lib/probe/auth";
import { judge } from "@/lib/checks";
import { startLoopback, type Loopback } from "./loopback";

const servers: Loopback[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Modern server: page 1 answers at once with a cursor; page 2 is never answered. */
async function secondPageHangs(): Promise<Loopback> {
  const s = await startLoopback((_req, res, body) => {
    const m = JSON.parse(body || "{}") as { id?: number; method?: string; params?: { cursor?: string } };
    const reply = (result: unknown) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
    if (m.method === "server/discover") return reply({ supportedVersions: ["2026-07-28"], capabilities: {} });
    if (m.method === "tools/list" && m.params?.cursor === undefined)
      return reply({ tools: [{ name: "a", inputSchema: { type: "object" } }], nextCursor: "p2" });
    if (m.method === "tools/list") return; // held open until the server closes
    res.writeHead(404).end();
  });
  servers.push(s);
  return s;
}

const policy = createAddressPolicy({ allowPrivate: true });

describe("the probe's own deadline is not the server's fault (architecture.md §2.2)", () => {
  test("a page request that times out on its own is Failed, after the pages already read", async () => {
    const s = await secondPageHangs();
    const obs = await probeServer(
      { url: `${s.url}/mcp`, transport: "streamable-http" },
      { addressPolicy: policy, limits: { headersTimeoutMs: 1_000, deadlineMs: 10_000 } },
    );
    expect(obs.toolsList?.kind).toBe("failed");
    const tl = judge(obs).find((r) => r.check === "tools_list")!;
    expect(tl.state).toBe("failed");
    expect(tl.reason).toMatch(/^tools\/list page 2 got no answer \(no response headers within 1000 ms\); after 1 page read\.$/);
    expect(judge(obs).find((r) => r.check === "error_taxonomy")!.state).toBe("not_checked");
  });

  test("the same server cut by the probe's deadline first is the probe's budget: Not checked with the pages read", async () => {
    const s = await secondPageHangs();
    const obs = await probeServer(
      { url: `${s.url}/mcp`, transport: "streamable-http" },
      { addressPolicy: policy, limits: { headersTimeoutMs: 15_000, deadlineMs: 1_500 } },
    );
    expect(obs.toolsList).toMatchObject({ kind: "budget_exhausted", pages: 1 });
    expect(obs.deadlineHit).toBe(true);
    const results = judge(obs);
    const tl = results.find((r) => r.check === "tools_list")!;
    expect(tl.state).toBe("not_checked");
    expect(tl.reason).toMatch(/deadline ran out while the server was still answering tools\/list: 1 page \(1 tool\) came back in time/);
    expect(results.find((r) => r.check === "error_taxonomy")!.reason).toMatch(
      /withheld because the probe's deadline ran out with pages of the tool list still unread/,
    );
    expect(s.log.filter((r) => r.body.includes('"tools/call"'))).toEqual([]);
  });
});

describe("resource coverage follows the official SDK client's checkResourceAllowed", () => {
  const server = new URL("https://h.example/mcp");
  test.each([
    ["https://h.example/mcp", null],
    ["https://h.example/", null],
    ["https://h.example", null],
    ["https://h.example/mcp?tenant=1", null],
    ["https://h.example/mcp#frag", null],
    ["https://h.example/mc", "path"],
    ["https://h.example/mcp/", "path"],
    ["https://h.example/mcp/v2", "path"],
    ["https://h.example/other", "path"],
    ["http://h.example/mcp", "origin"],
    ["https://h.example:8443/mcp", "origin"],
    ["https://other.example/mcp", "origin"],
    ["not a url", "not_url"],
  ] as const)("resource %s → %s", (resource, want) => {
    expect(resourceMismatch(resource, server)).toBe(want);
  });

  test("a path prefix covers a deeper server path, and a trailing slash on the server's path is fine", () => {
    expect(resourceMismatch("https://h.example/tenant", new URL("https://h.example/tenant/mcp"))).toBeNull();
    expect(resourceMismatch("https://h.example/tenant/", new URL("https://h.example/tenant/mcp"))).toBeNull();
    expect(resourceMismatch("https://h.example/mcp", new URL("https://h.example/mcp/"))).toBeNull();
    expect(resourceMismatch("https://h.example/ten", new URL("https://h.example/tenant/mcp"))).toBe("path");
  });

  test("usable metadata needs a string resource that covers the server and at least one authorization server", () => {
    const ok = { resource: "https://h.example/mcp", authorization_servers: ["https://as.example"] };
    expect(metadataProblems(ok, server)).toEqual([]);
    expect(metadataProblems({ detail: "Not Found" }, server).map((p) => p.kind)).toEqual(["no_resource", "no_authorization_servers"]);
    expect(metadataProblems({ ...ok, authorization_servers: [] }, server).map((p) => p.kind)).toEqual(["no_authorization_servers"]);
    expect(metadataProblems({ ...ok, authorization_servers: [""] }, server).map((p) => p.kind)).toEqual(["no_authorization_servers"]);
    expect(metadataProblems({ ...ok, authorization_servers: "https://as.example" }, server).map((p) => p.kind)).toEqual([
      "no_authorization_servers",
    ]);
    expect(metadataProblems({ ...ok, resource: "https://h.example/mc" }, server)).toEqual([
      { kind: "resource_not_covering", resource: "https://h.example/mc", why: "path" },
    ]);
  });
});
