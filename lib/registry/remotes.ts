import { z } from "zod";
import type { RegistryRemote, Transport, UrlVariables } from "../probe/protocol";

// architecture.md §2.6 (suite 0.13.0): which listed remote is probed, and when a remote needs configuration. The
// registry's remote shapes (server.json `remotes[]`, KeyValueInput headers, `variables`) stop here.

/** More remotes than this on one entry are cut (the real registry's largest lists 30); the log says so. */
export const MAX_REMOTES = 50;
/** Headers and URL variables read per remote. */
export const MAX_HEADERS = 50;
/** Characters of a listed name kept in a reason or a log line. */
const NAME_CHARS = 60;

/** RFC 9110 token: what a header name must be. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TEMPLATE = /\{([^{}]*)\}/g;

const InputSchema = z.looseObject({ default: z.unknown().optional(), value: z.unknown().optional() });

const HeaderSchema = z.looseObject({
  name: z.unknown().optional(),
  isRequired: z.unknown().optional(),
  value: z.unknown().optional(),
});

export const RemoteSchema = z.looseObject({
  type: z.unknown().optional(),
  url: z.unknown().optional(),
  headers: z.unknown().optional(),
  variables: z.unknown().optional(),
});

/** What a remote needs before it can be probed (codes, so counting never parses the clause). */
type Need =
  | { kind: "url_variable"; names: string[] }
  | { kind: "required_header"; names: string[] }
  | { kind: "header_placeholder"; names: string[]; placeholders: string[] }
  | { kind: "scheme"; protocol: string }
  | { kind: "invalid_url" };

interface Analysed {
  remote: Omit<RegistryRemote, "standing" | "why">;
  /** The URL a probe would use. */
  probeUrl: string;
  needs: Need[];
}

const shown = (s: string) => (HEADER_TOKEN.test(s) && s.length <= NAME_CHARS ? s : JSON.stringify(s.slice(0, NAME_CHARS)));

function list(words: string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function needWords(n: Need): string {
  switch (n.kind) {
    case "url_variable":
      return `its URL has ${list(n.names.map((v) => `{${v}}`))} with no default, for the user to fill in`;
    case "required_header":
      return `it requires the header${n.names.length > 1 ? "s" : ""} ${list(n.names)}, and the probe never sends registry headers`;
    case "header_placeholder":
      return `its header${n.names.length > 1 ? "s" : ""} ${list(n.names)} ${n.names.length > 1 ? "hold" : "holds"} ${list(n.placeholders.map((v) => `{${v}}`))} for the user to fill in`;
    case "scheme":
      return `its URL uses ${n.protocol} rather than HTTP(S)`;
    case "invalid_url":
      return "its URL is not a valid URL, even with its variables filled in";
  }
}

/** The clause for a remote's needs; null when it needs nothing. */
export function needsClause(needs: readonly Need[]): string | null {
  return needs.length ? needs.map(needWords).join(", and ") : null;
}

function variableValue(vars: Record<string, unknown> | null, name: string): string | null {
  const v = InputSchema.safeParse(vars?.[name]);
  if (!v.success) return null;
  const value = typeof v.data.value === "string" && v.data.value !== "" ? v.data.value : v.data.default;
  return typeof value === "string" && value !== "" ? value : null;
}

/**
 * Reads one remote: null when it is not a remote the probe could ever speak (no URL, another transport),
 * else what it needs. `problems` collects listing faults for the log (they never stop other remotes).
 */
export function analyseRemote(raw: unknown, problems: string[], index: number): Analysed | null {
  const parsed = RemoteSchema.safeParse(raw);
  if (!parsed.success) {
    problems.push(`remote ${index + 1} is not an object`);
    return null;
  }
  const r = parsed.data;
  if (r.type !== "streamable-http" && r.type !== "sse") return null;
  if (typeof r.url !== "string" || r.url === "") return null;
  const transport: Transport = r.type;
  const needs: Need[] = [];

  let vars: Record<string, unknown> | null = null;
  if (r.variables !== undefined && r.variables !== null) {
    if (typeof r.variables === "object" && !Array.isArray(r.variables)) vars = r.variables as Record<string, unknown>;
    else
      problems.push(
        `remote ${index + 1} has variables that are not an object (${Array.isArray(r.variables) ? "a list" : typeof r.variables}); ignored`,
      );
  }
  const missing = new Set<string>();
  const probeUrl = r.url.replace(TEMPLATE, (whole, name: string) => {
    const value = variableValue(vars, name);
    if (value === null) missing.add(name.slice(0, NAME_CHARS));
    return value ?? whole;
  });
  if (missing.size) needs.push({ kind: "url_variable", names: [...missing] });
  else {
    try {
      const u = new URL(probeUrl);
      if (u.protocol !== "https:" && u.protocol !== "http:") needs.push({ kind: "scheme", protocol: u.protocol });
    } catch {
      needs.push({ kind: "invalid_url" });
    }
  }

  const required: string[] = [];
  const templated: string[] = [];
  const placeholders = new Set<string>();
  if (r.headers !== undefined && r.headers !== null) {
    if (!Array.isArray(r.headers)) problems.push(`remote ${index + 1} has headers that are not a list; ignored`);
    else {
      if (r.headers.length > MAX_HEADERS)
        problems.push(`remote ${index + 1} lists ${r.headers.length} headers; the first ${MAX_HEADERS} were read`);
      r.headers.slice(0, MAX_HEADERS).forEach((h, i) => {
        const hp = HeaderSchema.safeParse(h);
        if (!hp.success || typeof hp.data.name !== "string" || hp.data.name === "") {
          problems.push(`remote ${index + 1} header ${i + 1} has no name; ignored`);
          return;
        }
        const name = hp.data.name;
        if (!HEADER_TOKEN.test(name)) problems.push(`remote ${index + 1} header ${shown(name)} is not an HTTP header name`);
        if (hp.data.isRequired === true) required.push(shown(name));
        else if (typeof hp.data.value === "string") {
          const found = [...hp.data.value.matchAll(TEMPLATE)].map((m) => m[1]!.slice(0, NAME_CHARS));
          if (found.length) {
            templated.push(shown(name));
            for (const f of found) placeholders.add(f);
          }
        }
      });
    }
  }
  if (required.length) needs.push({ kind: "required_header", names: required });
  if (templated.length) needs.push({ kind: "header_placeholder", names: templated, placeholders: [...placeholders] });

  return {
    remote: { url: r.url, ...(probeUrl !== r.url ? { filledUrl: probeUrl } : {}), transport },
    probeUrl,
    needs,
  };
}

export interface RemoteChoice {
  remotes: RegistryRemote[];
  /** The remote a probe uses, or (when no remote can get a request: URL variables) the one shown as the server's. */
  url: string;
  transport: Transport;
  /** Why no remote can be used as listed; null when one can. */
  needsConfig: string | null;
  /**
   * Suite 0.15.0: the headers the probed remote lists as needed (required, or a `{placeholder}` value), as shown names.
   * It is probed anonymously without them; empty when it needs nothing, or when no remote can get a request.
   */
  configHeaders: string[];
  /** No remote has an address the probe may use (URL variables without a default, another scheme, an invalid URL). */
  noAddress: boolean;
  /** architecture.md §11: when no remote has an address only for want of URL variables, what an owner fills in on the shown
   * remote; null otherwise. */
  urlVariables: UrlVariables | null;
}

const headerNeed = (n: Need) => n.kind === "required_header" || n.kind === "header_placeholder";

/**
 * architecture.md §2.6: the first remote in registry order that needs nothing, streamable-http before sse; when every
 * remote needs configuration (suite 0.15.0), the one this rule picks if headers are ignored, probed without them.
 */
export function chooseRemote(analysed: readonly Analysed[]): RemoteChoice | null {
  if (analysed.length === 0) return null;
  const pick = (usable: (a: Analysed) => boolean) => {
    const first = (t: Transport) => analysed.findIndex((a) => usable(a) && a.remote.transport === t);
    return [first("streamable-http"), first("sse")].find((i) => i >= 0) ?? -1;
  };
  const ready = pick((a) => a.needs.length === 0);
  const probed = ready >= 0 ? ready : pick((a) => a.needs.every(headerNeed));
  const remotes: RegistryRemote[] = analysed.map((a, i) => ({
    ...a.remote,
    standing: i === probed ? "probed" : a.needs.length ? "needs_configuration" : "passed_over",
    why: needsClause(a.needs),
  }));
  if (ready >= 0) {
    const p = analysed[ready]!;
    return {
      remotes,
      url: p.probeUrl,
      transport: p.remote.transport,
      needsConfig: null,
      configHeaders: [],
      noAddress: false,
      urlVariables: null,
    };
  }
  const shownIndex =
    probed >= 0
      ? probed
      : Math.max(
          0,
          analysed.findIndex((a) => a.remote.transport === "streamable-http"),
        );
  const first = analysed[shownIndex]!;
  const why = needsClause(first.needs)!;
  const needsConfig =
    analysed.length === 1
      ? why
      : `each of its ${analysed.length} listed remotes needs configuration; the first ${first.remote.transport} one: ${why}`;
  const headers = [...new Set(first.needs.flatMap((n) => (headerNeed(n) && "names" in n ? n.names : [])))];
  if (probed < 0) {
    const variable = first.needs.find((n): n is Extract<Need, { kind: "url_variable" }> => n.kind === "url_variable");
    const onlyVariables = variable && first.needs.every((n) => n.kind === "url_variable" || headerNeed(n));
    return {
      remotes,
      url: first.remote.url,
      transport: first.remote.transport,
      needsConfig,
      configHeaders: [],
      noAddress: true,
      urlVariables: onlyVariables ? { template: first.probeUrl, names: variable.names, headers } : null,
    };
  }
  return {
    remotes,
    url: first.probeUrl,
    transport: first.remote.transport,
    needsConfig,
    configHeaders: headers,
    noAddress: false,
    urlVariables: null,
  };
}
