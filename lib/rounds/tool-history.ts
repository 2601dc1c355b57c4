import type { ToolChangeKind } from "../vocabulary/store";
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

/** Tools sorted by name, then by content, and canonicalised, so order on the wire does not count as a change
 * (duplicate and missing names included: a malformed list is still a complete read, architecture.md §2.2). */
export function canonicalToolList(tools: readonly unknown[]): unknown[] {
  return tools
    .map((t) => {
      const c = canonicalize(t);
      return { c, name: nameOf(c) ?? "", json: JSON.stringify(c) };
    })
    .sort((a, b) => compare(a.name, b.name) || compare(a.json, b.json))
    .map((x) => x.c);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hashToolList(canonicalTools: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(canonicalTools)).digest("hex");
}

function nameOf(t: unknown): string | undefined {
  const n = t && typeof t === "object" ? (t as Record<string, unknown>).name : undefined;
  return typeof n === "string" ? n : undefined;
}

/** Tools grouped by name ("" for none), in canonical order. */
function byName(list: readonly unknown[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const t of canonicalToolList(list)) {
    const name = nameOf(t) ?? "";
    out.set(name, [...(out.get(name) ?? []), t]);
  }
  return out;
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

/** Field-path differences between two tool lists: whole tools added or removed, and each changed leaf path.
 * Definitions sharing a name (a malformed list) are matched identical ones first, the rest pair up in order. */
export function diffToolLists(before: readonly unknown[], after: readonly unknown[]): ToolChange[] {
  const a = byName(before);
  const b = byName(after);
  const changes: ToolChange[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const olds = unmatched(a.get(name) ?? [], b.get(name) ?? []);
    const news = unmatched(b.get(name) ?? [], a.get(name) ?? []);
    for (let i = 0; i < Math.max(olds.length, news.length); i++) {
      const toolName = name || `#${i + 1}`;
      const [x, y] = [olds[i], news[i]];
      if (y === undefined) changes.push({ toolName, kind: "removed", path: "", before: canonicalJson(x), after: null });
      else if (x === undefined) changes.push({ toolName, kind: "added", path: "", before: null, after: canonicalJson(y) });
      else for (const d of diffValues(x, y, [])) changes.push({ toolName, kind: "changed", ...d });
    }
  }
  return changes.sort((x, y) => (x.toolName === y.toolName ? (x.path < y.path ? -1 : 1) : x.toolName < y.toolName ? -1 : 1));
}

/** The tools of `list` with no identical counterpart left in `other` (a multiset difference). */
function unmatched(list: readonly unknown[], other: readonly unknown[]): unknown[] {
  const left = other.map((t) => canonicalJson(t));
  return list.filter((t) => {
    const i = left.indexOf(canonicalJson(t));
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
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
