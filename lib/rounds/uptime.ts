import type { CheckResult } from "../checks/types";
import { DISCOVERY_CHECKS, type CheckId } from "../vocabulary/checks";
import type { ProbeObservation } from "../probe/types";
import type { UptimeOutcome } from "../vocabulary/store";
import { configRefusal } from "../checks/reach";

// Uptime and incidents (architecture.md §4) as the round decides them from one probe. Pure: persist.ts writes what
// these return in the run's own transaction.

/** How a probe counts for uptime: up when the handshake completed or met a credential gate, or when a server probed
 * without the headers its registry entry lists refused at the HTTP level (architecture.md §2.6, 0.15.0); down when the
 * server was tried and the handshake did not complete; left out when nothing reached the server on its own
 * account (opted out, needs configuration, the probe's own network, a slow-down before the handshake ended). */
export function uptimeOutcome(obs: ProbeObservation): UptimeOutcome {
  if (obs.blocked) return "left_out";
  const hs = obs.handshake;
  if (!hs) return "left_out";
  switch (hs.kind) {
    case "modern":
    case "legacy":
    case "sse":
    case "discovered_newer":
    case "credential_gate":
      return "up";
    case "slow_down":
      return "left_out";
    case "declined":
    case "refused_no_challenge":
    case "failed":
      return configRefusal(obs) ? "up" : "down";
  }
}

export type IncidentStep = { kind: "open"; check: CheckId; reason: string } | { kind: "close" } | null;

/** Whether this run opens or closes the server's incident. One opens when a discovery check is Failed and none
 * is open; it closes at the first run that reached the server (up) with no discovery check Failed. Runs left
 * out of uptime say nothing about recovery, so they neither open nor close one. */
export function incidentStep(results: readonly CheckResult[], outcome: UptimeOutcome, hasOpen: boolean): IncidentStep {
  const failed = DISCOVERY_CHECKS.map((id) => results.find((r) => r.check === id)).find((r) => r?.state === "failed");
  if (failed) return hasOpen ? null : { kind: "open", check: failed.check, reason: failed.reason };
  return hasOpen && outcome === "up" ? { kind: "close" } : null;
}
