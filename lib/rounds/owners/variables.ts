// URL variables an owner fills in (architecture.md §11): a remote whose URL has a `{variable}` without a default gets no
// request anonymously (no address); with its owner's values the owner's view probes the filled URL, on the claimed origin
// only. Values are checked for the part of the URL they land in, and everything stored is rebuilt from the template with
// ‹redacted› in each variable's place, so even a two-letter value never reaches evidence, a curl line or a log.
import { redactObservation } from "../../probe";
import type { ProbeObservation } from "../../probe/types";
import type { UrlVariables } from "../../probe/protocol";
import { OWNER_VALUE_MAX_BYTES, REDACTED, type ConfigurationError } from "../../vocabulary/owners";

const TEMPLATE = /\{([^{}]*)\}/g;
/** Registry variable names are cut to this many characters when stored (lib/registry/remotes.ts). */
const NAME_CHARS = 60;
const DNS_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Where a template's authority ends: everything before is scheme, host and port; after, path, query and fragment. */
function authorityEnd(template: string): number {
  const start = template.indexOf("://");
  const from = start < 0 ? 0 : start + 3;
  const rest = template.slice(from).search(/[/?#]/);
  return rest < 0 ? template.length : from + rest;
}

/** True when a variable stands in the template's host or port: no origin is known before the owner fills it in. */
export function hostIsVariable(template: string): boolean {
  return template.slice(0, authorityEnd(template)).includes("{");
}

/** The part of the URL a variable lands in. */
export function variablePart(template: string, name: string): "host" | "path" {
  const end = authorityEnd(template);
  for (const m of template.matchAll(TEMPLATE)) if (m[1]!.slice(0, NAME_CHARS) === name && m.index! < end) return "host";
  return "path";
}

/** Why a value cannot fill the variable `name`, or null. Refused everywhere: `/ ? # @`, whitespace, control characters,
 * a lone `.` or `..` (they would move the path); in the host, anything that is not one DNS label. */
export function variableProblem(template: string, name: string, value: string): { error: ConfigurationError; message: string } | null {
  const bad = (message: string) => ({ error: "invalid_value" as const, message });
  if (value === "") return bad(`The value for {${name}} is empty.`);
  if (Buffer.byteLength(value, "utf8") > OWNER_VALUE_MAX_BYTES)
    return { error: "value_too_long", message: `The value for {${name}} is over ${OWNER_VALUE_MAX_BYTES / 1024} KB.` };
  if (/[\x00-\x1f\x7f]/.test(value)) return bad(`The value for {${name}} contains a control character.`);
  if (/\s/u.test(value)) return bad(`The value for {${name}} contains whitespace.`);
  if (/[/?#@\\]/.test(value)) return bad(`The value for {${name}} contains / ? # @ or \\, which would change the URL's shape.`);
  if (value === "." || value === "..") return bad(`The value for {${name}} is a dot segment, which would move the URL's path.`);
  if (variablePart(template, name) === "host" && !DNS_LABEL.test(value))
    return bad(`The value for {${name}} is in the host, so it must be one DNS label (letters, digits and inner hyphens).`);
  return null;
}

export type Filled = { ok: true; url: string; redacted: string; pairs: [string, string][] } | { ok: false; message: string };

/** The template filled with the owner's values (percent-encoded in the path), checked to stay on `origin`; with it, what
 * stands for it in everything stored (the template with ‹redacted› in each variable's place) and the pairs that rebuild
 * any stored string from the filled form. The message never carries a value. */
export function fillTemplate(vars: UrlVariables, values: Readonly<Record<string, string>>, origin: string): Filled {
  const { template } = vars;
  const missing = vars.names.filter((n) => values[n] === undefined);
  if (missing.length) return { ok: false, message: `no value for ${missing.map((n) => `{${n}}`).join(", ")}` };
  for (const n of vars.names)
    if (variableProblem(template, n, values[n]!)) return { ok: false, message: `the value for {${n}} is not usable` };
  const end = authorityEnd(template);
  const fill = (part: string, offset: number, as: "encoded" | "raw" | "redacted") =>
    part.replace(TEMPLATE, (whole, name: string, at: number) => {
      const value = values[name.slice(0, NAME_CHARS)];
      if (value === undefined) return whole;
      if (as === "redacted") return REDACTED;
      if (offset + at < end) return value.toLowerCase();
      return as === "raw" ? value : encodeURIComponent(value);
    });
  let url: URL;
  try {
    url = new URL(fill(template, 0, "encoded"));
  } catch {
    return { ok: false, message: "the filled URL is not a valid URL" };
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin !== origin)
    return { ok: false, message: "the filled URL is not on the claimed origin" };
  const redacted = fill(template, 0, "redacted");
  const pathTemplate = template.slice(end);
  const redactedPath = fill(pathTemplate, end, "redacted");
  const pairs: [string, string][] = [
    [url.href, redacted],
    [fill(template, 0, "encoded"), redacted],
    [fill(template, 0, "raw"), redacted],
    [encodeURIComponent(url.href), encodeURIComponent(redacted)],
    [`${url.pathname}${url.search}`, redactedPath],
    [fill(pathTemplate, end, "encoded"), redactedPath],
    [fill(pathTemplate, end, "raw"), redactedPath],
  ];
  // A needle the template already holds (no variable in it) would hide nothing secret: keep only those that changed.
  return { ok: true, url: url.href, redacted, pairs: pairs.filter(([from, to]) => from !== "" && from !== to) };
}

/** `text` with every filled form replaced by its redacted form, longest first. */
export function rebuildRedacted(text: string, pairs: readonly [string, string][]): string {
  let s = text;
  for (const [from, to] of [...pairs].sort((a, b) => b[0].length - a[0].length)) if (s.includes(from)) s = s.split(from).join(to);
  return s;
}

function walk(v: unknown, hide: (s: string) => string): unknown {
  if (typeof v === "string") return hide(v);
  if (Array.isArray(v)) return v.map((x) => walk(x, hide));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [hide(k), walk(x, hide)]));
  return v;
}

/** The owner's probe of a filled URL as it is stored: every filled URL and path rebuilt from the template, then the
 * values (and header values) hidden wherever a server echoed them, as for headers. */
export function redactFilled(obs: ProbeObservation, filled: Extract<Filled, { ok: true }>, values: readonly string[]): ProbeObservation {
  const rebuilt = walk(obs, (s) => rebuildRedacted(s, filled.pairs)) as ProbeObservation;
  return redactObservation({ ...rebuilt, url: filled.redacted }, values);
}
