// An owner's configuration (architecture.md §11): header values the registry lists for the probed remote, or an
// `Authorization` value for a credential gate, each sealed under SECRETS_KEY (lib/store/secrets.ts). Write-only: nothing here
// answers a value back, and nothing logs one.
import type { Db } from "../../../db/client";
import { enqueueOwnerEvent, markExpiryTold, ownerTargetById, replaceSecrets, secretsOf, type ClaimRow } from "../../store/owners";
import { seal, secretAad, type SecretsKeys } from "../../store/secrets";
import { OWNER_VALUE_MAX_BYTES, type ConfigurationError } from "../../vocabulary/owners";
import type { UrlVariables } from "../../probe/protocol";
import { expiresSoon, jwtExpiry } from "./jwt";
import { fillTemplate, variableProblem } from "./variables";

export type ConfigureAnswer = { ok: true } | { ok: false; error: ConfigurationError; message: string };

const refuse = (error: ConfigurationError, message: string): ConfigureAnswer => ({ ok: false, error, message });

/** RFC 9110's token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** The header names an owner may set for a server: those the registry lists as needed, and `Authorization` when the
 * anonymous probe met a credential gate; lower-cased. */
export function allowedHeaders(target: { configHeaders: readonly string[]; gated: boolean }): string[] {
  const names = target.configHeaders.filter((n) => HEADER_NAME.test(n)).map((n) => n.toLowerCase());
  if (target.gated) names.push("authorization");
  return [...new Set(names)];
}

/** What an owner may set for a server (the manage page's fields): the headers of allowedHeaders and those the URL-variable
 * remote lists as needed, and the URL variables without a default. */
export function ownerFields(target: { configHeaders: readonly string[]; gated: boolean; urlVariables: UrlVariables | null }): {
  headers: string[];
  variables: string[];
} {
  const fromVariables = allowedHeaders({ configHeaders: target.urlVariables?.headers ?? [], gated: false });
  return { headers: [...new Set([...allowedHeaders(target), ...fromVariables])], variables: target.urlVariables?.names ?? [] };
}

/** Why a value cannot be sent as a header, or null: CR, LF or NUL (header injection), other control characters, over 8 KB. */
export function valueProblem(name: string, value: string): { error: ConfigurationError; message: string } | null {
  if (/[\r\n\0]/.test(value))
    return { error: "invalid_value", message: `The value for ${name} contains a line break or NUL, which a header cannot carry.` };
  if (/[\x01-\x08\x0b-\x1f\x7f]/.test(value))
    return { error: "invalid_value", message: `The value for ${name} contains a control character.` };
  if (value.trim() === "") return { error: "invalid_value", message: `The value for ${name} is empty.` };
  if (Buffer.byteLength(value, "utf8") > OWNER_VALUE_MAX_BYTES)
    return { error: "value_too_long", message: `The value for ${name} is over ${OWNER_VALUE_MAX_BYTES / 1024} KB.` };
  return null;
}

/** The URL variables sent, checked against those the registry lists without a default for the probed remote: each listed
 * one must be filled (the owner's view has no address otherwise), no other is taken, each value must fit its part of the
 * URL, and the filled URL must stay on the claimed origin. Null when they are fine. No message carries a value. */
function checkVariables(listed: UrlVariables | null, sent: [string, string][], origin: string): ConfigureAnswer | null {
  if (!listed) {
    if (sent.length === 0) return null;
    return refuse("variable_not_listed", "The registry lists no URL variable without a default for this remote, so the site fills none.");
  }
  const names = listed.names.map((n) => `{${n}}`).join(", ");
  for (const [name] of sent)
    if (!listed.names.includes(name))
      return refuse(
        "variable_not_listed",
        `The registry does not list {${name.slice(0, 60)}} for this remote; the site fills only ${names}.`,
      );
  const values = Object.fromEntries(sent);
  const missing = listed.names.filter((n) => values[n] === undefined);
  if (missing.length)
    return refuse(
      "variable_missing",
      `The remote's URL has no address without ${missing.map((n) => `{${n}}`).join(", ")}: send a value for each of ${names}.`,
    );
  for (const [name, value] of sent) {
    const problem = variableProblem(listed.template, name, value);
    if (problem) return { ok: false, ...problem };
  }
  const filled = fillTemplate(listed, values, origin);
  if (!filled.ok) return refuse("invalid_value", `With these values ${filled.message}, so the site would not send it.`);
  return null;
}

/** PUT /api/owners/<token>/configuration: checks every name and value, then replaces the claim's configuration whole. */
export function setConfiguration(
  db: Db,
  keys: SecretsKeys,
  claim: ClaimRow,
  body: { headers: Record<string, string>; variables?: Record<string, string> },
  now: Date,
): ConfigureAnswer {
  const target = ownerTargetById(db, claim.serverId);
  if (!target) return refuse("unknown_owner", "The claimed server is gone.");
  const variables = Object.entries(body.variables ?? {});
  const checkedVariables = checkVariables(target.urlVariables, variables, claim.origin);
  if (checkedVariables) return checkedVariables;
  const entries = Object.entries(body.headers);
  if (entries.length === 0 && variables.length === 0)
    return refuse("invalid_configuration", "Send at least one header or URL variable, or DELETE the configuration to remove it.");
  const allowed = ownerFields(target).headers;
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name)) return refuse("invalid_header_name", `${JSON.stringify(name.slice(0, 60))} is not a header name.`);
    if (!allowed.includes(name.toLowerCase()))
      return refuse(
        "header_not_listed",
        allowed.length
          ? `The registry does not list ${name} for this remote; the site sends only ${allowed.join(", ")}.`
          : `The registry lists no header for this remote, and no credential gate was met, so the site sends none.`,
      );
    const problem = valueProblem(name, value);
    if (problem) return { ok: false, ...problem };
  }
  const sealed = [
    ...entries.map(([name, value]) => {
      const lower = name.toLowerCase();
      const exp = jwtExpiry(value);
      return {
        kind: "header" as const,
        name: lower,
        sealed: seal(keys, value, secretAad(claim.id, "header", lower)),
        expiresAt: exp?.toISOString() ?? null,
      };
    }),
    ...variables.map(([name, value]) => ({
      kind: "variable" as const,
      name,
      sealed: seal(keys, value, secretAad(claim.id, "variable", name)),
      expiresAt: null,
    })),
  ];
  replaceSecrets(db, claim.id, sealed, now);
  tellExpiring(db, claim.id, claim.server, now);
  return { ok: true };
}

/** owner_token_expiring for each of the claim's JWT values whose `exp` is within 72 h, once per value (architecture.md §11):
 * checked when a value is saved and at each owner's-view probe. Returns how many were told. */
export function tellExpiring(db: Db, claimId: number, server: string, now: Date): number {
  let n = 0;
  for (const s of secretsOf(db, claimId)) {
    if (s.expiryToldAt || !expiresSoon(s.expiresAt, now)) continue;
    const hours = Math.max(0, Math.round((Date.parse(s.expiresAt!) - now.getTime()) / 3_600_000));
    const reason =
      hours > 0
        ? `The token the owner set for ${s.name} on ${server} expires in about ${hours} h (${s.expiresAt}); set a new one on the manage page.`
        : `The token the owner set for ${s.name} on ${server} has expired (${s.expiresAt}); set a new one on the manage page.`;
    enqueueOwnerEvent(db, claimId, "owner_token_expiring", { reason, at: now.toISOString() }, now);
    markExpiryTold(db, claimId, s.kind, s.name, now);
    n++;
  }
  return n;
}
