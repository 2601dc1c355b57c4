import { describe, expect, test } from "vitest";
import { buildReport, judge } from "@/lib/checks";
import { REFUSAL_STATES } from "@/lib/checks/refusal";
import { CHECK_IDS, type CheckState } from "@/lib/vocabulary/checks";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import type { HandshakeOutcome, ProbeObservation, SeenChallenge, SlowDown, ToolCallOutcome, ToolsListOutcome } from "@/lib/probe/types";

const V = "verified",
  F = "failed",
  R = "observed_risk",
  N = "not_checked";
type S = CheckState;

function obs(over: Partial<ProbeObservation>): ProbeObservation {
  return {
    url: "https://mcp.example.com/mcp",
    transport: "streamable-http",
    startedAt: "2026-11-29T12:00:00.000Z",
    finishedAt: "2026-11-29T12:00:01.000Z",
    era: "unknown",
    exchanges: [],
    ...over,
  };
}

const modern: Extract<HandshakeOutcome, { kind: "modern" }> = {
  kind: "modern",
  protocolVersion: "2026-07-28",
  supportedVersions: ["2026-07-28"],
  seq: 1,
  seqs: [1],
};
const legacy: Extract<HandshakeOutcome, { kind: "legacy" }> = {
  kind: "legacy",
  protocolVersion: "2025-06-18",
  common: true,
  fallbackCause: 'server/discover answered HTTP 400 with -32600 under id "server-error"',
  seq: 2,
  seqs: [1, 2, 3],
};
const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `t${i}`, inputSchema: { type: "object" } }));
const complete: Extract<ToolsListOutcome, { kind: "complete" }> = {
  kind: "complete",
  tools: tools(3),
  pages: 2,
  malformed: [],
  seqs: [4, 5],
};
const bearer = (seq: number, phase: SeenChallenge["phase"] = "initialize", status = 401): SeenChallenge => ({
  phase,
  status,
  seq,
  challenges: [{ scheme: "Bearer", params: { resource_metadata: "https://mcp.example.com/prm", scope: "read" } }],
});
const slow = (phase: SlowDown["phase"], seq: number, status = 429, retryAfterSeconds: number | null = 120): SlowDown => ({
  phase,
  status,
  seq,
  ...(retryAfterSeconds !== null ? { retryAfterSeconds } : {}),
});
const jsonrpcError = (code: number): ToolCallOutcome => ({
  kind: "answered",
  status: 200,
  shape: { type: "jsonrpc_error", code, message: "Unknown tool", transport: "json" },
  seq: 6,
});

interface Case {
  name: string;
  o: ProbeObservation;
  states: [S, S, S, S, S];
  reasons?: Partial<Record<(typeof CHECK_IDS)[number], RegExp>>;
  evidence?: Partial<Record<(typeof CHECK_IDS)[number], number[]>>;
}

const cases: Case[] = [
  {
    name: "a healthy modern server",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: jsonrpcError(-32602),
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, V, N],
    reasons: {
      handshake: /2026-07-28 handshake completed/,
      tools_list: /^Read 3 tools over 2 pages\.$/,
      error_taxonomy: /-32602, the code the spec prescribes/,
      auth_metadata: /no credential challenge was presented/i,
    },
    evidence: { handshake: [1], tools_list: [4, 5], error_taxonomy: [6], auth_metadata: [] },
  },
  {
    name: "the Python SDK legacy server after fallback",
    o: obs({
      era: "legacy",
      handshake: legacy,
      toolsList: complete,
      toolCall: { kind: "answered", status: 200, shape: { type: "is_error_result", text: "Unknown tool" }, seq: 6 },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, V, N],
    reasons: {
      handshake: /^server\/discover answered HTTP 400 with -32600 under id "server-error"; fell back to initialize; 2025-06-18 agreed\.$/,
      protocol_version: /2025-06-18 agreed/,
      error_taxonomy: /tool-error channel instead of -32602/,
    },
    evidence: { handshake: [1, 2, 3] },
  },
  {
    name: "a server that advertised 2026-07-28 and then refused it (late fallback)",
    o: obs({
      era: "legacy",
      handshake: {
        ...legacy,
        fallbackCause: "server/discover listed 2026-07-28, but tools/list in the 2026-07-28 session answered HTTP 400 with -32600",
        lateFallback: true,
        seqs: [1, 2, 3, 4],
      },
      toolsList: complete,
      toolCall: jsonrpcError(-32602),
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, V, N],
    reasons: { handshake: /listed 2026-07-28, but tools\/list .* fell back to initialize; 2025-06-18 agreed/ },
  },
  {
    name: "no common revision",
    o: obs({
      era: "legacy",
      handshake: { ...legacy, protocolVersion: "2023-01-01", common: false },
      toolsList: { kind: "not_attempted", why: "no common protocol revision was agreed" },
      toolCall: { kind: "withheld", why: "no common protocol revision was agreed", cause: "no_common_revision" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, F, F, N, N],
    reasons: {
      protocol_version: /initialize answered with 2023-01-01, and the revisions initialize can agree are 2025-11-25/,
      error_taxonomy: /withheld because no common protocol revision/,
    },
  },
  {
    name: "declined with -32022",
    o: obs({
      handshake: {
        kind: "declined",
        code: -32022,
        message: "Unsupported protocol version",
        status: 400,
        seq: 1,
        supported: ["2099-01-01"],
        method: "server/discover",
      },
      toolsList: { kind: "not_attempted", why: "the handshake did not complete" },
      toolCall: { kind: "withheld", why: "the handshake failed", cause: "handshake" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [F, F, F, N, N],
    reasons: {
      handshake: /declined with -32022 \("Unsupported protocol version"\) at HTTP 400, naming 2099-01-01 .*does not fall back/,
      tools_list: /-32022/,
    },
    evidence: { handshake: [1], protocol_version: [1], tools_list: [1] },
  },
  {
    name: "slow down on discover",
    o: obs({
      handshake: { kind: "slow_down", slowDown: slow("discover", 1) },
      slowDown: slow("discover", 1),
      toolsList: { kind: "not_attempted", why: "the server asked to slow down" },
      toolCall: { kind: "withheld", why: "the server asked to slow down", cause: "slow_down" },
    }),
    states: [N, N, N, N, N],
    reasons: { handshake: /slow down.*HTTP 429 with Retry-After 120 s/, auth_metadata: /slow down/, error_taxonomy: /slow down/ },
  },
  {
    name: "slow down on tools/call keeps what was decided",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: { kind: "slow_down", slowDown: slow("tools_call", 6, 503, 30) },
      slowDown: slow("tools_call", 6, 503, 30),
    }),
    states: [V, V, V, N, N],
    reasons: { error_taxonomy: /tools\/call answered HTTP 503 with Retry-After 30 s/, auth_metadata: /slow down/ },
  },
  {
    name: "slow down without a parseable Retry-After",
    o: obs({ handshake: { kind: "slow_down", slowDown: slow("discover", 1, 429, null) }, slowDown: slow("discover", 1, 429, null) }),
    states: [N, N, N, N, N],
    reasons: { handshake: /^Asked to slow down: server\/discover answered HTTP 429, so nothing more/ },
  },
  {
    name: "credential gate on initialize after a 401 to discover",
    o: obs({
      handshake: {
        kind: "credential_gate",
        challenge: bearer(2),
        fallbackCause: "server/discover answered HTTP 401 with an empty body",
        seqs: [1, 2],
      },
      toolsList: { kind: "not_attempted", why: "credential required" },
      toolCall: { kind: "withheld", why: "a credential gate stopped the handshake", cause: "credential_gate" },
      authMetadata: {
        kind: "ok",
        url: "https://mcp.example.com/prm",
        resource: "https://mcp.example.com/mcp",
        authorizationServers: ["https://auth.example.com"],
        scopesSupported: ["read"],
        seq: 3,
        challenge: bearer(2),
      },
    }),
    states: [N, N, N, N, V],
    reasons: {
      handshake:
        /^Credential required: initialize answered HTTP 401 with a Bearer challenge after server\/discover answered HTTP 401 with an empty body.*not a fault\.$/,
      tools_list: /Credential required/,
      error_taxonomy: /withheld because a credential gate stopped the handshake/,
      auth_metadata:
        /names resource https:\/\/mcp\.example\.com\/mcp, which covers the server.s URL, and authorization server https:\/\/auth\.example\.com/,
    },
    evidence: { handshake: [1, 2], auth_metadata: [2, 3] },
  },
  {
    name: "401 without a challenge",
    o: obs({
      handshake: {
        kind: "refused_no_challenge",
        phase: "initialize",
        status: 401,
        fallbackCause: "server/discover answered HTTP 401 with an empty body",
        seq: 2,
        seqs: [1, 2],
      },
      toolsList: { kind: "not_attempted", why: "x" },
      toolCall: { kind: "withheld", why: "the handshake failed", cause: "handshake" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [F, F, F, N, N],
    reasons: {
      handshake: /initialize was refused with HTTP 401 and no WWW-Authenticate header, so a client is refused with no instructions/,
    },
  },
  {
    name: "handshake failure with a cause",
    o: obs({
      handshake: { kind: "failed", cause: "server/discover answered HTTP 302 with a redirect to https://x/ (not followed)", seq: 1 },
      toolsList: { kind: "not_attempted", why: "x" },
      toolCall: { kind: "withheld", why: "the handshake failed", cause: "handshake" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [F, F, F, N, N],
    reasons: { handshake: /HTTP 302 with a redirect/ },
  },
  {
    name: "tool list gated after a modern handshake",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: { kind: "credential_gate", challenge: bearer(2, "tools_list") },
      toolCall: { kind: "withheld", why: "a credential gate stopped the tool list", cause: "credential_gate" },
      authMetadata: { kind: "no_metadata_url", challenge: bearer(2, "tools_list") },
    }),
    states: [V, V, N, N, N],
    reasons: { tools_list: /Credential required: tools\/list answered HTTP 401/, auth_metadata: /no resource_metadata URL/ },
  },
  {
    name: "endless pagination",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: { kind: "endless", why: "page_cap", tools: tools(50), pages: 50, seqs: [2, 3] },
      toolCall: { kind: "withheld", why: "pages of the tool list remain unread", cause: "pages_remain" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, R, N, N],
    reasons: { tools_list: /after 50 pages/, error_taxonomy: /pages of the tool list remain unread/ },
  },
  {
    name: "cursor loop",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: { kind: "endless", why: "cursor_loop", tools: tools(3), pages: 3, seqs: [2, 3, 4] },
      toolCall: { kind: "withheld", why: "x", cause: "pages_remain" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, R, N, N],
    reasons: { tools_list: /repeated after 3 pages/ },
  },
  {
    name: "malformed tool definitions",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: { ...complete, malformed: ["tool #2 has no name", 'duplicate name "x"'] },
      toolCall: jsonrpcError(-32602),
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, R, V, N],
    reasons: { tools_list: /2 problems .*tool #2 has no name, duplicate name "x"/ },
  },
  {
    name: "tool list failed",
    o: obs({
      era: "legacy",
      handshake: legacy,
      toolsList: { kind: "failed", cause: "tools/list answered HTTP 500 with an HTML page", pages: 0, seqs: [4] },
      toolCall: { kind: "withheld", why: "the tool list could not be read", cause: "tools_list_unread" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, F, N, N],
    reasons: { tools_list: /HTTP 500 with an HTML page/, error_taxonomy: /could not be read/ },
    evidence: { tools_list: [4], error_taxonomy: [4] },
  },
  {
    name: "reserved name listed",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: { ...complete, tools: [{ name: "mcp_status_probe_no_such_tool", inputSchema: {} }] },
      toolCall: {
        kind: "withheld",
        why: "the tool list contains the reserved name, so the call could run a real tool",
        cause: "reserved_name",
      },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, N, N],
    reasons: { error_taxonomy: /contains the reserved name/ },
  },
  {
    name: "a -32601 refusal is still a well-formed error",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: {
        kind: "answered",
        status: 404,
        shape: { type: "jsonrpc_error", code: -32601, message: "Method not found", transport: "sse" },
        seq: 6,
      },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, V, N],
    reasons: { error_taxonomy: /-32601 \(the spec prescribes -32602.*at HTTP 404 over SSE/ },
  },
  {
    name: "a bare 403 before dispatch",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: { kind: "answered", status: 403, shape: { type: "pre_dispatch_refusal" }, seq: 6 },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, V, N],
    reasons: { error_taxonomy: /HTTP 403 before dispatch/ },
  },
  {
    name: "a malformed refusal",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: {
        kind: "answered",
        status: 200,
        shape: { type: "malformed", description: 'HTTP 200 with JSON without a jsonrpc field ({"error":"nope"})', form: "no_jsonrpc" },
        seq: 6,
      },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, R, N],
    reasons: { error_taxonomy: /\{"error":"nope"\}/ },
  },
  {
    name: "a call that got no answer",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: { kind: "failed", cause: "tools/call got no answer (no response headers within 15000 ms)", seq: 6 },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, V, R, N],
  },
  {
    name: "a call cut by the deadline",
    o: obs({
      era: "modern",
      deadlineHit: true,
      handshake: modern,
      toolsList: complete,
      toolCall: { kind: "failed", cause: "tools/call got no answer (the probe's 60000 ms deadline ran out)", seq: 6 },
    }),
    states: [V, V, V, N, N],
    reasons: { auth_metadata: /deadline/ },
  },
  {
    name: "a failed late fallback keeps the modern handshake (architecture.md §2.1.9)",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: {
        kind: "failed",
        cause: "tools/list in the 2026-07-28 session answered HTTP 404 with -32601",
        pages: 0,
        seqs: [2, 3],
        lateRetry: {
          kind: "refused_no_challenge",
          phase: "initialize",
          status: 401,
          header: { value: 'Bearer realm="x', problem: "unterminated quoted string" },
          seq: 3,
          seqs: [1, 2, 3],
        },
      },
      toolCall: {
        kind: "withheld",
        why: "the tool list could not be read, even after the one retry with initialize",
        cause: "tools_list_unread",
      },
      authMetadata: {
        kind: "unparseable_challenge",
        broken: { phase: "initialize", status: 401, header: 'Bearer realm="x', problem: "unterminated quoted string", seq: 3 },
      },
    }),
    states: [V, V, F, N, R],
    reasons: {
      protocol_version: /^2026-07-28 agreed/,
      tools_list:
        /^tools\/list in the 2026-07-28 session answered HTTP 404 with -32601; the one retry failed: initialize was refused with HTTP 401 and a WWW-Authenticate header that is present but not a valid challenge \(unterminated quoted string\)\.$/,
      auth_metadata:
        /initialize answered HTTP 401 with a WWW-Authenticate header that is present but not a valid challenge \(unterminated quoted string\), and no valid challenge was seen anywhere/,
    },
    evidence: { tools_list: [2, 3], auth_metadata: [3] },
  },
  {
    name: "a late fallback stopped by a credential gate leaves the tool list Not checked",
    o: obs({
      era: "modern",
      handshake: modern,
      toolsList: {
        kind: "credential_gate",
        challenge: bearer(3),
        after: "tools/list in the 2026-07-28 session answered HTTP 404 with -32601",
        seqs: [2, 3],
      },
      toolCall: { kind: "withheld", why: "a credential gate stopped the retry for the tool list", cause: "credential_gate" },
    }),
    states: [V, V, N, N, N],
    reasons: {
      tools_list:
        /^Credential required: initialize answered HTTP 401 with a Bearer challenge after tools\/list in the 2026-07-28 session answered HTTP 404 with -32601 and the probe fell back/,
    },
    evidence: { tools_list: [2, 3] },
  },
  {
    name: "a discover result listing only newer revisions (architecture.md §2.1.11)",
    o: obs({
      era: "modern",
      handshake: { kind: "discovered_newer", supportedVersions: ["2027-01-15"], seq: 1, seqs: [1] },
      toolsList: { kind: "not_attempted", why: "no common protocol revision was agreed" },
      toolCall: { kind: "withheld", why: "no common protocol revision was agreed", cause: "no_common_revision" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, F, F, N, N],
    reasons: { protocol_version: /offered only 2027-01-15, all newer than 2026-07-28/, error_taxonomy: /no common protocol revision/ },
  },
  {
    name: "the probe's budget ran out between pages (architecture.md §2.2)",
    o: obs({
      era: "modern",
      deadlineHit: true,
      handshake: modern,
      toolsList: { kind: "budget_exhausted", tools: tools(4), pages: 4, seqs: [2, 3, 4, 5] },
      toolCall: { kind: "withheld", why: "the probe's deadline ran out with pages of the tool list still unread", cause: "pages_remain" },
      authMetadata: { kind: "no_challenge" },
    }),
    states: [V, V, N, N, N],
    reasons: { tools_list: /4 pages \(4 tools\) came back in time, a cursor to the next one pending; that is the probe's budget/ },
  },
];

const challenge = bearer(6, "tools_call");
const authCases: [string, ProbeObservation["authMetadata"], S, RegExp][] = [
  [
    "opted-out metadata host",
    { kind: "opted_out_host", url: "https://auth.other/prm", host: "auth.other", reason: "operator list", challenge },
    N,
    /auth\.other asked not to be probed \(operator list\), so nothing was fetched/,
  ],
  [
    "private metadata address",
    { kind: "address_refused", url: "http://10.0.0.1/prm", detail: "10.0.0.1 is a private (RFC 1918) address", challenge },
    N,
    /does not fetch: 10\.0\.0\.1 is a private/,
  ],
  ["metadata HTTP error", { kind: "http_error", url: "https://x/prm", status: 404, seq: 7, challenge }, R, /answered HTTP 404/],
  [
    "metadata redirect",
    { kind: "http_error", url: "https://x/prm", status: 301, seq: 7, challenge },
    R,
    /HTTP 301 \(a redirect, not followed\)/,
  ],
  ["metadata not JSON", { kind: "not_json", url: "https://x/prm", seq: 7, challenge }, R, /did not answer valid JSON/],
  ["metadata JSON array", { kind: "not_object", url: "https://x/prm", jsonType: "array", seq: 7, challenge }, R, /bare JSON array/],
  [
    "scope mismatch",
    { kind: "scope_mismatch", url: "https://x/prm", missing: ["admin"], listed: ["read"], seq: 7, challenge },
    R,
    /scope admin, which the metadata .* does not list in scopes_supported \(read\)/,
  ],
  ["metadata slow down", { kind: "slow_down", slowDown: slow("auth_metadata", 7), challenge }, N, /slow down/],
  ["invalid metadata URL", { kind: "invalid_url", url: "/prm", challenge }, R, /not an absolute http\(s\) URL/],
  [
    "metadata without resource",
    {
      kind: "unusable",
      url: "https://x/prm",
      problems: [{ kind: "no_resource" }, { kind: "no_authorization_servers" }],
      seq: 7,
      challenge,
    },
    R,
    /not usable: it has no string resource, so it is not protected-resource metadata, and it names no authorization server/,
  ],
  [
    "metadata for another origin",
    {
      kind: "unusable",
      url: "https://x/prm",
      problems: [{ kind: "resource_not_covering", resource: "https://other.example/mcp", why: "origin" }],
      seq: 7,
      challenge,
    },
    R,
    /resource https:\/\/other\.example\/mcp is on another origin than https:\/\/mcp\.example\.com\/mcp/,
  ],
  [
    "metadata fetch failed",
    { kind: "failed", url: "https://x/prm", cause: "connection refused", seq: 7, challenge },
    R,
    /could not be read \(connection refused\)/,
  ],
];

describe("judge()", () => {
  test.each(cases.map((c) => [c.name, c] as const))("%s", (_n, c) => {
    const results = judge(c.o);
    expect(results.map((r) => r.check)).toEqual([...CHECK_IDS]);
    expect(results.map((r) => r.state)).toEqual(c.states);
    const refusal = results.find((r) => r.check === "error_taxonomy")!;
    expect(REFUSAL_STATES[refusal.code!], "the refusal code's state is the judged one").toBe(refusal.state);
    for (const r of results) {
      expect(r.reason, r.check).toMatch(/[.]$/);
      expect(r.reason, r.check).not.toMatch(/\n/);
      const want = c.reasons?.[r.check];
      if (want) expect(r.reason, r.check).toMatch(want);
      const ev = c.evidence?.[r.check];
      if (ev) expect(r.evidence, r.check).toEqual(ev);
    }
  });

  test.each(authCases)("auth_metadata: %s", (_n, authMetadata, state, reason) => {
    const o = obs({
      era: "modern",
      handshake: modern,
      toolsList: complete,
      toolCall: { kind: "answered", status: 401, shape: { type: "pre_dispatch_refusal" }, seq: 6 },
      authMetadata,
    });
    const r = judge(o)[4]!;
    expect(r.state).toBe(state);
    expect(r.reason).toMatch(reason);
    if (authMetadata?.kind !== "slow_down") expect(r.reason).toMatch(/^tools\/call answered HTTP 401 with a Bearer challenge/);
    expect(r.evidence[0]).toBe(6);
  });

  test.each([
    [
      { kind: "opted_out", host: "mcp.example.com", reason: "robots.txt disallows mcp-status-probe" },
      /mcp\.example\.com asked not to be probed \(robots\.txt/,
    ],
    [
      { kind: "address_policy", host: "internal", detail: "internal resolves to 10.0.0.5, a private (RFC 1918) address" },
      /private or loopback addresses; nothing was sent/,
    ],
    [{ kind: "needs_config", detail: "the URL has a {tenant} template" }, /needs configuration/],
    [{ kind: "invalid_url", detail: "ftp: URLs cannot be probed" }, /ftp:/],
  ] as const)("blocked (%j) → every check not_checked with the reason", (blocked, reason) => {
    const results = judge(obs({ blocked }));
    expect(results.map((r) => r.state)).toEqual([N, N, N, N, N]);
    for (const r of results) {
      expect(r.reason).toMatch(reason);
      expect(r.evidence).toEqual([]);
    }
  });

  test("is pure: the same observation gives the same results", () => {
    const o = cases[0]!.o;
    expect(judge(o)).toEqual(judge(structuredClone(o)));
  });
});

describe("buildReport()", () => {
  test("has exactly the documented shape", () => {
    const o = obs({
      era: "legacy",
      handshake: legacy,
      toolsList: complete,
      toolCall: jsonrpcError(-32602),
      authMetadata: { kind: "no_challenge" },
    });
    const report = buildReport(o, judge(o));
    expect(Object.keys(report)).toEqual([
      "url",
      "suite",
      "era",
      "protocolVersion",
      "checks",
      "clients",
      "configuration",
      "exchanges",
      "observations",
    ]);
    // No header was listed as required: nothing needed, and the reach says so (architecture.md §2.6, 0.15.0).
    expect(report.configuration).toEqual({ needed: false, headers: [], reach: "not_needed" });
    expect(report.suite).toBe(SUITE_VERSION);
    expect(report.protocolVersion).toBe("2025-06-18");
    expect(Object.keys(report.checks)).toEqual([...CHECK_IDS]);
    expect(Object.keys(report.checks.handshake)).toEqual(["state", "reason"]);
  });
  test("protocolVersion is null when none was agreed", () => {
    const o = obs({ handshake: { ...legacy, protocolVersion: "1999-01-01", common: false } });
    expect(buildReport(o, judge(o)).protocolVersion).toBeNull();
  });
});
