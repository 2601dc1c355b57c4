import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { expect, test } from "@playwright/test";
import { Client, StreamableHTTPClientTransport, type FetchLike } from "@modelcontextprotocol/client";
import { Agent, fetch as undiciFetch } from "undici";
import { CHECK_IDS } from "../../lib/vocabulary/checks";
import { MCP_RATE_LIMIT } from "../../lib/mcp/rate-limit";
import { conformanceNodeVersion, conformanceServer } from "./conformance";
import { E2E_PORT } from "./env";
import { SEED } from "./seed";

// /mcp on the real `npm start` (the front, then next start) over the seeded e2e database: judged by the site's own
// probe in both eras, by the official conformance suite, and used by the official SDK client; rate-limited per
// address. Serial: the burst at the end must not overlap the other measurements.

test.describe.configure({ mode: "serial" });

const ORIGIN = `http://127.0.0.1:${E2E_PORT}`;
const MCP = `${ORIGIN}/mcp`;
const OUT = path.resolve("test-results/mcp");

/** A fetch whose connections leave from `localAddress` (127/8 is all this machine): another client of the site. */
function fetchFrom(localAddress: string) {
  const dispatcher = new Agent({ localAddress });
  return (input: string | URL, init: Parameters<typeof undiciFetch>[1] = {}) => undiciFetch(input, { ...init, dispatcher });
}

function probe(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", "probe", "--", ...args], { env: { ...process.env, PROBE_ALLOW_PRIVATE_NETWORKS: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function keep(name: string, value: unknown): void {
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, name), typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`);
}

test.describe("the site's own probe judges /mcp", () => {
  for (const era of ["modern", "legacy"] as const) {
    test(`${era}: handshake, protocol_version, tools_list and error_taxonomy Verified; auth_metadata Not checked`, async () => {
      const r = await probe([MCP, "--json", ...(era === "legacy" ? ["--legacy"] : [])]);
      expect(r.code, r.stderr).toBe(0);
      const report = JSON.parse(r.stdout) as {
        era: string;
        protocolVersion: string;
        checks: Record<string, { state: string; reason: string }>;
        exchanges: { phase: string }[];
      };
      keep(`self-probe-${era}.json`, report);
      expect(report.era).toBe(era);
      expect(report.protocolVersion).toBe(era === "modern" ? "2026-07-28" : "2025-11-25");
      expect(Object.fromEntries(CHECK_IDS.map((id) => [id, report.checks[id]!.state]))).toEqual({
        handshake: "verified",
        protocol_version: "verified",
        tools_list: "verified",
        error_taxonomy: "verified",
        auth_metadata: "not_checked",
      });
      expect(report.checks.tools_list!.reason).toMatch(/Read 3 tools over 1 page/);
      expect(report.checks.error_taxonomy!.reason).toMatch(/-32602/);
      expect(report.checks.auth_metadata!.reason).toMatch(/No credential challenge was presented/);
      expect(report.exchanges.some((e) => e.phase === "discover")).toBe(era === "modern");
    });
  }
});

test.describe("the official conformance suite against /mcp", () => {
  test("runs on Node 22 from its own folder", async () => {
    expect(await conformanceNodeVersion()).toMatch(/^v22\./);
  });
  const scenarios: [string, string][] = [
    ["server-initialize", "2025-11-25"],
    ["ping", "2025-11-25"],
    ["tools-list", "2025-11-25"],
    ["tools-list", "2026-07-28"],
    ["server-stateless", "2026-07-28"],
    ["caching", "2026-07-28"],
    ["http-header-validation", "2026-07-28"],
  ];
  const results: Record<string, string> = {};
  for (const [scenario, version] of scenarios) {
    test(`${scenario} (${version}) passes`, async () => {
      const r = await conformanceServer(MCP, scenario, version);
      results[`${scenario} ${version}`] = `${r.summary} (exit ${r.code})`;
      keep("conformance.json", results);
      expect(r.code, r.output).toBe(0);
      expect(r.summary, r.output).toMatch(/^Passed: [1-9]\d*\/\d+/);
      expect(r.output).not.toMatch(/unexpected/i);
    });
  }
});

type Era = "modern" | "legacy";
type ToolResult = { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };

async function sdkClient(era: Era): Promise<Client> {
  const client = new Client({ name: "mcp-status-e2e", version: "1.0.0" }, era === "modern" ? { versionNegotiation: { mode: "auto" } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP), { fetch: fetchFrom("127.0.0.3") as unknown as FetchLike }));
  return client;
}

const json = async <T>(p: string): Promise<T> => (await (await fetch(`${ORIGIN}${p}`)).json()) as T;
const encoded = (name: string) => name.split("/").map(encodeURIComponent).join("/");

test.describe("the official SDK client uses /mcp", () => {
  for (const era of ["modern", "legacy"] as const) {
    test(`${era}: the three tools answer what the pages' JSON shows`, async () => {
      const client = await sdkClient(era);
      try {
        expect(client.getProtocolEra()).toBe(era);
        const call = async (name: string, args: Record<string, unknown>) =>
          (await client.callTool({ name, arguments: args })) as ToolResult;

        for (const name of [SEED.modern, SEED.gated, SEED.down, SEED.allStates]) {
          const page = await json<Record<string, unknown> & { checks: Record<string, { state: string; reason: string }> }>(
            `/api/servers/${encoded(name)}`,
          );
          const r = await call("get_server_status", { name });
          expect(r.isError).toBeFalsy();
          const s = r.structuredContent as { checks: Record<string, { state: string; reason: string }>; page: string } & Record<
            string,
            unknown
          >;
          for (const id of CHECK_IDS)
            expect(s.checks[id]).toMatchObject({ state: page.checks[id]!.state, reason: page.checks[id]!.reason });
          expect(s).toMatchObject({
            lastProbedAt: page.lastProbedAt,
            lastCompleteReadAt: page.lastSuccessAt,
            protocolVersion: page.protocolVersion,
            toolCount: page.toolCount,
          });
          // Without PUBLIC_BASE_URL the link is built from the request's own host, and it opens the page.
          expect(s.page).toBe(`${ORIGIN}/servers/${encoded(name)}`);
          expect((await fetch(s.page)).status).toBe(200);
        }

        const list = await json<{ total: number; rows: { name: string }[] }>("/api/servers?q=bulk&tools_list=verified&page=2&pageSize=10");
        const found = (await call("search_servers", { query: "bulk", tools_list: "verified", page: 2, pageSize: 10 }))
          .structuredContent as { total: number; servers: { name: string }[] };
        expect(found.total).toBe(list.total);
        expect(found.servers.map((x) => x.name)).toEqual(list.rows.map((x) => x.name));

        const since = new Date(Date.now() - 2.5 * 86_400_000).toISOString();
        const detail = await json<{
          transitions: { at: string; check: string; toState: string }[];
          toolChanges: { at: string; toolName: string }[];
        }>(`/api/servers/${encoded(SEED.modern)}`);
        const changes = (await call("recent_changes", { since, name: SEED.modern })).structuredContent as {
          stateChanges: { at: string; check: string; to: string }[];
          toolChanges: { at: string; tool: string }[];
        };
        expect(changes.stateChanges.map((c) => `${c.at} ${c.check} ${c.to}`)).toEqual(
          detail.transitions.filter((t) => t.at > since).map((t) => `${t.at} ${t.check} ${t.toState}`),
        );
        expect(changes.toolChanges.map((c) => `${c.at} ${c.tool}`).sort()).toEqual(
          detail.toolChanges
            .filter((t) => t.at > since)
            .map((t) => `${t.at} ${t.toolName}`)
            .sort(),
        );

        const long = await call("search_servers", { query: "q".repeat(10_000) });
        expect(long.isError).toBe(true);
        expect(long.content[0]!.text).toMatch(/query: Too big: expected string to have <=200 characters/);
        const unknown = await call("get_server_status", { name: "io.github.nobody/nothing" });
        expect(unknown.isError).toBe(true);
        expect(unknown.content[0]!.text).toContain(`"io.github.nobody/nothing"`);
      } finally {
        await client.close();
      }
    });
  }
});

test("/mcp is never held by the front, and sets no cookie", async () => {
  const f = fetchFrom("127.0.0.4");
  for (let i = 0; i < 2; i++) {
    const get = await f(MCP);
    expect(get.status).toBe(405);
    expect(get.headers.get("x-page-cache")).toBeNull();
    const post = await f(MCP, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "e2e", version: "1" } },
      }),
    });
    expect(post.status).toBe(200);
    for (const r of [get, post]) {
      expect(r.headers.get("x-page-cache")).toBeNull();
      expect(r.headers.get("set-cookie")).toBeNull();
      expect(r.headers.get("cache-control")).toBe("no-store");
    }
    await post.text();
  }
});

test("100 calls in one second from one address get 429s past the limit, while pages for others stay fast", async () => {
  const page = fetchFrom("127.0.0.1");
  const pagePath = `${ORIGIN}/servers/${encoded(SEED.modern)}`;
  const timed = async () => {
    const t = performance.now();
    const r = await page(pagePath);
    await r.arrayBuffer();
    expect(r.status).toBe(200);
    return performance.now() - t;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  await timed();
  const idle: number[] = [];
  for (let i = 0; i < 30; i++) idle.push(await timed());

  const burst = fetchFrom("127.0.0.2");
  const call = (id: number) =>
    burst(MCP, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "search_servers",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "search_servers",
          arguments: { query: "bulk" },
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
        },
      }),
    }).then(async (r) => ({
      id,
      status: r.status,
      retryAfter: r.headers.get("retry-after"),
      body: (await r.json()) as { id: number; error?: { code: number; data?: { retryAfterMs: number } } },
    }));
  const started = performance.now();
  const answers: Promise<Awaited<ReturnType<typeof call>>>[] = [];
  const during: number[] = [];
  const sending = (async () => {
    for (let i = 1; i <= 100; i++) {
      answers.push(call(i));
      await new Promise((r) => setTimeout(r, 9));
    }
  })();
  while (performance.now() - started < 1_000 || during.length < 30) during.push(await timed());
  await sending;
  const sentIn = performance.now() - started;
  const done = await Promise.all(answers);
  const answeredIn = performance.now() - started;

  const served = done.filter((a) => a.status === 200);
  const limited = done.filter((a) => a.status === 429);
  expect(served.length + limited.length).toBe(100);
  // The bucket holds `burst`; while the batch is being answered it regains perMinute / 60 a second.
  expect(served.length).toBeGreaterThanOrEqual(MCP_RATE_LIMIT.burst);
  expect(served.length).toBeLessThanOrEqual(MCP_RATE_LIMIT.burst + Math.ceil(((answeredIn / 1000) * MCP_RATE_LIMIT.perMinute) / 60) + 1);
  expect(limited.length).toBeGreaterThan(0);
  for (const a of limited) {
    expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(a.body).toMatchObject({ id: a.id, error: { code: -32023 } });
    expect(a.body.error!.data!.retryAfterMs).toBeGreaterThan(0);
  }
  const ratio = median(during) / median(idle);
  keep("rate-limit.json", {
    limit: MCP_RATE_LIMIT,
    sentInMs: Math.round(sentIn),
    answeredInMs: Math.round(answeredIn),
    served: served.length,
    limited: limited.length,
    pageMedianIdleMs: +median(idle).toFixed(2),
    pageMedianDuringBurstMs: +median(during).toFixed(2),
    ratio: +ratio.toFixed(2),
  });
  // A held page is answered by the front from memory: the burst, handled by the renderer, barely touches it.
  expect(ratio).toBeLessThan(5);
});
