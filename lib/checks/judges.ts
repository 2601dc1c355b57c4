import type { HandshakeOutcome, ProbeObservation } from "../probe/types";
import {
  blockedCause,
  blockedReason,
  brokenChallengeReason,
  challengeWords,
  credentialReason,
  handshakeStop,
  type HandshakeStop,
  lateRetryWords,
  metadataProblemWords,
  phaseWords,
  sentence,
  slowDownReason,
} from "./reasons";
import type { CheckResult } from "./types";
import { MODERN_REVISION } from "../probe/protocol";
import type { CheckId, CheckState, NotCheckedCause } from "../vocabulary/checks";

const seqs = (evidence: number[]) => [...new Set(evidence)].sort((a, b) => a - b);

function result(check: CheckId, state: Exclude<CheckState, "not_checked">, reason: string, evidence: number[]): CheckResult {
  return { check, state, reason, evidence: seqs(evidence) };
}

/** A Not checked verdict always names its kind, so nothing downstream reads the kind back from the sentence. */
function notChecked(check: CheckId, cause: NotCheckedCause, reason: string, evidence: number[]): CheckResult {
  return { check, state: "not_checked", reason, evidence: seqs(evidence), notCheckedCause: cause };
}

function fromStop(check: CheckId, stop: HandshakeStop, evidence: number[]): CheckResult {
  if (stop.state === "not_checked") return notChecked(check, stop.cause, stop.reason, evidence);
  const r = result(check, "failed", stop.reason, evidence);
  return stop.noFallback ? { ...r, noFallback: stop.noFallback } : r;
}

function blocked(check: CheckId, obs: ProbeObservation): CheckResult | null {
  return obs.blocked ? notChecked(check, blockedCause(obs.blocked), blockedReason(obs.blocked), []) : null;
}

/** Nothing reached this step: the slow-down that stopped the probe, else the deadline, else `fallback`. */
function unreached(check: CheckId, obs: ProbeObservation, reason: string, evidence: number[]): CheckResult {
  if (obs.slowDown) return notChecked(check, "slow_down", slowDownReason(obs.slowDown), evidence);
  return notChecked(check, obs.deadlineHit ? "deadline" : "not_reached", reason, evidence);
}

function handshakeSeqs(hs: HandshakeOutcome | undefined): number[] {
  if (!hs) return [];
  if (hs.seqs) return hs.seqs;
  if (hs.kind === "slow_down") return [hs.slowDown.seq];
  if (hs.kind === "credential_gate") return [hs.challenge.seq];
  return "seq" in hs && typeof hs.seq === "number" ? [hs.seq] : [];
}

function toolsSeqs(obs: ProbeObservation): number[] {
  const t = obs.toolsList;
  if (!t) return [];
  if (t.kind === "credential_gate") return t.seqs ?? [t.challenge.seq];
  if ("seqs" in t) return t.seqs;
  if (t.kind === "slow_down") return [t.slowDown.seq];
  return [];
}

function deadlineWords(obs: ProbeObservation): string | undefined {
  return obs.deadlineHit ? "the probe's per-server deadline ran out" : undefined;
}

/** `handshake`: did server/discover or the one legacy fallback complete? */
export function judgeHandshake(obs: ProbeObservation): CheckResult {
  const id = "handshake";
  const b = blocked(id, obs);
  if (b) return b;
  const hs = obs.handshake;
  const ev = handshakeSeqs(hs);
  if (!hs) return unreached(id, obs, "The probe did not reach the handshake.", ev);
  switch (hs.kind) {
    case "modern":
      return result(
        id,
        "verified",
        sentence(
          `server/discover answered with a discover result listing ${hs.supportedVersions.join(", ")}; the ${MODERN_REVISION} handshake completed`,
        ),
        ev,
      );
    case "legacy":
      return result(
        id,
        "verified",
        sentence(
          hs.fallbackCause,
          "fell back to initialize",
          hs.common ? `${hs.protocolVersion} agreed` : `initialize completed but offered ${hs.protocolVersion}`,
        ),
        ev,
      );
    case "sse":
      return result(
        id,
        "verified",
        sentence(
          "the 2024-11-05 HTTP+SSE stream named its endpoint and answered initialize",
          hs.common ? `${hs.protocolVersion} agreed` : `it offered ${hs.protocolVersion}`,
        ),
        ev,
      );
    case "discovered_newer":
      return result(
        id,
        "verified",
        sentence(
          `server/discover answered with a discover result listing ${hs.supportedVersions.join(", ")}, so the handshake completed`,
          "no revision in it is one the probe speaks, and such a result is no reason to fall back to initialize",
        ),
        ev,
      );
    default:
      return fromStop(id, handshakeStop(hs, obs)!, ev);
  }
}

/** `protocol_version`: was a revision both sides speak agreed? */
export function judgeProtocolVersion(obs: ProbeObservation): CheckResult {
  const id = "protocol_version";
  const b = blocked(id, obs);
  if (b) return b;
  const hs = obs.handshake;
  const ev = handshakeSeqs(hs);
  if (hs?.kind === "modern") {
    return result(id, "verified", sentence(`${MODERN_REVISION} agreed; the server supports ${hs.supportedVersions.join(", ")}`), ev);
  }
  if ((hs?.kind === "legacy" || hs?.kind === "sse") && hs.common) {
    return result(id, "verified", sentence(`${hs.protocolVersion} agreed through initialize`), ev);
  }
  return fromStop(id, handshakeStop(hs, obs)!, ev);
}

/** `tools_list`: was the complete tool list read? */
export function judgeToolsList(obs: ProbeObservation): CheckResult {
  const id = "tools_list";
  const b = blocked(id, obs);
  if (b) return b;
  const stop = handshakeStop(obs.handshake, obs);
  if (stop) return fromStop(id, stop, handshakeSeqs(obs.handshake));
  const t = obs.toolsList;
  const ev = toolsSeqs(obs);
  if (!t) return unreached(id, obs, sentence("the tool list was not requested", deadlineWords(obs)), ev);
  switch (t.kind) {
    case "complete": {
      const read = `read ${t.tools.length} tool${t.tools.length === 1 ? "" : "s"} over ${t.pages} page${t.pages === 1 ? "" : "s"}`;
      if (t.malformed.length === 0) return result(id, "verified", sentence(read), ev);
      const shown = t.malformed.slice(0, 3).join(", ") + (t.malformed.length > 3 ? `, and ${t.malformed.length - 3} more` : "");
      return result(
        id,
        "observed_risk",
        sentence(
          read,
          `but ${t.malformed.length} problem${t.malformed.length === 1 ? "" : "s"} in the definitions would trip clients: ${shown}`,
        ),
        ev,
      );
    }
    case "endless":
      return result(
        id,
        "observed_risk",
        t.why === "cursor_loop"
          ? sentence(
              `pagination never ends: a nextCursor repeated after ${t.pages} page${t.pages === 1 ? "" : "s"} (${t.tools.length} tools read), so a client following it loops forever`,
            )
          : sentence(
              `pagination never ended: after ${t.pages} pages (${t.tools.length} tools) the server still returned a nextCursor, so the probe stopped at its page cap`,
            ),
        ev,
      );
    case "budget_exhausted": {
      const pending = t.pendingMs !== undefined ? `, the next one pending for ${t.pendingMs} ms` : ", a cursor to the next one pending";
      return notChecked(
        id,
        "deadline",
        sentence(
          `the probe's per-server deadline ran out while the server was still answering tools/list: ${t.pages} page${t.pages === 1 ? "" : "s"} (${t.tools.length} tool${t.tools.length === 1 ? "" : "s"}) came back in time${pending}`,
          "that is the probe's budget, not a fault of the server",
        ),
        ev,
      );
    }
    case "credential_gate":
      return notChecked(
        id,
        "credential_required",
        credentialReason(
          t.challenge.phase,
          t.challenge.status,
          t.challenge.challenges.map((c) => c.scheme),
          t.after,
        ),
        ev,
      );
    case "slow_down":
      return notChecked(id, "slow_down", slowDownReason(t.slowDown), ev);
    case "failed":
      return result(
        id,
        "failed",
        sentence(
          t.cause,
          t.pages > 0 && `after ${t.pages} page${t.pages === 1 ? "" : "s"} read`,
          t.lateRetry && lateRetryWords(t.lateRetry),
        ),
        ev,
      );
    case "not_attempted":
      return unreached(id, obs, sentence(`the tool list was not requested: ${t.why}`), ev);
  }
}

/** `error_taxonomy`: how the server refuses a call to a tool that does not exist. */
export function judgeErrorTaxonomy(obs: ProbeObservation): CheckResult {
  const id = "error_taxonomy";
  const b = blocked(id, obs);
  if (b) return b;
  const c = obs.toolCall;
  if (!c) {
    if (obs.slowDown) return notChecked(id, "slow_down", slowDownReason(obs.slowDown), [obs.slowDown.seq]);
    return notChecked(id, "withheld", "The reserved-tool call was not made.", []);
  }
  switch (c.kind) {
    case "withheld": {
      const ev = obs.toolsList && obs.toolsList.kind !== "not_attempted" ? toolsSeqs(obs) : handshakeSeqs(obs.handshake);
      if (obs.slowDown && c.cause === "slow_down")
        return notChecked(id, "slow_down", slowDownReason(obs.slowDown), [...ev, obs.slowDown.seq]);
      return notChecked(id, "withheld", sentence(`the reserved-tool call was withheld because ${c.why}`), ev);
    }
    case "slow_down":
      return notChecked(id, "slow_down", slowDownReason(c.slowDown), [c.slowDown.seq]);
    case "failed":
      if (obs.deadlineHit)
        return notChecked(
          id,
          "deadline",
          sentence(c.cause, "the probe's per-server deadline ran out before an answer"),
          c.seq ? [c.seq] : [],
        );
      return result(
        id,
        "observed_risk",
        sentence(`${c.cause}, so a client calling a tool that does not exist gets no refusal it can read`),
        c.seq ? [c.seq] : [],
      );
    case "answered": {
      const s = c.shape;
      const ev = [c.seq];
      switch (s.type) {
        case "jsonrpc_error": {
          const where = `HTTP ${c.status}${s.transport === "sse" ? " over SSE" : ""}`;
          const code =
            s.code === -32602
              ? "-32602, the code the spec prescribes"
              : `${s.code} (the spec prescribes -32602, but any well-formed error lets a client handle it)`;
          return result(
            id,
            "verified",
            sentence(`tools/call for a tool that does not exist got a well-formed JSON-RPC error ${code}, at ${where}`),
            ev,
          );
        }
        case "pre_dispatch_refusal":
          return result(
            id,
            "verified",
            sentence(`tools/call was refused with HTTP ${c.status} before dispatch, a legitimate refusal rather than a shape problem`),
            ev,
          );
        case "is_error_result":
          return result(
            id,
            "verified",
            sentence(
              `tools/call for a tool that does not exist got a result with isError: true at HTTP ${c.status}: the tool-error channel instead of -32602, which clients handle`,
            ),
            ev,
          );
        case "malformed":
          return result(
            id,
            "observed_risk",
            sentence(
              `tools/call for a tool that does not exist got ${s.description}, so a client cannot tell why it was refused or how to proceed`,
            ),
            ev,
          );
      }
    }
  }
}

/** `auth_metadata`: can a client discover how to authenticate from the challenge? */
export function judgeAuthMetadata(obs: ProbeObservation): CheckResult {
  const id = "auth_metadata";
  const b = blocked(id, obs);
  if (b) return b;
  const a = obs.authMetadata;
  if (!a) {
    if (obs.slowDown) return notChecked(id, "slow_down", slowDownReason(obs.slowDown), [obs.slowDown.seq]);
    return unreached(id, obs, sentence("the challenge was not followed", deadlineWords(obs) ?? "the probe stopped before this step"), []);
  }
  if (a.kind === "no_challenge")
    return notChecked(id, "no_challenge", "No credential challenge was presented, so there was no auth metadata to discover.", []);
  if (a.kind === "unparseable_challenge") return result(id, "observed_risk", brokenChallengeReason(a.broken), [a.broken.seq]);
  const ch = a.challenge;
  const from = `${phaseWords(ch.phase)} answered ${challengeWords(
    ch.status,
    ch.challenges.map((c) => c.scheme),
  )}`;
  const ev = "seq" in a && typeof a.seq === "number" ? [ch.seq, a.seq] : [ch.seq];
  switch (a.kind) {
    case "no_metadata_url":
      return notChecked(id, "no_metadata_url", sentence(`${from} but no resource_metadata URL, so there was no metadata to follow`), ev);
    case "opted_out_host":
      return notChecked(
        id,
        "opted_out",
        sentence(`${from} pointing at ${a.url}, but ${a.host} asked not to be probed (${a.reason}), so nothing was fetched`),
        ev,
      );
    case "address_refused":
      return notChecked(id, "address_policy", sentence(`${from} pointing at ${a.url}, which the probe does not fetch: ${a.detail}`), ev);
    case "invalid_url":
      return result(
        id,
        "observed_risk",
        sentence(`${from} whose resource_metadata (${a.url.slice(0, 120)}) is not an absolute http(s) URL, so a client cannot fetch it`),
        ev,
      );
    case "http_error":
      return result(
        id,
        "observed_risk",
        sentence(
          `${from}; its metadata URL ${a.url} answered HTTP ${a.status}${a.status >= 300 && a.status < 400 ? " (a redirect, not followed)" : ""}, so a client cannot discover how to authenticate`,
        ),
        ev,
      );
    case "not_json":
      return result(id, "observed_risk", sentence(`${from}; its metadata URL ${a.url} did not answer valid JSON`), ev);
    case "not_object":
      return result(
        id,
        "observed_risk",
        sentence(`${from}; its metadata URL ${a.url} answered a bare JSON ${a.jsonType} instead of an object`),
        ev,
      );
    case "unusable": {
      const problems = a.problems.map((p) => metadataProblemWords(p, obs.url)).join(", and ");
      return result(id, "observed_risk", sentence(`${from}; the metadata at ${a.url} is not usable: ${problems}`), ev);
    }
    case "scope_mismatch":
      return result(
        id,
        "observed_risk",
        sentence(
          `${from} asking for scope ${a.missing.join(" ")}, which the metadata at ${a.url} does not list in scopes_supported (${a.listed.join(" ") || "empty"})`,
        ),
        ev,
      );
    case "slow_down":
      return notChecked(id, "slow_down", slowDownReason(a.slowDown), [...ev, a.slowDown.seq]);
    case "failed":
      if (obs.deadlineHit)
        return notChecked(
          id,
          "deadline",
          sentence(`${from}; fetching ${a.url} was cut short because the probe's per-server deadline ran out`),
          ev,
        );
      return result(id, "observed_risk", sentence(`${from}; its metadata URL ${a.url} could not be read (${a.cause})`), ev);
    case "ok": {
      const as = `authorization server${a.authorizationServers.length === 1 ? "" : "s"} ${a.authorizationServers.join(", ")}`;
      return result(
        id,
        "verified",
        sentence(`${from}; its metadata at ${a.url} names resource ${a.resource}, which covers the server's URL, and ${as}`),
        ev,
      );
    }
  }
}
