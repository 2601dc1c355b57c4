import { RESERVED_TOOL_NAME } from "./protocol";
import type { ProbeContext } from "./context";
import { JsonRpcErrorResponse, JsonRpcResultResponse } from "./jsonrpc";
import { describeAnswer, describeBody } from "./rpc";
import type { RpcCaller } from "./tools";
import type { MalformedForm, ToolCallOutcome } from "./types";

const NO_ANSWER = new Set(["timeout", "deadline", "network", "policy"]);

/** architecture.md §2.3: call the reserved, nonexistent tool once and classify the refusal's shape. */
export async function callReservedTool(ctx: ProbeContext, rpc: RpcCaller): Promise<ToolCallOutcome> {
  const a = await rpc.call("tools_call", "tools/call", { name: RESERVED_TOOL_NAME, arguments: {} });
  ctx.note(a, "tools_call");
  if (ctx.slowDown) return { kind: "slow_down", slowDown: ctx.slowDown };
  if (a.status === undefined || (a.failure && NO_ANSWER.has(a.failure) && a.json === undefined)) {
    return { kind: "failed", cause: `tools/call got ${describeAnswer(a)}`, seq: a.seq };
  }
  const status = a.status;
  const err = JsonRpcErrorResponse.safeParse(a.json);
  if (err.success) {
    return {
      kind: "answered",
      status,
      shape: {
        type: "jsonrpc_error",
        code: err.data.error.code,
        message: err.data.error.message,
        transport: a.via === "sse" ? "sse" : "json",
      },
      seq: a.seq,
    };
  }
  if (status === 401 || status === 403) return { kind: "answered", status, shape: { type: "pre_dispatch_refusal" }, seq: a.seq };
  const res = JsonRpcResultResponse.safeParse(a.json);
  if (res.success && res.data.result.isError === true) {
    return { kind: "answered", status, shape: { type: "is_error_result", ...textOf(res.data.result) }, seq: a.seq };
  }
  return {
    kind: "answered",
    status,
    shape: { type: "malformed", description: malformedShape(a, res.success), form: malformedForm(a, res.success) },
    seq: a.seq,
  };
}

function textOf(result: Record<string, unknown>): { text?: string } {
  const content = result.content;
  if (!Array.isArray(content)) return {};
  const first = content.find((c) => typeof c === "object" && c !== null && typeof (c as { text?: unknown }).text === "string");
  return first ? { text: String((first as { text: string }).text).slice(0, 200) } : {};
}

function malformedForm(a: Parameters<typeof describeBody>[0], isResult: boolean): MalformedForm {
  if (isResult) return "success";
  const v = a.json;
  if (v !== undefined) return typeof v === "object" && v !== null && !Array.isArray(v) && !("jsonrpc" in v) ? "no_jsonrpc" : "other";
  const redirect = a.status !== undefined && a.status >= 300 && a.status < 400;
  if (redirect || a.failure || a.isSse) return "other";
  const text = a.text.trim();
  if (text === "") return "empty";
  return a.contentType.includes("html") || text.startsWith("<") ? "html" : "other";
}

function malformedShape(a: Parameters<typeof describeBody>[0], isResult: boolean): string {
  if (isResult) return `a success result at HTTP ${a.status}`;
  const body = describeBody(a, true);
  return `HTTP ${a.status} with ${body}`;
}
