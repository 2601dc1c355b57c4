import sjson from "secure-json-parse";
import { z } from "zod";
import { MODERN_DECLINE_CODES, MODERN_REVISION, SUITE_VERSION } from "./protocol";

/** Deeper JSON than this is refused before parsing: no tool schema needs it, and deep nesting is a stack attack. */
export const MAX_JSON_DEPTH = 128;

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** Nesting depth of a JSON text, counted outside strings; stops counting once past `limit`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** JSON.parse without prototype pollution (`__proto__`/`constructor.prototype` keys are dropped) and with a depth cap. */
export function parseJson(text: string): JsonParse {
  if (text.trim() === "") return { ok: false, error: "empty body" };
  if (jsonDepth(text) > MAX_JSON_DEPTH) return { ok: false, error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: sjson.parse(text, null, { protoAction: "remove", constructorAction: "remove" }) };
  } catch (e) {
    return { ok: false, error: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

// ---- shapes ----------------------------------------------------------------------------------

const Id = z.union([z.string(), z.number(), z.null()]);

/** A well-formed JSON-RPC error response (architecture.md §2.3): jsonrpc, id, error with integer code and string message. */
export const JsonRpcErrorResponse = z.object({
  jsonrpc: z.literal("2.0"),
  id: Id,
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }),
});
export type JsonRpcErrorResponse = z.infer<typeof JsonRpcErrorResponse>;

export const JsonRpcResultResponse = z.object({
  jsonrpc: z.literal("2.0"),
  id: Id,
  result: z.record(z.string(), z.unknown()),
});
export type JsonRpcResultResponse = z.infer<typeof JsonRpcResultResponse>;

const ServerInfo = z.object({ name: z.string().optional(), version: z.string().optional() }).optional().catch(undefined);

/** 2026-07-28 DiscoverResult, read leniently: only supportedVersions decides (architecture.md §2.1.2). */
export const DiscoverResult = z.object({
  supportedVersions: z.array(z.string()).min(1),
  resultType: z.string().optional(),
  capabilities: z.unknown().optional(),
  instructions: z.string().optional().catch(undefined),
  _meta: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

/** Legacy InitializeResult; protocolVersion is what the decision needs, the rest is kept if well-typed. */
export const InitializeResult = z.object({
  protocolVersion: z.string().min(1),
  capabilities: z.record(z.string(), z.unknown()).optional().catch(undefined),
  serverInfo: ServerInfo,
  instructions: z.string().optional().catch(undefined),
});

export function isModernDecline(code: number): boolean {
  return (MODERN_DECLINE_CODES as readonly number[]).includes(code);
}

/** A JSON value looks like a response (not a request or notification). */
export function isResponseLike(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !("method" in v) && ("result" in v || "error" in v);
}

/** The JSON-RPC error object of a body, when its shape is close enough to read code and message. */
export function looseError(v: unknown): { code: number; message: string; id: unknown; data?: unknown } | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const err = (v as Record<string, unknown>).error;
  if (typeof err !== "object" || err === null) return null;
  const { code, message, data } = err as Record<string, unknown>;
  if (typeof code !== "number" || !Number.isInteger(code)) return null;
  return { code, message: typeof message === "string" ? message : "", id: (v as Record<string, unknown>).id, data };
}

// ---- requests --------------------------------------------------------------------------------

export const CLIENT_INFO = { name: "mcp-status-probe", version: SUITE_VERSION } as const;

/** The `_meta` every 2026-07-28 request carries. */
export function modernMeta(): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN_REVISION,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { ...CLIENT_INFO },
  };
}

export interface RpcRequest {
  jsonrpc: "2.0";
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/** Renders a JSON-RPC id for reasons: "server-error" → "\"server-error\"", null → "null". */
export function describeId(id: unknown): string {
  if (id === undefined) return "no id";
  return JSON.stringify(id) ?? String(id);
}
