import type { NetworkErrorKind } from "../vocabulary/network";
import type { FailureFacts, RegionalNote } from "../vocabulary/regions";

// architecture.md §8: the regional note and a region's failure, worded once from the facts the quorum stored.

const NETWORK_WORDS: Record<NetworkErrorKind, string> = {
  dns_unavailable: "the DNS resolver did not answer",
  nxdomain: "the name was not found",
  refused: "connection refused",
  connect_timeout: "no connection could be made",
  tls: "the TLS handshake failed",
  reset: "the connection was reset",
};

export function failureWords(f: FailureFacts): string {
  switch (f.kind) {
    case "network":
      return NETWORK_WORDS[f.network];
    case "status":
      return `HTTP ${f.status}`;
    case "declined":
      return `declined with ${f.code}`;
    case "other":
      return "the handshake or tool list failed";
  }
}

/** "a", "a and b", "a, b and c". */
export function regionList(ids: readonly string[]): string {
  if (ids.length <= 1) return ids[0] ?? "";
  return `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}

const hhmm = (iso: string) => `${iso.slice(11, 16)} UTC`;

/** One sentence: who failed, when and how, and who read the server instead. */
export function regionalNoteSentence(note: RegionalNote): string {
  const failed = note.failed.map((f) => `${f.region} at ${hhmm(f.at)} (${failureWords(f.facts)})`);
  return `Failed from ${regionList(failed)} while ${regionList(note.readFrom)} read it; a failing minority of regions does not set the state.`;
}
