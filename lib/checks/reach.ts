import type { Exchange, HandshakeOutcome, ProbeObservation } from "../probe/types";
import { DISCOVERY_CHECKS, type CheckId, type Reach, type ReachRefusalShape } from "../vocabulary/checks";
import { headerList } from "./hints";
import { declinedReason, refusalWords, sentence } from "./reasons";
import type { CheckResult, Hint } from "./types";

// architecture.md §2.6, reach (suite 0.15.0): a server whose registry entry needs headers is probed without them, and
// what it answered decides. A completed handshake is judged as any server's; a 401 with a valid challenge is the
// credential gate; any other HTTP answer that ends discovery is a refusal for want of the headers (Not checked, never
// Failed: the registry's own word that a header is needed earns the benefit of the doubt); no HTTP answer at all is
// judged as for any server (Failed), since a missing header does not explain silence.

/** The refusal kept as a fact: its HTTP status and how a client could read it. */
export interface ReachRefusal {
  status: number;
  shape: ReachRefusalShape;
}

/** What a probe found of a server's configuration need; null when this probe cannot tell (a slow-down, an opt-out). */
export interface ReachFacts {
  reach: Reach;
  refusal: ReachRefusal | null;
}

/** The answer that ended discovery without the headers, at the step it ended. */
interface Refused {
  step: "handshake" | "tools_list";
  exchange: Exchange & { status: number };
  /** The judge's own clause for that answer ("initialize answered HTTP 403 with …"). */
  clause: string;
  fallbackCause?: string;
}

const withStatus = (x: Exchange | undefined): (Exchange & { status: number }) | undefined =>
  x && x.status !== undefined ? (x as Exchange & { status: number }) : undefined;

function exchangeAt(obs: ProbeObservation, seq: number | undefined): (Exchange & { status: number }) | undefined {
  return seq === undefined ? undefined : withStatus(obs.exchanges.find((x) => x.seq === seq));
}

function handshakeRefusal(obs: ProbeObservation, hs: HandshakeOutcome): Refused | null {
  const fb = "fallbackCause" in hs && hs.fallbackCause ? { fallbackCause: hs.fallbackCause } : {};
  switch (hs.kind) {
    case "declined": {
      const x = exchangeAt(obs, hs.seq);
      return x ? { step: "handshake", exchange: x, clause: declinedReason(hs).replace(/\.$/, "") } : null;
    }
    case "refused_no_challenge": {
      const x = exchangeAt(obs, hs.seq);
      return x ? { step: "handshake", exchange: x, clause: refusalWords(hs), ...fb } : null;
    }
    case "failed": {
      const x = exchangeAt(obs, hs.seq ?? hs.seqs?.[hs.seqs.length - 1]);
      return x ? { step: "handshake", exchange: x, clause: hs.cause, ...fb } : null;
    }
    default:
      return null;
  }
}

/** architecture.md §2.6 (0.15.0): the HTTP answer that refused a server probed without the headers its registry entry
 * lists; null when it was not refused (it answered, was gated, or gave no HTTP answer) or needs no headers. */
export function configRefusal(obs: ProbeObservation): Refused | null {
  if (!obs.configHeaders?.length || obs.blocked) return null;
  const hs = obs.handshake;
  if (!hs) return null;
  const atHandshake = handshakeRefusal(obs, hs);
  if (atHandshake) return atHandshake;
  const t = obs.toolsList;
  if (t?.kind !== "failed") return null;
  const seqs = [...t.seqs, ...(t.lateRetry?.seqs ?? [])];
  const x = exchangeAt(obs, seqs.length ? Math.max(...seqs) : undefined);
  return x ? { step: "tools_list", exchange: x, clause: t.cause } : null;
}

/** True when the body is a well-formed JSON-RPC error: `jsonrpc`, an integer `code` and a string `message`. */
function isJsonRpcError(text: string): boolean {
  try {
    const v = JSON.parse(text) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null;
    return v?.jsonrpc === "2.0" && Number.isInteger(v.error?.code) && typeof v.error?.message === "string";
  } catch {
    return false;
  }
}

/** How a client could read a refusal: a JSON-RPC error (any status), a bare 401 or 403 (body aside), or neither. */
export function refusalShape(x: Exchange & { status: number }): ReachRefusalShape {
  if (isJsonRpcError((x.sseAnswer ?? x.bodyExcerpt ?? "").trim())) return "jsonrpc_error";
  return x.status === 401 || x.status === 403 ? "bare_status" : "malformed";
}

function handshakeCompleted(hs: HandshakeOutcome | undefined): boolean {
  return hs?.kind === "modern" || hs?.kind === "legacy" || hs?.kind === "sse" || hs?.kind === "discovered_newer";
}

/** What this probe found of the server's reach (architecture.md §4 `configuration.reach`). */
export function reachOf(obs: ProbeObservation): ReachFacts | null {
  const needed = (obs.configHeaders?.length ?? 0) > 0;
  if (obs.blocked) {
    if (obs.blocked.kind === "needs_config") return { reach: "no_address", refusal: null };
    return needed ? null : { reach: "not_needed", refusal: null };
  }
  if (!needed) return { reach: "not_needed", refusal: null };
  if (obs.handshake?.kind === "credential_gate" || obs.toolsList?.kind === "credential_gate") return { reach: "gated", refusal: null };
  const refused = configRefusal(obs);
  if (refused) return { reach: "refused", refusal: { status: refused.exchange.status, shape: refusalShape(refused.exchange) } };
  if (handshakeCompleted(obs.handshake)) return { reach: "answered", refusal: null };
  if (!obs.handshake || obs.handshake.kind === "slow_down" || obs.slowDown) return null;
  return { reach: "unreachable", refusal: null };
}

const DISCOVERY = DISCOVERY_CHECKS as readonly CheckId[];

/**
 * The judged results with the reach rule applied (architecture.md §2.6, 0.15.0): a refusal without the listed headers makes
 * the checks it stopped Not checked `needs_configuration`, naming the headers and the answer; a server that answered
 * anyway gets that fact in its handshake reason. Everything else stays as judged.
 */
export function withReach(obs: ProbeObservation, results: CheckResult[]): CheckResult[] {
  const headers = obs.configHeaders;
  if (!headers?.length || obs.blocked) return results;
  const names = headerList(headers);
  const refused = configRefusal(obs);
  if (!refused) {
    if (!handshakeCompleted(obs.handshake) || obs.toolsList?.kind === "credential_gate") return results;
    return results.map((r) =>
      r.check === "handshake" && r.state === "verified"
        ? { ...r, reason: sentence(r.reason.replace(/\.$/, ""), `it answered without ${names} the registry lists as required`) }
        : r,
    );
  }
  const { status } = refused.exchange;
  const shape = refusalShape(refused.exchange);
  const reason = sentence(
    `Refused with HTTP ${status} without ${names} the registry lists as required`,
    refused.fallbackCause && `${refused.fallbackCause}; fell back to initialize`,
    refused.clause,
    "a client needs its user's key to connect, so this is not a fault",
  );
  const unreadable: Hint | undefined = shape === "malformed" ? { code: "unreadable_refusal", headers, status } : undefined;
  const stopped = (r: CheckResult) => (refused.step === "handshake" ? true : r.check !== "handshake" && r.check !== "protocol_version");
  return results.map((r): CheckResult => {
    if (r.check === "error_taxonomy" && r.notCheckedCause === "withheld")
      return { ...r, reason: sentence(`the reserved-tool call was withheld because the server refused the probe without ${names}`) };
    if (!stopped(r) || r.state === "verified" || (r.state === "not_checked" && !DISCOVERY.includes(r.check))) return r;
    const discovery = DISCOVERY.includes(r.check);
    const hint = discovery ? (r.hint ?? unreadable) : undefined;
    return {
      check: r.check,
      state: "not_checked",
      reason,
      evidence: discovery ? r.evidence : [refused.exchange.seq],
      notCheckedCause: "needs_configuration",
      ...(r.code ? { code: "withheld" as const } : {}),
      ...(hint ? { hint } : {}),
    };
  });
}
