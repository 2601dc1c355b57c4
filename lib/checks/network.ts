import type { NetworkErrorKind } from "../vocabulary/network";
import type { ProbeObservation } from "../probe/types";

/** The network cause of a failed handshake, read from its deciding exchange; null when the server answered
 * (architecture.md §2.7). The round's own-network guard and each region's host share read it alike. */
export function networkFailureOf(obs: ProbeObservation): NetworkErrorKind | null {
  if (obs.blocked || obs.handshake?.kind !== "failed" || obs.handshake.seq === undefined) return null;
  const seq = obs.handshake.seq;
  return obs.exchanges.find((e) => e.seq === seq)?.network ?? null;
}
