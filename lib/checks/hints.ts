import type { CertificateFacts, Exchange, ProbeObservation } from "../probe/types";
import type { CheckResult, Hint, HintFacts, HintTarget } from "./types";
import { HINT_CODES, type HintCode } from "../vocabulary/checks";

export type { Hint, HintFacts, HintTarget } from "./types";

// architecture.md §2.8 (suite 0.13.0): a Failed or Observed-risk verdict whose deciding exchange matches a known
// misconfiguration exactly carries a hint, stored as its code and facts; the sentence is rendered here.

const TLS_EXPIRED = new Set(["CERT_HAS_EXPIRED"]);
const TLS_WRONG_NAME = new Set(["ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH"]);
const TLS_UNKNOWN_ISSUER = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
]);

/** The phases that follow the auth metadata, which may point at another host than the remote itself. */
const METADATA_PHASES = new Set<Exchange["phase"]>(["auth_metadata"]);
/** Characters of a URL or host kept in a hint. */
const URL_CHARS = 300;

function hostPort(url: string): string {
  try {
    const u = new URL(url);
    return u.port ? `${u.hostname}:${u.port}` : `${u.hostname}:${u.protocol === "https:" ? 443 : 80}`;
  } catch {
    return url.slice(0, URL_CHARS);
  }
}

function hostname(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url.slice(0, URL_CHARS);
  }
}

/** The message of a JSON-RPC error body, or the body itself when it is plain text. */
function refusalMessage(x: Exchange): string {
  const text = (x.sseAnswer ?? x.bodyExcerpt ?? "").trim();
  try {
    const v = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof v?.error?.message === "string") return v.error.message;
  } catch {
    // not JSON: read as text
  }
  return text;
}

/** An SDK's localhost-only Host allowlist (protocol.md §7): "Invalid Host: h" or "Invalid Host header: h". */
const INVALID_HOST = /^Invalid Host(?: header)?(?::\s*(\S{1,200}))?/;

function certificateOf(obs: ProbeObservation, x: Exchange): CertificateFacts | undefined {
  return obs.certificate && obs.certificate.host === hostPort(x.url) ? obs.certificate : undefined;
}

/** The hint one exchange's failure matches exactly, if any. */
function matchExchange(obs: ProbeObservation, x: Exchange): Hint | undefined {
  const target: HintTarget = METADATA_PHASES.has(x.phase) ? "metadata" : "remote";
  if (x.status === undefined) {
    const host = hostPort(x.url);
    if (x.network === "refused") return { code: "connection_refused", host };
    if (x.network === "nxdomain") return { code: "name_not_found", host: hostname(x.url) };
    if (x.network === "tls" && x.errorCode) {
      const cert = certificateOf(obs, x);
      if (TLS_EXPIRED.has(x.errorCode)) return { code: "tls_expired", host, ...(cert?.validTo ? { validTo: cert.validTo } : {}) };
      if (TLS_WRONG_NAME.has(x.errorCode)) {
        const names = cert?.altNames?.slice(0, 5);
        return { code: "tls_wrong_name", host: hostname(x.url), ...(names?.length ? { names } : {}) };
      }
      if (TLS_UNKNOWN_ISSUER.has(x.errorCode))
        return { code: "tls_unknown_issuer", host, errorCode: x.errorCode, ...(cert?.issuer ? { issuer: cert.issuer } : {}) };
    }
    return undefined;
  }
  if (x.status >= 300 && x.status < 400) {
    const loc = x.responseHeaders["location"];
    if (!loc) return undefined;
    try {
      const to = new URL(loc, x.url);
      if (to.protocol !== "https:" && to.protocol !== "http:") return undefined;
      if (to.toString() === new URL(x.url).toString()) return undefined;
      return { code: "redirect", from: x.url.slice(0, URL_CHARS), location: to.toString().slice(0, URL_CHARS), target };
    } catch {
      return undefined;
    }
  }
  if (target === "metadata") return undefined;
  if (x.status === 403) {
    const m = INVALID_HOST.exec(refusalMessage(x));
    if (m) return { code: "invalid_host", ...(m[1] ? { host: m[1] } : {}) };
  }
  if (x.status === 406 && x.method === "POST") return { code: "not_acceptable", accept: x.requestHeaders["accept"] ?? "" };
  if (x.status === 415 && x.method === "POST")
    return { code: "unsupported_media_type", contentType: x.requestHeaders["content-type"] ?? "" };
  return undefined;
}

/**
 * The hint a verdict carries, with the exchanges behind it: only for Failed or Observed risk, and only when
 * the exchange that decided it (the last one it cites) matches a known misconfiguration exactly.
 */
export function diagnose(obs: ProbeObservation, r: CheckResult): { hint: Hint; evidence: number[] } | undefined {
  if (r.state !== "failed" && r.state !== "observed_risk") return undefined;
  const last = Math.max(...r.evidence);
  const x = obs.exchanges.find((e) => e.seq === last);
  const found = x ? matchExchange(obs, x) : undefined;
  if (found) return { hint: found, evidence: [] };
  // The listed transport failed at the handshake, and the other one answered (architecture.md §2.8).
  const hsSeqs = obs.handshake?.seqs ?? [];
  const tc = obs.transportCheck;
  if (tc?.answered && r.evidence.some((s) => hsSeqs.includes(s))) {
    return { hint: { code: "transport_mismatch", listed: obs.transport, speaks: tc.transport }, evidence: tc.seqs };
  }
  return undefined;
}

function dayOf(iso: string | undefined): string | undefined {
  return iso && !Number.isNaN(Date.parse(iso)) ? iso.slice(0, 10) : undefined;
}

/** One sentence saying what the operator should change. */
export function hintSentence(h: Hint): string {
  switch (h.code) {
    case "invalid_host":
      return `Allow the server's public host name in its Host-header allowlist: it refuses every request whose Host is not on a localhost-only list${h.host ? ` (it named ${h.host})` : ""}, which is what the MCP SDK's app helpers arm by default.`;
    case "redirect":
      return h.target === "remote"
        ? `List ${h.location} as the remote's URL in the registry: ${h.from} redirects there, and MCP clients do not follow redirects for their POSTs.`
        : `Point resource_metadata at ${h.location} itself: ${h.from} redirects there, and clients do not follow redirects when they look for metadata.`;
    case "transport_mismatch":
      return `List this remote as ${h.speaks} in the registry: it is listed as ${h.listed}, but it answered the ${h.speaks === "sse" ? "2024-11-05 HTTP+SSE" : "Streamable HTTP"} handshake.`;
    case "tls_expired": {
      const day = dayOf(h.validTo);
      return `Renew the TLS certificate for ${h.host}: it expired${day ? ` on ${day}` : ""}, so clients refuse the connection.`;
    }
    case "tls_wrong_name":
      return `Serve a TLS certificate that covers ${h.host}: the one presented${h.names?.length ? ` names ${h.names.join(", ")}` : " is for another name"}, so clients refuse the connection.`;
    case "tls_unknown_issuer":
      return `Serve the full certificate chain from a publicly trusted CA on ${h.host}: clients cannot verify the issuer${h.issuer ? ` (${h.issuer})` : ""} of the certificate presented (${h.errorCode}), which often means an intermediate certificate is missing.`;
    case "connection_refused":
      return `Check that the server is running and listening on ${h.host}, or correct the host and port in the registry: connections there are refused.`;
    case "name_not_found":
      return `Publish a DNS record for ${h.host}, or correct the host name in the registry: the name does not exist.`;
    case "not_acceptable":
      return `Accept requests whose Accept header is "${h.accept.slice(0, 80)}", as the MCP spec requires clients to send: the server answered 406 to it.`;
    case "unsupported_media_type":
      return `Accept POST bodies sent with Content-Type "${h.contentType.slice(0, 80)}", as MCP clients send them: the server answered 415 to it.`;
    case "unreadable_refusal":
      return `Answer a request without ${headerList(h.headers)} with HTTP 401 and a WWW-Authenticate challenge, or with a JSON-RPC error, instead of the HTTP ${h.status} it got: then a client can tell its user which key to configure.`;
  }
}

/** "the `X-Api-Key` header", "the `A` and `B` headers" (names as the registry client kept them: capped, quoted when odd). */
export function headerList(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => `\`${n}\``);
  const more = names.length > 5 ? ` and ${names.length - 5} more` : "";
  if (shown.length <= 1) return `the ${shown.join("")} header`;
  return `the ${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}${more} headers`;
}

/** Splits a hint into its stored parts. */
export function hintColumns(h: Hint | undefined): { hintCode: HintCode | null; hintFacts: string | null } {
  if (!h) return { hintCode: null, hintFacts: null };
  const { code, ...facts } = h;
  return { hintCode: code, hintFacts: JSON.stringify(facts) };
}

/** A stored hint back as a value; null when absent or not one this suite knows. */
export function hintFromColumns(code: string | null, facts: string | null): Hint | null {
  if (!code || !(HINT_CODES as readonly string[]).includes(code)) return null;
  let parsed: unknown = {};
  try {
    parsed = facts ? JSON.parse(facts) : {};
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  return { ...(parsed as HintFacts), code } as Hint;
}
