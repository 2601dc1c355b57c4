import type { ToolChangeKind } from "../store/vocabulary";
import { createHash } from "node:crypto";

// Tool lists are compared as canonical JSON: object keys sorted, arrays in order.

export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonicalize(v);
    }
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value));
}

/** Tools sorted by name and canonicalised, so order on the wire does not count as a change. */
export function canonicalToolList(tools: readonly unknown[]): unknown[] {
  const canon = tools.map(canonicalize);
  return canon
    .map((t, i) => ({ t, key: toolName(t, i) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.t);
}

export function hashToolList(canonicalTools: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(canonicalTools)).digest("hex");
}

function toolName(t: unknown, index: number): string {
  const n = t && typeof t === "object" ? (t as Record<string, unknown>).name : undefined;
  return typeof n === "string" ? n : `#${index}`;
}

export interface ToolChange {
  toolName: string;
  kind: ToolChangeKind;
  /** Dotted field path inside the tool ("description", "inputSchema.properties.q.type"); "" for a whole tool. */
  path: string;
  /** Canonical JSON of the value before / after, or null when absent. */
  before: string | null;
  after: string | null;
}

/** Field-path differences between two tool lists: whole tools added or removed, and each changed leaf path. */
export function diffToolLists(before: readonly unknown[], after: readonly unknown[]): ToolChange[] {
  const index = (list: readonly unknown[]) => new Map(list.map((t, i) => [toolName(t, i), t] as const));
  const a = index(before);
  const b = index(after);
  const changes: ToolChange[] = [];
  for (const [name, t] of a) {
    if (!b.has(name)) changes.push({ toolName: name, kind: "removed", path: "", before: canonicalJson(t), after: null });
  }
  for (const [name, t] of b) {
    const old = a.get(name);
    if (old === undefined) {
      changes.push({ toolName: name, kind: "added", path: "", before: null, after: canonicalJson(t) });
      continue;
    }
    for (const d of diffValues(old, t, [])) changes.push({ toolName: name, kind: "changed", ...d });
  }
  return changes.sort((x, y) => (x.toolName === y.toolName ? (x.path < y.path ? -1 : 1) : x.toolName < y.toolName ? -1 : 1));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

function pathOf(parts: string[]): string {
  return parts.map((p) => (/^[A-Za-z_$][\w$-]*$/.test(p) ? p : JSON.stringify(p))).join(".");
}

function diffValues(x: unknown, y: unknown, parts: string[]): { path: string; before: string | null; after: string | null }[] {
  // Objects recurse by key; arrays and scalars are compared whole (a changed enum or required list is one change).
  if (isPlainObject(x) && isPlainObject(y)) {
    const out: { path: string; before: string | null; after: string | null }[] = [];
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
    for (const k of keys) {
      if (!(k in y)) out.push({ path: pathOf([...parts, k]), before: canonicalJson(x[k]), after: null });
      else if (!(k in x)) out.push({ path: pathOf([...parts, k]), before: null, after: canonicalJson(y[k]) });
      else out.push(...diffValues(x[k], y[k], [...parts, k]));
    }
    return out;
  }
  const bx = canonicalJson(x);
  const by = canonicalJson(y);
  return bx === by ? [] : [{ path: pathOf(parts), before: bx, after: by }];
}
