import type { CrossReadRow } from "../store/cross-reads";
import type { CrossReadExplanation } from "../vocabulary/store";
import { MODERN_REVISION } from "../probe/protocol";
import { counted, WORDS } from "./plural";

// The server page's one sentence about its latest cross-read (architecture.md §6), written from the stored outcome and
// explanation codes, never from another sentence.

const READER = "An initialize-first reader";

/** Why the probe did not read what the legacy reader read, as the clause after "; ". */
export function explanationClause(rule: CrossReadExplanation, code: number | null): string {
  switch (rule) {
    case "modern_declined":
      return `modern clients fail here because server/discover was declined${code !== null ? ` with ${code}` : ""}`;
    case "discover_server_error":
      return `modern clients fail here because server/discover answered ${code !== null ? `HTTP ${code}` : "a 5xx"}`;
    case "discover_redirect":
      return `modern clients stop here because server/discover answered ${code !== null ? `HTTP ${code}` : "a redirect"}, a redirect the probe does not follow`;
    case "newer_revisions_only":
      return `clients of ${MODERN_REVISION} fail here because server/discover offered only newer revisions`;
    case "slow_down":
      return "the probe did not read it because the server asked it to slow down";
    case "opted_out":
      return "the probe sends it nothing because its host asked not to be probed";
    case "initialize_refused":
      return `clients that start with initialize cannot connect here: the server answers initialize with ${code !== null ? (code < 0 ? code : `HTTP ${code}`) : "a refusal"}`;
  }
}

const paths = (p: string[]) => (p.length <= 3 ? p.join(", ") : `${p.slice(0, 3).join(", ")} and ${p.length - 3} more`);

/** "An initialize-first reader read 3 tools on 2026-12-01; modern clients fail here because server/discover answered HTTP 500." */
export function crossReadSentence(
  r: Pick<CrossReadRow, "outcome" | "explanation" | "explanationCode" | "crossToolCount" | "probeToolCount" | "paths"> & {
    day: string;
  },
): string {
  const tools = r.crossToolCount !== null ? counted(r.crossToolCount, WORDS.tool) : "the tool list";
  const why = r.explanation ? `; ${explanationClause(r.explanation, r.explanationCode)}` : "";
  switch (r.outcome) {
    case "only_cross_reader":
      return r.explanation
        ? `${READER} read ${tools} on ${r.day}${why}.`
        : `${READER} read ${tools} on ${r.day} that the probe could not read, and no rule of the probe explains the difference: a possible blind spot of the probe.`;
    case "disagreed":
      return `${READER} read ${tools} on ${r.day}, a list that differs from the probe's latest complete read at ${counted(r.paths.length, WORDS.fieldPath)} (${paths(r.paths)})${why}.`;
    case "agreed":
      return `${READER} read the same ${tools} as the probe on ${r.day}.`;
    // The reader's raw error (an SDK message, a JSON-RPC body) stays in the JSON's detail: the sentence tops a server page,
    // where it would be the first thing a reader sees (architecture.md §2.10).
    case "only_probe":
      if (r.explanation === "initialize_refused") return `${READER} could not connect on ${r.day}${why}; discover-first clients read it.`;
      return `${READER} could not read the tool list on ${r.day}; the probe's latest complete read stands alone.`;
    case "neither":
      if (r.explanation === "initialize_refused")
        return `Neither the probe nor an initialize-first reader could read the tool list on ${r.day}${why}.`;
      return `Neither the probe nor an initialize-first reader could read the tool list on ${r.day}.`;
  }
}
