import type { Blocked, BrokenChallenge, HandshakeOutcome, MetadataProblem, ProbeObservation, SlowDown } from "../probe/types";
import { LEGACY_REVISIONS, MODERN_REVISION } from "../probe/protocol";
import type { CheckResult } from "./types";
import type { NotCheckedCause } from "../vocabulary/checks";

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
    case "probe_network":
      return sentence(
        `Not checked: the probe's own network was failing (${b.detail})`,
        "this says nothing about the server, which is probed again next round",
      );
  }
}

/** The kind of "not checked" a block is, for every check it stops. */
export function blockedCause(b: Blocked): NotCheckedCause {
  switch (b.kind) {
    case "opted_out":
      return "opted_out";
    case "address_policy":
      return "address_policy";
    case "needs_config":
      return "needs_configuration";
    case "invalid_url":
      return "invalid_url";
    case "probe_network":
      return "probe_network";
  }
}

export function slowDownReason(sd: SlowDown): string {
  const wait = sd.retryAfterSeconds;
  // A -32023 (draft SEP-3304) says it in the body; its wait may come from data.retryAfterMs alone.
  const what =
    sd.code !== undefined
      ? ` with JSON-RPC error ${sd.code} (rate limited)${wait !== undefined ? `, asking for a pause of ${wait} s` : ""}`
      : wait !== undefined
        ? ` with Retry-After ${wait} s`
        : "";
  return `Asked to slow down: ${phaseWords(sd.phase)} answered HTTP ${sd.status}${what}, so nothing more was sent this round.`;
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
    case "claim_proof":
      return "the claim's proof file";
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

/** Why discovery stopped at the handshake, for the checks that depend on it. */
export type HandshakeStop =
  | { state: "failed"; reason: string; noFallback?: CheckResult["noFallback"] }
  | { state: "not_checked"; reason: string; cause: NotCheckedCause };

/** Why discovery stopped at the handshake, for the checks that depend on it; null when it did not. */
export function handshakeStop(hs: HandshakeOutcome | undefined, obs: ProbeObservation): HandshakeStop | null {
  if (!hs) {
    return obs.slowDown
      ? { state: "not_checked", reason: slowDownReason(obs.slowDown), cause: "slow_down" }
      : { state: "not_checked", reason: "The probe did not reach the handshake.", cause: "not_reached" };
  }
  switch (hs.kind) {
    case "modern":
      return null;
    case "legacy":
    case "sse":
      return hs.common ? null : { state: "failed", reason: noCommonThroughInitialize(hs.protocolVersion) };
    case "discovered_newer":
      return {
        state: "failed",
        reason: sentence(
          `No common protocol revision: server/discover offered only ${hs.supportedVersions.join(", ")}, all newer than ${MODERN_REVISION}, the newest revision the probe speaks`,
        ),
        noFallback: { rule: "newer_revisions_only", code: null },
      };
    case "declined":
      return { state: "failed", reason: declinedReason(hs), noFallback: { rule: "modern_declined", code: hs.code } };
    case "slow_down":
      return { state: "not_checked", reason: slowDownReason(hs.slowDown), cause: "slow_down" };
    case "credential_gate":
      return {
        state: "not_checked",
        reason: credentialReason(
          hs.challenge.phase,
          hs.challenge.status,
          hs.challenge.challenges.map((c) => c.scheme),
          hs.fallbackCause,
        ),
        cause: "credential_required",
      };
    case "refused_no_challenge":
      return { state: "failed", reason: refusedReason(hs) };
    case "failed": {
      const noFallback = discoverStatusRule(hs, obs);
      return noFallback
        ? { state: "failed", reason: failedReason(hs, obs), noFallback }
        : { state: "failed", reason: failedReason(hs, obs) };
    }
  }
}

/** A discover answer that ended discovery without a fallback: a redirect (never followed) or a 5xx (architecture.md §2.1.7). */
function discoverStatusRule(
  hs: Extract<HandshakeOutcome, { kind: "failed" }>,
  obs: ProbeObservation,
): CheckResult["noFallback"] | undefined {
  if (hs.fallbackCause !== undefined || hs.seq === undefined) return undefined;
  const x = obs.exchanges.find((e) => e.seq === hs.seq);
  if (x?.phase !== "discover" || x.status === undefined) return undefined;
  if (x.status >= 500 && x.status < 600) return { rule: "discover_server_error", code: x.status };
  if (x.status >= 300 && x.status < 400) return { rule: "discover_redirect", code: x.status };
  return undefined;
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

/** The server's InitializeResult named a revision initialize cannot agree (architecture.md §2.1.8). */
function noCommonThroughInitialize(offered: string): string {
  const modern = offered >= MODERN_REVISION && /^\d{4}-\d{2}-\d{2}$/.test(offered);
  const note = modern ? `; ${offered} is agreed through server/discover, not initialize` : "";
  return sentence(
    `No common protocol revision: initialize answered with ${offered}, and the revisions initialize can agree are ${LEGACY_REVISIONS.join(", ")}${note}`,
  );
}

/** "a WWW-Authenticate header that is present but not a valid challenge (…)" or "no WWW-Authenticate header". */
export function brokenHeaderWords(header: { problem: string } | undefined): string {
  return header ? `a WWW-Authenticate header that is present but not a valid challenge (${header.problem})` : "no WWW-Authenticate header";
}

/** One clause for a refusal: "initialize was refused with HTTP 401 and no WWW-Authenticate header". */
export function refusalWords(hs: Extract<HandshakeOutcome, { kind: "refused_no_challenge" }>): string {
  return `${phaseWords(hs.phase)} was refused with HTTP ${hs.status} and ${brokenHeaderWords(hs.header)}`;
}

function refusedReason(hs: Extract<HandshakeOutcome, { kind: "refused_no_challenge" }>): string {
  return sentence(
    hs.fallbackCause && `${hs.fallbackCause}; fell back to initialize`,
    `${refusalWords(hs)}, so a client is refused with no instructions it can follow`,
  );
}

function failedReason(hs: Extract<HandshakeOutcome, { kind: "failed" }>, obs: ProbeObservation): string {
  return sentence(
    hs.fallbackCause && `${hs.fallbackCause}; fell back to initialize`,
    hs.cause,
    obs.secondProbe && twiceWords(hs.cause, obs.secondProbe),
  );
}

/** architecture.md §2.7: a failure at the network level is recorded only after a second probe, later in the round, failed too. */
function twiceWords(cause: string, second: NonNullable<ProbeObservation["secondProbe"]>): string {
  const after = second.afterMs >= 10_000 ? `${Math.round(second.afterMs / 1000)} s` : `${(second.afterMs / 1000).toFixed(1)} s`;
  return second.firstCause === cause
    ? `it failed twice: a second probe ${after} after the first, in the same round, failed the same way`
    : `it failed twice: a first probe ${after} earlier in the same round had failed too (${second.firstCause})`;
}

/** What became of the late fallback's initialize, as one clause (architecture.md §2.1.9). */
export function lateRetryWords(retry: HandshakeOutcome): string {
  switch (retry.kind) {
    case "refused_no_challenge":
      return `the one retry failed: ${refusalWords(retry)}`;
    case "legacy":
    case "sse":
      return `the one retry failed: initialize answered with ${retry.protocolVersion}, which initialize cannot agree`;
    case "declined":
      return `the one retry failed: initialize was declined with ${retry.code} at HTTP ${retry.status}`;
    case "failed":
      return `the one retry failed: ${retry.cause}`;
    default:
      return "the one retry with initialize did not complete";
  }
}

/** The unparseable WWW-Authenticate behind auth_metadata (architecture.md §2.4, suite 0.12.0). */
export function brokenChallengeReason(b: BrokenChallenge): string {
  return sentence(
    `${phaseWords(b.phase)} answered HTTP ${b.status} with ${brokenHeaderWords(b)}, and no valid challenge was seen anywhere in the probe`,
    "a client cannot parse how it is asked to authenticate",
  );
}

/** One clause per reason the metadata object is unusable. */
export function metadataProblemWords(p: MetadataProblem, serverUrl: string): string {
  switch (p.kind) {
    case "no_resource":
      return "it has no string resource, so it is not protected-resource metadata";
    case "resource_not_covering":
      if (p.why === "not_url") return `its resource ${p.resource.slice(0, 120)} is not a URL`;
      return p.why === "origin"
        ? `its resource ${p.resource.slice(0, 120)} is on another origin than ${serverUrl}`
        : `its resource ${p.resource.slice(0, 120)} is a path that ${serverUrl} does not start with`;
    case "no_authorization_servers":
      return "it names no authorization server (authorization_servers must list at least one)";
  }
}
