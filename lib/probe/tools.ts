import { RESERVED_TOOL_NAME } from "./protocol";
import type { ProbeContext } from "./context";
import { isModernDecline, looseError } from "./jsonrpc";
import { describeAnswer, type RpcAnswer } from "./rpc";
import type { ExchangePhase, SeenChallenge, ToolDefinition, ToolsListOutcome } from "./types";

export interface RpcCaller {
  call(phase: ExchangePhase, method: string, params?: Record<string, unknown>): Promise<RpcAnswer>;
}

export type ToolsStep =
  | { outcome: ToolsListOutcome }
  /** architecture.md §2.1.9: the first page of a modern session met a legacy-style rejection. */
  | { lateFallback: string; seq: number };

export interface ReadToolsOptions {
  /** In 2026-07-28 an empty-string cursor is a cursor; in the legacy revisions it ends the list. */
  emptyCursorContinues: boolean;
  /** Offer the late fallback when the first page is refused legacy-style (modern sessions only). */
  mayFallBack: boolean;
}

/** The first page was refused the way a legacy server refuses a modern request. */
function legacyStyleRejection(a: RpcAnswer): boolean {
  if (a.status === undefined || a.status === 429) return false;
  const err = looseError(a.json);
  if (err && isModernDecline(err.code)) return false;
  if (a.status >= 400 && a.status < 500) return true;
  return a.status >= 200 && a.status < 300 && err !== null;
}

/** architecture.md §2.2: every page, to the end or a cap, with the definitions checked. */
export async function readTools(ctx: ProbeContext, rpc: RpcCaller, opts: ReadToolsOptions): Promise<ToolsStep> {
  const tools: ToolDefinition[] = [];
  const seqs: number[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    if (pages >= ctx.limits.maxPages) return { outcome: { kind: "endless", why: "page_cap", tools, pages, seqs } };
    // architecture.md §2.2: out of time with a cursor pending after pages that came in time is the probe's budget.
    if (pages > 0 && ctx.deadline.aborted) return { outcome: { kind: "budget_exhausted", tools, pages, seqs } };
    const a = await rpc.call("tools_list", "tools/list", cursor === undefined ? {} : { cursor });
    ctx.note(a, "tools_list");
    seqs.push(a.seq);
    if (pages > 0 && a.failure === "deadline") {
      return { outcome: { kind: "budget_exhausted", tools, pages, pendingMs: a.exchange.durationMs, seqs } };
    }
    if (ctx.slowDown) return { outcome: { kind: "slow_down", slowDown: ctx.slowDown } };
    const gate: SeenChallenge | null = a.status === 401 ? ctx.challengeOf(a, "tools_list") : null;
    if (gate) return { outcome: { kind: "credential_gate", challenge: gate } };
    if (pages === 0 && opts.mayFallBack && legacyStyleRejection(a)) {
      return { lateFallback: `tools/list in the 2026-07-28 session answered ${describeAnswer(a)}`, seq: a.seq };
    }
    const page = pageOf(a);
    if (typeof page === "string") {
      const where = pages === 0 ? "tools/list" : `tools/list page ${pages + 1}`;
      return { outcome: { kind: "failed", cause: `${where} ${page}`, pages, seqs } };
    }
    pages++;
    tools.push(...page.tools);
    const next = page.nextCursor;
    if (next === undefined || next === null || (next === "" && !opts.emptyCursorContinues)) {
      return { outcome: { kind: "complete", tools, pages, malformed: malformedTools(tools), seqs } };
    }
    if (typeof next !== "string") {
      return { outcome: { kind: "failed", cause: `tools/list page ${pages} carried a nextCursor that is not a string`, pages, seqs } };
    }
    if (seenCursors.has(next)) return { outcome: { kind: "endless", why: "cursor_loop", tools, pages, seqs } };
    seenCursors.add(next);
    cursor = next;
  }
}

/** The tools and cursor of a page, or a clause saying why it is not one. */
function pageOf(a: RpcAnswer): { tools: ToolDefinition[]; nextCursor: unknown } | string {
  if (a.status === undefined) return `got ${describeAnswer(a)}`;
  const v = a.json as { result?: unknown } | undefined;
  const result = typeof v === "object" && v !== null && !Array.isArray(v) ? v.result : undefined;
  if (a.status < 200 || a.status >= 300 || looseError(a.json) || typeof result !== "object" || result === null) {
    return `answered ${describeAnswer(a, true)}`;
  }
  const list = (result as { tools?: unknown }).tools;
  if (!Array.isArray(list)) return `answered HTTP ${a.status} with a result that has no tools array`;
  return { tools: list as ToolDefinition[], nextCursor: (result as { nextCursor?: unknown }).nextCursor };
}

/** Problems a client would trip on: no string name, no object inputSchema, a name used twice. */
export function malformedTools(tools: readonly unknown[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const reported = new Set<string>();
  tools.forEach((t, i) => {
    const label = `tool #${i + 1}`;
    if (typeof t !== "object" || t === null || Array.isArray(t)) {
      problems.push(`${label} is not an object`);
      return;
    }
    const def = t as ToolDefinition;
    const name = typeof def.name === "string" && def.name !== "" ? def.name : null;
    if (name === null) problems.push(`${label} has no name`);
    const schema = def.inputSchema;
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
      problems.push(`${name ? `tool "${name}"` : label} has no object inputSchema`);
    }
    if (name !== null) {
      if (seen.has(name) && !reported.has(name)) {
        problems.push(`duplicate name "${name}"`);
        reported.add(name);
      }
      seen.add(name);
    }
  });
  return problems;
}

/** True when the list names the reserved tool, so calling it could run a real tool. */
export function listsReservedName(tools: readonly ToolDefinition[]): boolean {
  return tools.some((t) => typeof t === "object" && t !== null && t.name === RESERVED_TOOL_NAME);
}
