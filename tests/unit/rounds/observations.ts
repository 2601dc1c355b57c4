import { afterEach } from "vitest";
import { judge } from "@/lib/checks";
import type { Exchange, ProbeObservation, ToolDefinition } from "@/lib/probe/types";
import { persistRun } from "@/lib/rounds/persist";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// Observations as the probe would hand them over, and a database with registry servers to persist them into.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

export function setup(names: string[]) {
  const t = tempDb();
  cleanups.push(t.cleanup);
  const listed = names.map((name, i) => listedServer(name, `https://s${i}.example/mcp`));
  applyRegistrySnapshot(t.db, listed, "2026-11-01T00:00:00.000Z");
  const ids = new Map(
    (t.db.$client.prepare("select id, name from servers").all() as { id: number; name: string }[]).map((r) => [r.name, r.id]),
  );
  return { db: t.db, id: (n: string) => ids.get(n)! };
}

export const ex = (seq: number, phase: Exchange["phase"], status?: number): Exchange => ({
  seq,
  phase,
  method: "POST",
  url: "https://s0.example/mcp",
  requestHeaders: {},
  responseHeaders: {},
  durationMs: 5,
  ...(status ? { status, bodyExcerpt: "{}" } : { error: "ECONNREFUSED" }),
});

export function healthy(at: Date, tools: ToolDefinition[]): ProbeObservation {
  return {
    url: "https://s0.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: new Date(at.getTime() + 40).toISOString(),
    era: "modern",
    handshake: { kind: "modern", protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], seq: 1 },
    toolsList: { kind: "complete", tools, pages: 1, malformed: [], seqs: [2] },
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

export function down(at: Date): ProbeObservation {
  return {
    url: "https://s0.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: at.toISOString(),
    era: "unknown",
    handshake: { kind: "failed", cause: "connection refused (ECONNREFUSED)", seq: 1 },
    exchanges: [ex(1, "discover")],
  };
}

export const tool = (name: string, description: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  ...extra,
});

/** `healthy` with another tool-list outcome (and whatever else the case needs). */
export function withList(at: Date, toolsList: ProbeObservation["toolsList"], extra: Partial<ProbeObservation> = {}): ProbeObservation {
  const base = healthy(at, []);
  const noCall = toolsList?.kind !== "complete";
  return {
    ...base,
    toolsList,
    ...(noCall ? { toolCall: { kind: "withheld", why: "the tool list was not read to its end", cause: "tools_list_unread" } } : {}),
    ...extra,
  } as ProbeObservation;
}

export const dueIn = (db: ReturnType<typeof setup>["db"], name: string, from: Date) =>
  Date.parse(getServerDetail(db, name)!.schedule.nextDueAt!) - from.getTime();

export function record(db: ReturnType<typeof setup>["db"], serverId: number, obs: ProbeObservation, now: Date) {
  return persistRun(db, { serverId, roundId: null, obs, results: judge(obs), skipped: false, now });
}
