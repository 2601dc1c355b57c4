import type { Blocked, HandshakeOutcome, ProbeObservation, SlowDown } from "../probe/types";
import { KNOWN_REVISIONS } from "../probe/protocol";

// Shared phrasing, so the same situation reads the same way under every check.

export function blockedReason(b: Blocked): string {
  switch (b.kind) {
    case "opted_out":
      return `${b.host} asked not to be probed (${b.reason}), so nothing was sent to it.`;
    case "address_policy":
      return `Not probed: ${b.detail}, and the probe does not contact private or loopback addresses; nothing was sent.`;
    case "needs_config":
      return `Not probed: the server needs configuration first (${b.detail}).`;
    case "invalid_url":
      return `Not probed: ${b.detail}.`;
  }
}

export function slowDownReason(sd: SlowDown): string {
  const ra = sd.retryAfterSeconds !== undefined ? ` with Retry-After ${sd.retryAfterSeconds} s` : "";
  return `Asked to slow down: ${phaseWords(sd.phase)} answered HTTP ${sd.status}${ra}, so nothing more was sent this round.`;
}

export function phaseWords(phase: SlowDown["phase"]): string {
  switch (phase) {
    case "discover":
      return "server/discover";
    case "initialize":
      return "initialize";
    case "initialized":
      return "notifications/initialized";
    case "tools_list":
      return "tools/list";
    case "tools_call":
      return "tools/call";
    case "auth_metadata":
      return "the auth metadata URL";
    case "sse_stream":
      return "the SSE stream";
    case "session_end":
      return "the session DELETE";
    case "robots":
      return "robots.txt";
  }
}

/** Joins clauses into one sentence ending with a full stop. */
export function sentence(...clauses: (string | undefined | false)[]): string {
  const s = clauses.filter((c): c is string => typeof c === "string" && c.length > 0).join("; ");
  // Method names keep their case ("server/discover answered …", "initialize …"); prose starts upper-case.
  const first = s.split(/[\s;,:]/, 1)[0] ?? "";
  const keep = first.includes("/") || first === "initialize" || !/^[a-z]+$/.test(first);
  const out = keep ? s : s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(out) ? out : `${out}.`;
}

export function challengeWords(status: number, schemes: string[]): string {
  const list = [...new Set(schemes)];
  if (list.length === 1) return `HTTP ${status} with a ${list[0]} challenge`;
  return `HTTP ${status} with ${list.slice(0, -1).join(", ")} and ${list[list.length - 1]} challenges`;
}

/** Why discovery stopped at the handshake, for the checks that depend on it; null when it did not. */
export function handshakeStop(hs: HandshakeOutcome | undefined, obs: ProbeObservation): { state: "failed" | "not_checked"; reason: string } | null {
  if (!hs) return { state: "not_checked", reason: obs.slowDown ? slowDownReason(obs.slowDown) : "The probe did not reach the handshake." };
  switch (hs.kind) {
    case "modern":
      return null;
    case "legacy":
    case "sse":
      return hs.common
        ? null
        : { state: "failed", reason: sentence(`No common protocol revision: the server offered ${hs.protocolVersion}, and the probe speaks ${KNOWN_REVISIONS.join(", ")}`) };
    case "declined":
      return { state: "failed", reason: declinedReason(hs) };
    case "slow_down":
      return { state: "not_checked", reason: slowDownReason(hs.slowDown) };
    case "credential_gate":
      return { state: "not_checked", reason: credentialReason(hs.challenge.phase, hs.challenge.status, hs.challenge.challenges.map((c) => c.scheme), hs.fallbackCause) };
    case "refused_no_challenge":
      return { state: "failed", reason: refusedReason(hs) };
    case "failed":
      return { state: "failed", reason: failedReason(hs) };
  }
}

export function declinedReason(hs: Extract<HandshakeOutcome, { kind: "declined" }>): string {
  const msg = hs.message ? ` ("${hs.message.slice(0, 160)}")` : "";
  const sup = hs.supported?.length ? `, naming ${hs.supported.join(", ")} as supported` : "";
  return sentence(
    `${hs.method ?? "server/discover"} was declined with ${hs.code}${msg} at HTTP ${hs.status}${sup}`,
    "the 2026-07-28 handshake reached the server and was refused on purpose, so the probe does not fall back to initialize",
  );
}

export function credentialReason(phase: SlowDown["phase"], status: number, schemes: string[], fallbackCause?: string): string {
  const after = fallbackCause ? ` after ${fallbackCause} and the probe fell back` : "";
  return sentence(
    `Credential required: ${phaseWords(phase)} answered ${challengeWords(status, schemes)}${after}`,
    "discovery sits behind authentication, which is expected and not a fault",
  );
}

function refusedReason(hs: Extract<HandshakeOutcome, { kind: "refused_no_challenge" }>): string {
  const what = hs.header ? `a WWW-Authenticate header that does not parse (${hs.header.slice(0, 80)})` : "no WWW-Authenticate challenge";
  return sentence(
    hs.fallbackCause && `${hs.fallbackCause}; fell back to initialize`,
    `initialize was refused with HTTP ${hs.status} and ${what}, so a client is refused with no instructions`,
  );
}

function failedReason(hs: Extract<HandshakeOutcome, { kind: "failed" }>): string {
  return sentence(hs.fallbackCause && `${hs.fallbackCause}; fell back to initialize`, hs.cause);
}
