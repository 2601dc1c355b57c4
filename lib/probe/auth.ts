import type { ProbeContext } from "./context";
import { parseJson } from "./jsonrpc";
import { isSlowDown } from "./transport/http";
import type { AuthChallenge, AuthMetadataOutcome, SeenChallenge } from "./types";

/** The challenge that names a metadata URL: Bearer first, then any scheme that carries one. */
export function metadataChallenge(seen: SeenChallenge): AuthChallenge | undefined {
  const withUrl = seen.challenges.filter((c) => typeof c.params["resource_metadata"] === "string");
  return withUrl.find((c) => c.scheme.toLowerCase() === "bearer") ?? withUrl[0];
}

/**
 * DESIGN §2.4: follow the challenge's resource_metadata URL one step, as a client would. Observes
 * discoverability only; it says nothing about whether the authentication itself is sound.
 */
export async function followAuthMetadata(
  ctx: ProbeContext,
  seen: SeenChallenge,
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
  if (isSlowDown(a) && ctx.slowDown) return { kind: "slow_down", slowDown: ctx.slowDown, challenge: seen };
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
    ...(typeof meta.resource === "string" ? { resource: meta.resource } : {}),
    authorizationServers: stringList(meta.authorization_servers) ?? [],
    ...(scopesSupported ? { scopesSupported } : {}),
    seq: a.seq,
    challenge: seen,
  };
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined;
}
