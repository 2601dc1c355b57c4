// architecture.md §11: an owner's values are replaced by ‹redacted› in everything stored. The request headers are recorded
// redacted as they are sent (transport/http.ts); this pass covers what a server may echo back (a body excerpt, an error
// message, a header it kept) and URL variables, in every string of the observation.
import { REDACTED } from "../vocabulary/owners";
import type { ProbeObservation } from "./types";

/** The strings to hide for one value: itself, its token after an auth scheme ("Bearer x" → "x"), and their URL-encoded and
 * JSON-escaped forms. Parts under 4 characters are left alone (they would erase ordinary text); the headers that carried
 * them are redacted whatever their length. */
function needles(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const parts = [v, v.replace(/^\s*[A-Za-z][A-Za-z0-9._~+/-]*\s+/, "")];
    for (const p of parts) {
      for (const form of [p, encodeURIComponent(p), JSON.stringify(p).slice(1, -1)]) if (form.length >= 4) out.add(form);
    }
  }
  // Longest first, so a value that contains another is hidden whole.
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of the values replaced by ‹redacted›. */
export function redactValues(text: string, values: readonly string[]): string {
  let s = text;
  for (const n of needles(values)) if (s.includes(n)) s = s.split(n).join(REDACTED);
  return s;
}

function walk(v: unknown, hide: (s: string) => string): unknown {
  if (typeof v === "string") return hide(v);
  if (Array.isArray(v)) return v.map((x) => walk(x, hide));
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[hide(k)] = walk(x, hide);
    return out;
  }
  return v;
}

/** A copy of the observation with every string (keys included) redacted. */
export function redactObservation(obs: ProbeObservation, values: readonly string[]): ProbeObservation {
  const list = needles(values);
  if (list.length === 0) return obs;
  return walk(obs, (s) => redactValues(s, values)) as ProbeObservation;
}
