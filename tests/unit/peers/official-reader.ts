// The independent reader: the official SDK client (v2) reads a server's tool list, and a field-path
// diff compares it with what our probe read.
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Transport } from "@/lib/probe/protocol";

export interface OfficialRead {
  tools: unknown[];
  /** The negotiation mode that worked ("auto" reads modern servers modern). */
  mode: "auto" | "legacy";
  protocolVersion?: string;
}

async function readOnce(url: string, transport: Transport, mode: "auto" | "legacy"): Promise<OfficialRead> {
  const client = new Client({ name: "mcp-status-independent-reader", version: "1.0.0" }, { versionNegotiation: { mode } });
  const t = transport === "sse" ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(t);
    const { tools } = await client.listTools();
    return { tools, mode, protocolVersion: client.getNegotiatedProtocolVersion() };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Reads with version negotiation "auto", and in plain legacy mode when that fails. */
export async function readToolsWithOfficialClient(url: string, transport: Transport): Promise<OfficialRead> {
  if (transport === "sse") return readOnce(url, transport, "legacy");
  try {
    return await readOnce(url, transport, "auto");
  } catch (autoError) {
    try {
      return await readOnce(url, transport, "legacy");
    } catch {
      throw autoError;
    }
  }
}

/** JSON-pointer-style escaping of one path segment. */
const segment = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Flattens a JSON value to path → JSON leaf (empty objects and arrays are leaves). */
export function flatten(value: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, "[]");
    value.forEach((v, i) => flatten(v, `${path}/${i}`, out));
  } else if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) out.set(path, "{}");
    for (const k of keys) flatten((value as Record<string, unknown>)[k], `${path}/${segment(k)}`, out);
  } else {
    out.set(path, JSON.stringify(value));
  }
  return out;
}

/** Keys a tool list by tool name (index when a name is missing or repeated), so order does not matter. */
export function keyedTools(tools: readonly unknown[]): Record<string, unknown> {
  const names = tools.map((t) => (t && typeof t === "object" ? (t as { name?: unknown }).name : undefined));
  const unique = names.every((n, i) => typeof n === "string" && names.indexOf(n) === i);
  return Object.fromEntries(tools.map((t, i) => [unique ? String(names[i]) : `#${i}`, t]));
}

export interface FieldDifference {
  path: string;
  ours?: string;
  theirs?: string;
}

/** Every field path where the two tool lists differ (added, removed or changed). */
export function toolListDifferences(ours: readonly unknown[], theirs: readonly unknown[]): FieldDifference[] {
  const a = flatten(keyedTools(ours));
  const b = flatten(keyedTools(theirs));
  const diffs: FieldDifference[] = [];
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (a.get(path) !== b.get(path)) diffs.push({ path, ours: a.get(path), theirs: b.get(path) });
  }
  return diffs.sort((x, y) => x.path.localeCompare(y.path));
}
