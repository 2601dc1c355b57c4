// Every stored result keeps the suite version that produced it (architecture.md §2): a database written by
// 0.11.0 keeps 0.11.0 on its old rows while new writes carry the current SUITE_VERSION.
import { afterEach, expect, test } from "vitest";
import { judge } from "@/lib/checks";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import type { Exchange, ProbeObservation } from "@/lib/probe/types";
import { persistRun } from "@/lib/rounds/persist";
import { applyRegistrySnapshot, type ListedServer } from "@/lib/store/servers/registry";
import { tempDb } from "../store/helpers";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const ex = (seq: number, phase: Exchange["phase"], status: number): Exchange => ({
  seq,
  phase,
  method: "POST",
  url: "https://s.example/mcp",
  requestHeaders: {},
  responseHeaders: {},
  durationMs: 5,
  status,
  bodyExcerpt: "{}",
});

function observation(at: Date, ok: boolean): ProbeObservation {
  const base = {
    url: "https://s.example/mcp",
    transport: "streamable-http" as const,
    startedAt: at.toISOString(),
    finishedAt: at.toISOString(),
  };
  if (!ok)
    return {
      ...base,
      era: "unknown",
      handshake: { kind: "failed", cause: "server/discover answered HTTP 500 with an empty body", seq: 1 },
      exchanges: [ex(1, "discover", 500)],
    };
  return {
    ...base,
    era: "modern",
    handshake: { kind: "modern", protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], seq: 1 },
    toolsList: { kind: "complete", tools: [{ name: "a", inputSchema: { type: "object" } }], pages: 1, malformed: [], seqs: [2] },
    toolCall: {
      kind: "answered",
      status: 200,
      shape: { type: "jsonrpc_error", code: -32602, message: "Unknown tool", transport: "json" },
      seq: 3,
    },
    authMetadata: { kind: "no_challenge" },
    exchanges: [ex(1, "discover", 200), ex(2, "tools_list", 200), ex(3, "tools_call", 200)],
  };
}

test("rows written by 0.11.0 keep 0.11.0; new runs, results and transitions carry the current suite version", () => {
  expect(SUITE_VERSION).toBe("0.15.0");
  const t = tempDb();
  cleanups.push(t.cleanup);
  const listed: ListedServer[] = ["old", "new"].map((name) => ({
    name,
    title: null,
    description: null,
    version: "1",
    url: `https://${name}.example/mcp`,
    transport: "streamable-http",
    host: `${name}.example`,
    needsConfig: null,
    registryUpdatedAt: null,
  }));
  applyRegistrySnapshot(t.db, listed, "2026-11-01T00:00:00.000Z");
  const sql = t.db.$client;
  const id = (n: string) => (sql.prepare("select id from servers where name = ?").get(n) as { id: number }).id;
  const persist = (name: string, at: Date, ok: boolean) => {
    const obs = observation(at, ok);
    persistRun(t.db, { serverId: id(name), roundId: null, obs, results: judge(obs), skipped: false, now: at });
  };

  persist("old", new Date("2026-11-20T00:00:00Z"), true);
  // What a database written by suite 0.11.0 holds.
  for (const table of ["runs", "check_results", "transitions"]) sql.prepare(`update ${table} set suite_version = '0.11.0'`).run();

  persist("new", new Date("2026-11-30T12:00:00Z"), true);
  persist("old", new Date("2026-11-30T12:00:00Z"), false);

  const versions = (table: string, name: string) =>
    (sql.prepare(`select suite_version as v from ${table} where server_id = ? order by rowid`).all(id(name)) as { v: string }[]).map(
      (r) => r.v,
    );
  expect(versions("runs", "old")).toEqual(["0.11.0", SUITE_VERSION]);
  expect(versions("runs", "new")).toEqual([SUITE_VERSION]);
  // The first five transitions came from the 0.11.0 run; the handshake's change to failed is new.
  const oldTransitions = versions("transitions", "old");
  expect(oldTransitions.slice(0, 5)).toEqual(Array(5).fill("0.11.0"));
  expect(oldTransitions.slice(5).every((v) => v === SUITE_VERSION)).toBe(true);
  expect(oldTransitions.length).toBeGreaterThan(5);
  expect(new Set(versions("check_results", "new"))).toEqual(new Set([SUITE_VERSION]));
});
