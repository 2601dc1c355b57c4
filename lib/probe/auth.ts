import type { ProbeContext } from "./context";
import { parseJson } from "./jsonrpc";
import { isSlowDown } from "./host-gate";
import type { AuthChallenge, AuthMetadataOutcome, MetadataProblem, SeenChallenge } from "./types";

/** The challenge that names a metadata URL: Bearer first, then any scheme that carries one. */
export function metadataChallenge(seen: SeenChallenge): AuthChallenge | undefined {
  const withUrl = seen.challenges.filter((c) => typeof c.params["resource_metadata"] === "string");
  return withUrl.find((c) => c.scheme.toLowerCase() === "bearer") ?? withUrl[0];
}

/**
 * architecture.md §2.4: follow the challenge's resource_metadata URL one step, as a client would. Observes
 * discoverability only; it says nothing about whether the authentication itself is sound.
 */
export async function followAuthMetadata(
  ctx: ProbeContext,
  seen: SeenChallenge,
  serverUrl: URL,
  /** The metadata host's opt-out (operator list or robots.txt), checked before anything is fetched there. */
  isOptedOut: (url: URL) => Promise<string | null>,
): Promise<AuthMetadataOutcome> {
  const challenge = metadataChallenge(seen);
  const raw = challenge?.params["resource_metadata"];
  if (!challenge || raw === undefined) return { kind: "no_metadata_url", challenge: seen };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { kind: "invalid_url", url: raw, challenge: seen };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { kind: "invalid_url", url: raw, challenge: seen };
  const optedOut = await isOptedOut(url);
  if (optedOut !== null) return { kind: "opted_out_host", url: raw, host: url.hostname, reason: optedOut, challenge: seen };
  const refused = await ctx.http.checkHost(url.hostname);
  if (refused) return { kind: "address_refused", url: raw, detail: refused, challenge: seen };

  const a = await ctx.http.send({ phase: "auth_metadata", method: "GET", url: url.toString(), headers: { accept: "application/json" } });
  ctx.note(a, "auth_metadata");
  if (a.status === undefined) return { kind: "failed", url: raw, cause: a.error ?? "no answer", seq: a.seq, challenge: seen };
  if (isSlowDown(a.status, a.headers["retry-after"]) && ctx.slowDown) return { kind: "slow_down", slowDown: ctx.slowDown, challenge: seen };
  // A redirect counts as an error: the probe follows none, and a client that did would leave the URL it was given.
  if (a.status < 200 || a.status >= 300) return { kind: "http_error", url: raw, status: a.status, seq: a.seq, challenge: seen };
  if (a.failure) return { kind: "failed", url: raw, cause: a.error ?? "unreadable body", seq: a.seq, challenge: seen };
  const parsed = parseJson(a.text);
  if (!parsed.ok) return { kind: "not_json", url: raw, seq: a.seq, challenge: seen };
  const doc = parsed.value;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    const jsonType = doc === null ? "null" : Array.isArray(doc) ? "array" : typeof doc;
    return { kind: "not_object", url: raw, jsonType, seq: a.seq, challenge: seen };
  }
  const meta = doc as Record<string, unknown>;
  const problems = metadataProblems(meta, serverUrl);
  if (problems.length) return { kind: "unusable", url: raw, problems, seq: a.seq, challenge: seen };
  const scopesSupported = stringList(meta.scopes_supported);
  const asked = (challenge.params["scope"] ?? "").split(" ").filter(Boolean);
  // Compared only when the metadata lists scopes: scopes_supported is optional (RFC 9728 §2).
  if (scopesSupported && asked.length) {
    const missing = asked.filter((s) => !scopesSupported.includes(s));
    if (missing.length) return { kind: "scope_mismatch", url: raw, missing, listed: scopesSupported, seq: a.seq, challenge: seen };
  }
  return {
    kind: "ok",
    url: raw,
    resource: meta.resource as string,
    authorizationServers: authorizationServers(meta),
    ...(scopesSupported ? { scopesSupported } : {}),
    seq: a.seq,
    challenge: seen,
  };
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined;
}

function authorizationServers(meta: Record<string, unknown>): string[] {
  return (stringList(meta.authorization_servers) ?? []).filter((s) => s !== "");
}

/** architecture.md §2.4 (suite 0.12.0): what keeps a client from using this object as protected-resource metadata. */
export function metadataProblems(meta: Record<string, unknown>, serverUrl: URL): MetadataProblem[] {
  const problems: MetadataProblem[] = [];
  if (typeof meta.resource !== "string") problems.push({ kind: "no_resource" });
  else {
    const why = resourceMismatch(meta.resource, serverUrl);
    if (why) problems.push({ kind: "resource_not_covering", resource: meta.resource, why });
  }
  // The MCP authorization spec requires at least one authorization server.
  if (authorizationServers(meta).length === 0) problems.push({ kind: "no_authorization_servers" });
  return problems;
}

/**
 * The official TypeScript SDK client's checkResourceAllowed: same origin, and the server's path (fragment
 * dropped) starts with the resource's path, both compared with a trailing slash, so `/mc` does not cover
 * `/mcp` and `/mcp/` does not cover `/mcp`. Null when the resource covers the server.
 */
export function resourceMismatch(resource: string, serverUrl: URL): "not_url" | "origin" | "path" | null {
  let configured: URL;
  try {
    configured = new URL(resource);
  } catch {
    return "not_url";
  }
  if (configured.origin !== serverUrl.origin) return "origin";
  const requested = serverUrl.pathname;
  if (requested.length < configured.pathname.length) return "path";
  const slash = (p: string) => (p.endsWith("/") ? p : `${p}/`);
  return slash(requested).startsWith(slash(configured.pathname)) ? null : "path";
}
