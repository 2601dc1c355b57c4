// The cross-reader in production shape: a real round by the probe, then the official SDK client (legacy
// initialize first) over the same loopback servers, outcomes stored and served. No mocks of the client.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { crossReads } from "@/app/api/_lib/handlers";
import type { Db } from "@/db/client";
import { compareToolLists, fixedSample } from "@/lib/rounds/crossread/compare";
import { crossReadServer } from "@/lib/rounds/crossread/reader";
import { runCrossRead, type CrossReadSummary } from "@/lib/rounds/crossread/run";
import { startZooServer } from "@/lib/demo/zoo";
import { createAddressPolicy, DEFAULT_USER_AGENT, probeServer } from "@/lib/probe";
import { createHostGate } from "@/lib/rounds/host-gate";
import { runRound } from "@/lib/rounds/round";
import { crossReadsOn } from "@/lib/store/cross-reads";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { crossReadSentence } from "@/lib/site/cross-read";
import { addOptOut } from "@/lib/store/optouts";
import { tempDb } from "../store/helpers";
import { startSplitServer, tool, type SplitServer, type SplitServerSpec } from "./servers";

const loopback = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
const DAY = "2026-11-30";

const SPECS: Record<string, SplitServerSpec> = {
  // Tools differ between a modern and a legacy session: the probe reads modern, the cross-reader legacy.
  split: {
    discover: "modern",
    initialize: true,
    modernTools: [tool("search", "Searches the index."), tool("fetch", "Fetches one page.")],
    legacyTools: [tool("search", "Searches the legacy index."), tool("fetch", "Fetches one page.")],
  },
  // server/discover answers 500 (the probe stops there, no fallback); initialize works.
  "initialize-only": { discover: "status500", initialize: true, legacyTools: [tool("echo", "Echoes.")] },
  // A legacy server both readers can read; three pages of tools for the SDK to follow.
  same: { discover: "legacy400", initialize: true, legacyTools: [tool("a", "A."), tool("b", "B."), tool("c", "C.")], pageSize: 1 },
  // Modern only: the legacy reader is turned away.
  "modern-only": { discover: "modern", initialize: false, legacyTools: [tool("m", "Modern.")] },
  "opted-out": { discover: "legacy400", initialize: true, legacyTools: [tool("x", "X.")] },
  "robots-no": {
    discover: "legacy400",
    initialize: true,
    legacyTools: [tool("y", "Y.")],
    robots: "User-agent: mcp-status-probe\nDisallow: /\n",
  },
};

const servers = new Map<string, SplitServer>();
let t: ReturnType<typeof tempDb>;
let db: Db;
let summary: CrossReadSummary;

beforeAll(async () => {
  t = tempDb("crossread-");
  db = t.db;
  for (const [name, spec] of Object.entries(SPECS)) servers.set(name, await startSplitServer(spec));
  const listed = [...servers].map(([name, s]) => ({
    name: `io.test/${name}`,
    title: null,
    description: null,
    version: "1",
    url: s.url,
    transport: "streamable-http" as const,
    host: s.host,
    needsConfig: null,
    registryUpdatedAt: null,
  }));
  const closed = await startSplitServer(SPECS.same!);
  await closed.close();
  listed.push({ ...listed[0]!, name: "io.test/down", url: closed.url, host: closed.host });
  applyRegistrySnapshot(db, listed, new Date().toISOString());
  addOptOut(db, {
    host: servers.get("opted-out")!.host,
    reason: "the operator asked us not to probe this host",
    source: "operator",
    since: new Date().toISOString(),
  });
  // The probe's round first, as in production (robots off here: the cross-reader's robots handling is under test).
  await runRound({ db, addressPolicy: loopback, robots: false, trigger: "test", log: () => undefined, limits: { deadlineMs: 10_000 } });
  for (const s of servers.values()) s.log.length = 0;
  summary = await runCrossRead({
    db,
    day: DAY,
    sample: 200,
    policy: loopback,
    userAgent: DEFAULT_USER_AGENT,
    limits: { deadlineMs: 10_000 },
    log: () => undefined,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
  t.cleanup();
});

const outcomeOf = (name: string) => crossReadsOn(db, DAY).find((r) => r.name === `io.test/${name}`);

describe("cross-reader outcomes against the probe's latest complete read", () => {
  test("tools that differ between a modern and a legacy session are disagreed, with the differing path", () => {
    expect(outcomeOf("split")).toMatchObject({ outcome: "disagreed", paths: ["search.description"], crossToolCount: 2, probeToolCount: 2 });
  });

  test("a server only an initialize-first reader can read is only_cross_reader", () => {
    expect(outcomeOf("initialize-only")).toMatchObject({
      outcome: "only_cross_reader",
      paths: [],
      crossToolCount: 1,
      probeToolCount: null,
    });
  });

  test("a difference the probe's rules explain is stored as explained, with the rule and its number (architecture.md §6)", () => {
    // server/discover answered 500: the probe never falls back, the legacy reader connects.
    expect(outcomeOf("initialize-only")).toMatchObject({ explained: true, explanation: "discover_server_error", explanationCode: 500 });
    // The split server's lists differ for no rule of the probe: unexplained.
    expect(outcomeOf("split")).toMatchObject({ explained: false, explanation: null });
    expect(outcomeOf("same")).toMatchObject({ explained: false, explanation: null });
    // architecture.md §2.10: the modern-only server refuses initialize, so the legacy reader's failed read there is explained.
    expect(outcomeOf("modern-only")).toMatchObject({ outcome: "only_probe", explained: true, explanation: "initialize_refused" });
    expect(summary.counts.explained).toBe(2);
    const page = getServerDetail(db, "io.test/initialize-only")!.crossRead!;
    expect(crossReadSentence(page)).toBe(
      `An initialize-first reader read 1 tool on ${DAY}; modern clients fail here because server/discover answered HTTP 500.`,
    );
  });

  test("a legacy server read by both, over three pages, is agreed", () => {
    expect(outcomeOf("same")).toMatchObject({ outcome: "agreed", crossToolCount: 3, probeToolCount: 3 });
    expect(servers.get("same")!.log.filter((l) => l.rpcMethod === "tools/list")).toHaveLength(3);
  });

  test("a modern-only server is only_probe, and an unreachable one is neither", () => {
    expect(outcomeOf("modern-only")).toMatchObject({ outcome: "only_probe", probeToolCount: 1, crossToolCount: null });
    expect(outcomeOf("down")).toMatchObject({ outcome: "neither" });
    expect(outcomeOf("down")!.detail).toMatch(/refused|ECONNREFUSED/i);
  });

  test("opted-out hosts (operator list, robots.txt) get no MCP request and no outcome", () => {
    expect(servers.get("opted-out")!.log).toEqual([]);
    expect(servers.get("robots-no")!.log.map((l) => l.path)).toEqual(["/robots.txt"]);
    expect(outcomeOf("opted-out")).toBeUndefined();
    expect(outcomeOf("robots-no")).toBeUndefined();
    expect(summary).toMatchObject({
      sampled: 7,
      optedOut: 2,
      counts: { agreed: 1, disagreed: 1, only_probe: 1, only_cross_reader: 1, neither: 1 },
    });
  });

  test("the cross-reader starts with initialize, never calls a tool, sends the probe's user agent, one request at a time", () => {
    for (const name of ["split", "initialize-only", "same", "modern-only"]) {
      const log = servers.get(name)!.log.filter((l) => l.path === "/mcp");
      expect(log[0]?.rpcMethod, name).toBe("initialize");
      expect(
        log.some((l) => l.rpcMethod === "tools/call" || l.rpcMethod === "server/discover"),
        name,
      ).toBe(false);
      expect(new Set(log.map((l) => l.userAgent)), name).toEqual(new Set([DEFAULT_USER_AGENT]));
      expect(
        log.every((l) => l.origin === undefined && l.authorization === undefined),
        name,
      ).toBe(true);
      expect(servers.get(name)!.maxInFlight, name).toBe(1);
    }
  });

  test("GET /api/cross-reads answers the latest day, blind spots first", async () => {
    const res = crossReads(db);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { day: string; servers: { name: string; outcome: string; paths: string[] }[] };
    expect(body.day).toBe(DAY);
    expect(body.servers[0]).toEqual({
      name: "io.test/initialize-only",
      outcome: "only_cross_reader",
      explained: true,
      explanation: "discover_server_error",
      paths: [],
    });
    expect(body.servers.find((s) => s.outcome === "disagreed")).toEqual({
      name: "io.test/split",
      outcome: "disagreed",
      explained: false,
      explanation: null,
      paths: ["search.description"],
    });
  });
});

describe("the cross-reader's guards are the probe's", () => {
  test("the address policy refuses loopback unless allowed, and nothing is sent", async () => {
    const s = servers.get("same")!;
    s.log.length = 0;
    const r = await crossReadServer(
      { url: s.url, transport: "streamable-http" },
      { policy: createAddressPolicy({ allowPrivate: false }), userAgent: DEFAULT_USER_AGENT },
    );
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/^address refused/) });
    expect(s.log).toEqual([]);
  });

  test("a redirect is not followed, to another origin or within its own", async () => {
    const http = await import("node:http");
    const target = servers.get("same")!;
    target.log.length = 0;
    const seen: string[] = [];
    const srv = http.createServer((req, res) => {
      seen.push(req.url ?? "");
      if (req.url === "/mcp") return void res.writeHead(307, { location: "/elsewhere" }).end();
      res.writeHead(307, { location: target.url }).end();
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    try {
      const port = (srv.address() as { port: number }).port;
      for (const p of ["/mcp", "/away"]) {
        const r = await crossReadServer(
          { url: `http://127.0.0.1:${port}${p}`, transport: "streamable-http" },
          { policy: loopback, userAgent: DEFAULT_USER_AGENT },
        );
        expect(r.ok).toBe(false);
      }
      expect(seen).toEqual(["/mcp", "/away"]);
      expect(target.log).toEqual([]);
    } finally {
      srv.closeAllConnections();
      srv.close();
    }
  });
});

describe("the 2024-11-05 HTTP+SSE transport", () => {
  test("the cross-reader reads it under a host gate (the open GET stream does not hold the gate) and agrees with the probe", async () => {
    const zoo = await startZooServer("http-sse-2024-11-05");
    try {
      const obs = await probeServer({ url: zoo.url, transport: "sse" }, { addressPolicy: loopback, limits: { deadlineMs: 10_000 } });
      const r = await crossReadServer(
        { url: zoo.url, transport: "sse" },
        { policy: loopback, userAgent: DEFAULT_USER_AGENT, hostGate: createHostGate({ limitOf: () => 1 }), deadlineMs: 10_000 },
      );
      expect(r).toMatchObject({ ok: true, protocolVersion: "2024-11-05" });
      expect(obs.toolsList?.kind).toBe("complete");
      const probeTools = obs.toolsList?.kind === "complete" ? obs.toolsList.tools : null;
      expect(compareToolLists(probeTools, r.ok ? r.tools : null)).toEqual({ outcome: "agreed", paths: [] });
    } finally {
      await zoo.close();
    }
  });
});

describe("comparison and sampling", () => {
  test("outcomes for each pair of reads", () => {
    const a = [tool("t", "one")];
    expect(compareToolLists(null, null).outcome).toBe("neither");
    expect(compareToolLists(a, null).outcome).toBe("only_probe");
    expect(compareToolLists(null, a).outcome).toBe("only_cross_reader");
    expect(compareToolLists(a, [tool("t", "one")])).toEqual({ outcome: "agreed", paths: [] });
    expect(compareToolLists(a, [tool("t", "one"), tool("u", "two")])).toEqual({ outcome: "disagreed", paths: ["u"] });
    // Fields the official client's schema drops are not counted against either side.
    expect(compareToolLists([tool("t", "one", { vendorField: 1 })], a).outcome).toBe("agreed");
  });

  test("the sample is fixed: the same servers every day, whatever order they come in", () => {
    const all = Array.from({ length: 500 }, (_, i) => ({ name: `io.x/s${i}` }));
    const first = fixedSample(all, 200).map((s) => s.name);
    expect(first).toHaveLength(200);
    expect(fixedSample([...all].reverse(), 200).map((s) => s.name)).toEqual(first);
    // A new server changes the sample by at most one member.
    const grown = fixedSample([...all, { name: "io.x/new" }], 200).map((s) => s.name);
    expect(grown.filter((n) => !first.includes(n)).length).toBeLessThanOrEqual(1);
  });
});
