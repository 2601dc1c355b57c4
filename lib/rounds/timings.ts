import type { Exchange, ExchangePhase, ProbeObservation } from "../probe/types";

// Response time as a client feels it: the probe sends one request at a time, so the wall time of a step
// is the sum of its exchanges. A step with no answered exchange (timeout, refused) has no response time.
const HANDSHAKE_PHASES: readonly ExchangePhase[] = ["discover", "initialize", "initialized"];

function stepMs(exchanges: Exchange[], phases: readonly ExchangePhase[]): number | null {
  const step = exchanges.filter((e) => phases.includes(e.phase));
  if (!step.some((e) => e.status !== undefined)) return null;
  return Math.round(step.reduce((n, e) => n + e.durationMs, 0));
}

export interface ProbeTimings {
  handshakeMs: number | null;
  toolsListMs: number | null;
}

export function probeTimings(obs: Pick<ProbeObservation, "exchanges" | "transportCheck" | "initializeFirst">): ProbeTimings {
  // The look at the other transport (architecture.md §2.8) and the initialize-first client's handshake (§2.10) come after
  // the verdicts; the response time is the one the verdicts' client felt.
  const other = new Set([...(obs.transportCheck?.seqs ?? []), ...(obs.initializeFirst?.seqs ?? [])]);
  const steps = other.size ? obs.exchanges.filter((e) => !other.has(e.seq)) : obs.exchanges;
  return { handshakeMs: stepMs(steps, HANDSHAKE_PHASES), toolsListMs: stepMs(steps, ["tools_list"]) };
}
