// architecture.md §8: how the regions that probed one server in a round vote. Pure: judged reads in, a verdict out.
// Failed only when most of the regions that read the server failed (2 of 3, 2 of 2); a failing minority is a
// regional note beside the state, never the state.
import type { CheckResult } from "../checks/types";
import { networkFailureOf } from "../checks/network";
import type { ProbeObservation } from "../probe/types";
import type { FailureFacts, QuorumFacts, RegionalNote, RunRole } from "../vocabulary/regions";

export type { FailureFacts, QuorumFacts, RegionalNote };

/** One region's probe of the server in this round, judged at the site. */
export interface RegionalRead {
  region: string;
  role: RunRole;
  obs: ProbeObservation;
  results: CheckResult[];
}

export interface QuorumVerdict {
  /** The read whose observation sets the state: the failing primary when the quorum failed it, else one that read it. */
  deciding: RegionalRead;
  /** The deciding read's results, with the failing regions named in the reasons of the failed discovery checks. */
  results: CheckResult[];
  quorum: QuorumFacts;
  /** Fewer than two regions voted: architecture.md §2.7 applies as it does for one vantage point. */
  singleVantage: boolean;
}

/** The failures a confirmation is sent for: the handshake or the tool list failed (at the network level or with an
 * HTTP error). A missing common revision is the server's answer, the same from everywhere. */
export function discoveryFailed(results: readonly CheckResult[]): boolean {
  return results.some((r) => (r.check === "handshake" || r.check === "tools_list") && r.state === "failed");
}

export function failureFacts(obs: ProbeObservation): FailureFacts {
  const network = networkFailureOf(obs);
  if (network) return { kind: "network", network };
  const hs = obs.handshake;
  if (hs?.kind === "declined") return { kind: "declined", code: hs.code };
  const seqs = hs?.kind === "failed" || !hs ? [] : [...(hs.seqs ?? [])];
  const tl = obs.toolsList;
  if (tl?.kind === "failed") seqs.push(...tl.seqs);
  if (hs?.kind === "failed" && hs.seq !== undefined) seqs.push(hs.seq);
  for (const q of seqs.reverse()) {
    const status = obs.exchanges.find((e) => e.seq === q)?.status;
    if (status !== undefined) return { kind: "status", status };
  }
  return { kind: "other" };
}

/** "a", "a and b", "a, b and c". */
export function regionList(ids: readonly string[]): string {
  if (ids.length <= 1) return ids[0] ?? "";
  return `${ids.slice(0, -1).join(", ")} and ${ids.at(-1)}`;
}

/**
 * The round's verdict over the reads that vote: those of the primary and the confirmations from regions that are up
 * (reads of a region that is down count for nothing and are not passed in). The primary comes first.
 */
export function decideQuorum(reads: readonly RegionalRead[]): QuorumVerdict {
  if (reads.length === 0) throw new Error("a quorum needs at least one read");
  const failing = reads.filter((r) => discoveryFailed(r.results));
  const quorum = (note: RegionalNote | null): QuorumFacts => ({
    regions: reads.map((r) => r.region),
    failed: failing.map((r) => r.region),
    note,
  });
  if (reads.length === 1) return { deciding: reads[0]!, results: reads[0]!.results, quorum: quorum(null), singleVantage: true };
  if (failing.length * 2 > reads.length) {
    const deciding = failing[0]!;
    const names = regionList(failing.map((r) => r.region));
    const tally = `${failing.length} of ${reads.length} regions`;
    const results = deciding.results.map((r) =>
      (r.check === "handshake" || r.check === "tools_list") && r.state === "failed"
        ? { ...r, reason: `${r.reason.replace(/\.$/, "")}; it failed from ${names} (${tally}).` }
        : r,
    );
    return { deciding, results, quorum: quorum(null), singleVantage: false };
  }
  const readers = reads.filter((r) => !failing.includes(r));
  const deciding = readers[0]!;
  const note: RegionalNote | null =
    failing.length === 0
      ? null
      : {
          failed: failing.map((r) => ({ region: r.region, at: r.obs.startedAt, facts: failureFacts(r.obs) })),
          readFrom: readers.map((r) => r.region),
        };
  return { deciding, results: deciding.results, quorum: quorum(note), singleVantage: false };
}
