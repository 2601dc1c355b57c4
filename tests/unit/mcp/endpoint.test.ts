import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { serverAnswer } from "@/app/api/_lib/handlers";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { RATE_LIMITED } from "@/lib/mcp/endpoint";
import { RateLimiter } from "@/lib/mcp/rate-limit";
import { CHANGES_LIMIT, SEARCH_PAGE_SIZE } from "@/lib/mcp/schemas";
import { MCP_TOOL_NAMES } from "@/lib/mcp/server";
import { listServers } from "@/lib/store/servers/list";
import { SEED } from "../../e2e/seed";
import { fetchFrom, MODERN_HEADERS, modernBody, sdkClient, startMcpSite, type Era, type McpSite } from "./harness";

type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

const text = (r: ToolResult) => r.content.map((c) => c.text).join("\n");

describe.each(["modern", "legacy"] as const)("/mcp with the official SDK client (%s)", (era: Era) => {
  let site: McpSite;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    site = await startMcpSite();
    client = await sdkClient(site.url, era);
  });
  afterAll(async () => {
    await client.close();
    await site.close();
  });

  test("connects in its era and lists exactly the three read-only tools, each with strict input and an output schema", async () => {
    expect(client.getProtocolEra()).toBe(era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      expect(t.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      expect(t.outputSchema).toMatchObject({ type: "object" });
    }
  });

  test("get_server_status answers what the server's page JSON shows, with a page link under PUBLIC_BASE_URL", async () => {
    for (const name of [SEED.modern, SEED.gated, SEED.left, SEED.allStates]) {
      const r = await call("get_server_status", { name });
      expect(r.isError).toBeFalsy();
      const page = JSON.parse(serverAnswer(name, site.db).body) as Record<string, unknown> & {
        checks: Record<string, { state: string; reason: string }>;
      };
      const s = r.structuredContent as Record<string, unknown> & {
        checks: Record<string, { state: string; reason: string; hint: string | null } | null>;
      };
      for (const id of CHECK_IDS) {
        expect(s.checks[id]).toMatchObject({ state: page.checks[id]!.state, reason: page.checks[id]!.reason, hint: null });
        expect(text(r)).toContain(page.checks[id]!.reason);
      }
      expect(s).toMatchObject({
        name,
        page: `https://status.example/servers/${name}`,
        lastProbedAt: page.lastProbedAt,
        lastCompleteReadAt: page.lastSuccessAt,
        era: page.era,
        protocolVersion: page.protocolVersion,
        toolCount: page.toolCount,
        leftRegistryAt: page.leftRegistryAt,
        configuration: { ...(page.configuration as object) },
      });
      const uptime = page.uptime as Record<string, { ratio: number | null; up: number; reached: number }>;
      for (const w of ["last24h", "last7d", "last30d", "last90d"]) {
        const { ratio, up, reached } = uptime[w]!;
        expect((s.uptime as typeof uptime)[w]).toMatchObject({ ratio, up, reached });
      }
      expect(text(r)).toContain(`https://status.example/servers/${name}`);
    }
  });

  test("the overall state follows architecture.md §2: a credential gate is Not checked overall, never Verified", async () => {
    const gated = (await call("get_server_status", { name: SEED.gated })).structuredContent as {
      overall: { state: string; check: string };
    };
    expect(gated.overall).toMatchObject({ state: "not_checked", check: "handshake" });
    const four = (await call("get_server_status", { name: SEED.allStates })).structuredContent as {
      overall: { state: string; check: string };
    };
    expect(four.overall).toMatchObject({ state: "failed", check: "protocol_version" });
    const weather = await call("get_server_status", { name: SEED.modern });
    expect(weather.structuredContent).toMatchObject({ overall: { state: "verified", check: null } });
    expect(text(weather)).toMatch(/^Overall: Verified/m);
  });

  test("search_servers pages and filters like the index (the same list query)", async () => {
    const r = await call("search_servers", { query: "bulk", tools_list: "verified", page: 2, pageSize: 10 });
    const index = listServers(site.db, { q: "bulk", states: { tools_list: "verified" }, page: 2, pageSize: 10 });
    const s = r.structuredContent as { total: number; pages: number; servers: { name: string; states: Record<string, string> }[] };
    expect(s.total).toBe(index.total);
    expect(s.pages).toBe(Math.ceil(index.total / 10));
    expect(s.servers.map((x) => x.name)).toEqual(index.rows.map((x) => x.name));
    expect(s.servers.every((x) => x.states.tools_list === "verified")).toBe(true);
    expect(text(r)).toMatch(new RegExp(`^${index.total} servers matching "bulk"; page 2 of`));
    // Left servers only on request.
    const left = (await call("search_servers", { query: "retired" })).structuredContent as { total: number };
    expect(left.total).toBe(0);
    expect(((await call("search_servers", { query: "retired", includeLeft: true })).structuredContent as { total: number }).total).toBe(1);
  });

  test("recent_changes lists the state and tool changes the server page shows for the same window", async () => {
    const since = new Date(Date.now() - 2.5 * 86_400_000).toISOString();
    const r = await call("recent_changes", { since, name: SEED.modern });
    const page = JSON.parse(serverAnswer(SEED.modern, site.db).body) as {
      transitions: { at: string; check: string; toState: string }[];
      toolChanges: { at: string; toolName: string; path: string }[];
    };
    const s = r.structuredContent as {
      stateChanges: { at: string; check: string; to: string }[];
      toolChanges: { at: string; tool: string; path: string }[];
    };
    const expected = page.transitions.filter((t) => t.at > since);
    expect(expected.length).toBeGreaterThan(0);
    expect(s.stateChanges.map((c) => [c.at, c.check, c.to])).toEqual(expected.map((t) => [t.at, t.check, t.toState]));
    // Newest first in both; the page breaks ties between changes of one read differently, so compare as sets.
    const key = (at: string, tool: string, path: string) => `${at} ${tool} ${path}`;
    expect(s.toolChanges.map((c) => key(c.at, c.tool, c.path)).sort()).toEqual(
      page.toolChanges
        .filter((t) => t.at > since)
        .map((t) => key(t.at, t.toolName, t.path))
        .sort(),
    );
    expect(text(r)).toContain("handshake: Failed → Verified");
  });

  // Bad input loses nothing: each is a tool error that names what was wrong.
  test.each([
    ["get_server_status", { name: 42 }, /name: Invalid input: expected string, received number/],
    ["get_server_status", {}, /name: Invalid input: expected string, received undefined/],
    ["get_server_status", { name: SEED.modern, verbose: true }, /Unrecognized key: "verbose"/],
    ["search_servers", { query: "x".repeat(10_000) }, /query: Too big: expected string to have <=200 characters/],
    [
      "search_servers",
      { tools_list: "broken" },
      /tools_list: Invalid option: expected one of "verified"\|"failed"\|"observed_risk"\|"not_checked"/,
    ],
    ["search_servers", { page: "2" }, /page: Invalid input: expected number, received string/],
    ["search_servers", { pageSize: 0 }, /pageSize: Too small: expected number to be >=1/],
    ["recent_changes", { since: "yesterday" }, /since: expected an ISO-8601 date \(2026-11-30\) or date-time with a time zone/],
    ["recent_changes", { limit: 2.5 }, /limit: Invalid input: expected int, received number/],
  ])("%s %j is a tool error naming the problem", async (tool, args, message) => {
    const r = await call(tool, args);
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(message);
  });

  test("an unknown server is a tool error that names it, from either tool that takes a name", async () => {
    for (const tool of ["get_server_status", "recent_changes"]) {
      const r = await call(tool, { name: "io.github.nobody/nothing" });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain(`No server named "io.github.nobody/nothing" is known`);
    }
  });

  test("a page size over the cap is clamped, and the answer says so", async () => {
    const r = await call("search_servers", { pageSize: 5_000 });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      pageSize: SEARCH_PAGE_SIZE.cap,
      notes: [`pageSize 5000 is over the cap of ${SEARCH_PAGE_SIZE.cap}, so ${SEARCH_PAGE_SIZE.cap} servers per page were returned.`],
    });
    expect((r.structuredContent as { servers: unknown[] }).servers).toHaveLength(SEARCH_PAGE_SIZE.cap);
    expect(text(r)).toContain(`Note: pageSize 5000 is over the cap of ${SEARCH_PAGE_SIZE.cap}`);
    const c = await call("recent_changes", { since: "2020-01-01", limit: 10_000 });
    expect(c.structuredContent).toMatchObject({ more: { stateChanges: true } });
    expect((c.structuredContent as { stateChanges: unknown[] }).stateChanges).toHaveLength(CHANGES_LIMIT.cap);
    expect(text(c)).toContain(`limit 10000 is over the cap of ${CHANGES_LIMIT.cap}`);
  });
});

describe("/mcp over HTTP", () => {
  let site: McpSite;
  const limiter = new RateLimiter({ burst: 3, perMinute: 6 });
  beforeAll(async () => {
    site = await startMcpSite({ limiter });
  });
  afterAll(async () => {
    await site.close();
  });

  test("answers carry no cookie and forbid caching; GET and DELETE are 405 (no sessions)", async () => {
    const f = fetchFrom("127.0.0.7");
    const post = await f(site.url, {
      method: "POST",
      headers: { ...MODERN_HEADERS, "mcp-method": "tools/list" },
      body: modernBody(1, "tools/list"),
    });
    expect(post.status).toBe(200);
    expect(post.headers.get("set-cookie")).toBeNull();
    expect(post.headers.get("cache-control")).toBe("no-store");
    expect(post.headers.get("mcp-session-id")).toBeNull();
    for (const method of ["GET", "DELETE"]) expect((await f(site.url, { method })).status).toBe(405);
  });

  test("past the limit: 429 with Retry-After, -32023 with data.retryAfterMs for a modern client, and the request id echoed", async () => {
    const f = fetchFrom("127.0.0.8");
    const send = (id: number) =>
      f(site.url, { method: "POST", headers: { ...MODERN_HEADERS, "mcp-method": "tools/list" }, body: modernBody(id, "tools/list") });
    for (let i = 1; i <= 3; i++) expect((await send(i)).status).toBe(200);
    const r = await send(4);
    expect(r.status).toBe(429);
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await r.json()) as { id: number; error: { code: number; message: string; data: { retryAfterMs: number } } };
    expect(body.id).toBe(4);
    expect(body.error.code).toBe(RATE_LIMITED);
    expect(body.error.data.retryAfterMs).toBeGreaterThan(0);
    expect(body.error.message).toMatch(/3 requests at once, then 6 a minute per client address/);
  });

  test("a legacy client past the limit gets 429 and Retry-After with a JSON-RPC error it knows; a notification an empty 429", async () => {
    const f = fetchFrom("127.0.0.9");
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: "init-1",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    for (let i = 0; i < 3; i++) expect((await f(site.url, { method: "POST", headers, body: init })).status).toBe(200);
    const r = await f(site.url, { method: "POST", headers, body: init });
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await r.json()).toMatchObject({ jsonrpc: "2.0", id: "init-1", error: { code: -32000 } });
    const n = await f(site.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    expect(n.status).toBe(429);
    expect(await n.text()).toBe("");
  });

  test("the limit is per address: an X-Forwarded-For the client wrote is not trusted, another address is served", async () => {
    const f = fetchFrom("127.0.0.10");
    const send = (fetcher: typeof f, extra: Record<string, string> = {}) =>
      fetcher(site.url, {
        method: "POST",
        headers: { ...MODERN_HEADERS, "mcp-method": "tools/list", ...extra },
        body: modernBody(1, "tools/list"),
      });
    for (let i = 0; i < 3; i++) expect((await send(f)).status).toBe(200);
    expect((await send(f, { "x-forwarded-for": "203.0.113.9" })).status).toBe(429);
    expect((await send(fetchFrom("127.0.0.11"))).status).toBe(200);
  });
});
