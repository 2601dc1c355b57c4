// Runs our probe and the judges against one zoo server and collects what the assertions need.
import { createAddressPolicy, probeServer } from "@/lib/probe";
import { judge } from "@/lib/checks";
import type { CheckResult } from "@/lib/checks/types";
import { CHECK_IDS, type CheckId, type CheckState } from "@/lib/checks/vocabulary";
import type { ProbeLimits, ProbeObservation } from "@/lib/probe/types";
import { startZooServer, ZOO_ALSO_ACCEPTABLE, ZOO_EXPECTATIONS, type RunningZooServer } from "@/lib/demo/zoo";

export const HOSTILE_LIMITS: Partial<ProbeLimits> = { deadlineMs: 3_000, maxBodyBytes: 1024 * 1024 };
export const ORDINARY_LIMITS: Partial<ProbeLimits> = { deadlineMs: 15_000 };

export interface ZooRun {
  name: string;
  server: RunningZooServer;
  obs: ProbeObservation;
  results: CheckResult[];
  elapsedMs: number;
}

/** Loopback only: the private-metadata case must be refused by policy, never connected. */
export const LOOPBACK_ONLY = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });

export function protocolVersionOf(obs: ProbeObservation): string | undefined {
  const h = obs.handshake;
  return h && (h.kind === "modern" || h.kind === "legacy" || h.kind === "sse") ? h.protocolVersion : undefined;
}

export async function runZooCase(name: string): Promise<ZooRun> {
  const exp = ZOO_EXPECTATIONS[name];
  if (!exp) throw new Error(`no expectation for ${name}`);
  const server = await startZooServer(name);
  try {
    const optedOutHost =
      exp.optOut === "server" ? new URL(server.origin).hostname : exp.optOut === "metadata" ? server.other?.host : undefined;
    const isOptedOut = (host: string) =>
      optedOutHost !== undefined && (host === optedOutHost || host.startsWith(`${optedOutHost}:`))
        ? "the operator asked us not to probe this host"
        : null;
    const started = Date.now();
    const obs = await probeServer(
      { url: server.url, transport: exp.transport ?? "streamable-http" },
      { addressPolicy: LOOPBACK_ONLY, isOptedOut, limits: exp.hostile ? HOSTILE_LIMITS : ORDINARY_LIMITS },
    );
    const elapsedMs = Date.now() - started;
    return { name, server, obs, results: judge(obs), elapsedMs };
  } finally {
    await server.close();
  }
}

export function statesOf(results: readonly CheckResult[]): Record<CheckId, CheckState | undefined> {
  return Object.fromEntries(CHECK_IDS.map((id) => [id, results.find((r) => r.check === id)?.state])) as Record<
    CheckId,
    CheckState | undefined
  >;
}

/** Expected states, with the alternatives DESIGN.md leaves open folded in when the actual state is one of them. */
export function expectedStatesFor(name: string, actual: Record<CheckId, CheckState | undefined>): Record<CheckId, CheckState> {
  const exp = ZOO_EXPECTATIONS[name]!;
  const alt = ZOO_ALSO_ACCEPTABLE[name] ?? {};
  return Object.fromEntries(
    CHECK_IDS.map((id) => {
      const a = actual[id];
      return [id, a && alt[id]?.includes(a) ? a : exp.states[id]];
    }),
  ) as Record<CheckId, CheckState>;
}

/** Why a reason is not one clean sentence, or null. Quoted server text may hold its own full stops. */
export function reasonProblem(reason: string): string | null {
  if (!reason.trim()) return "empty";
  if (/[\r\n]/.test(reason)) return "spans several lines";
  if (/\bat [\w.<>$]+ \(?[^()\s]+:\d+:\d+\)?/.test(reason) || /node_modules\//.test(reason)) return "holds a stack trace";
  if (reason.length > 600) return `is ${reason.length} characters long`;
  const unquoted = reason.replace(/"[^"]*"|“[^”]*”|`[^`]*`/g, '""');
  if (unquoted.split(/(?<=[.!?])\s+(?=[A-Z])/).length > 1) return "holds several sentences";
  return null;
}

/** Headers the probe must never send, and more than one request at a time (DESIGN §2.5, protocol.md §6). */
export function politenessProblem(run: ZooRun): string | null {
  for (const r of [...run.server.log, ...(run.server.other?.log ?? [])]) {
    const what = `${r.method} ${r.path}${r.jsonrpcMethod ? ` (${r.jsonrpcMethod})` : ""}`;
    if (r.headers.authorization) return `${what} carried Authorization`;
    if (r.headers.origin) return `${what} carried Origin`;
    if (!r.headers["user-agent"]) return `${what} had no User-Agent`;
    if (r.jsonrpcMethod === "initialize" && r.headers["mcp-protocol-version"]) return `${what} carried MCP-Protocol-Version before a revision was agreed`;
    if (run.obs.era === "modern" && r.headers["mcp-session-id"]) return `${what} carried Mcp-Session-Id in a 2026-07-28 session`;
  }
  if (run.server.concurrency.peak > 1) return `${run.server.concurrency.peak} requests were in flight at once`;
  return null;
}
