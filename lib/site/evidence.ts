import type { CheckId } from "../vocabulary/checks";
import type { Exchange } from "../probe/types";

// A server page shows every exchange once, in one evidence section; each check links to the ones it cites.

export interface CitingCheck {
  check: CheckId;
  runId: number;
  /** Exchange seqs in that run. */
  evidence: number[];
}

export interface EvidenceItem {
  /** Fragment id: `exchange-<seq>` for the latest run, `exchange-<run>-<seq>` for an older one. */
  anchor: string;
  exchange: Exchange;
  runId: number;
  citedBy: CheckId[];
  /** Start unfolded: few exchanges, or one that a check's verdict rests on last. */
  open: boolean;
}

export interface EvidenceModel {
  items: EvidenceItem[];
  /** Per check, the anchors of the exchanges it cites, in sequence order; missing ones were not kept. */
  cites: Map<CheckId, { seq: number; anchor: string | null }[]>;
}

export function exchangeAnchor(seq: number, runId: number, latestRunId: number | null): string {
  return runId === latestRunId ? `exchange-${seq}` : `exchange-${runId}-${seq}`;
}

/** Orders the latest run's exchanges first, then those of older runs a check still cites. */
export function evidenceModel(
  checks: CitingCheck[],
  latestRunId: number | null,
  exchangesOf: (runId: number) => Exchange[],
): EvidenceModel {
  const runIds = [...new Set([...(latestRunId !== null ? [latestRunId] : []), ...checks.map((c) => c.runId)])];
  const deciding = new Set(checks.filter((c) => c.evidence.length > 0).map((c) => `${c.runId}:${Math.max(...c.evidence)}`));
  const items: EvidenceItem[] = [];
  const byKey = new Map<string, EvidenceItem>();
  for (const runId of runIds) {
    const all = exchangesOf(runId);
    const cited = new Set(checks.filter((c) => c.runId === runId).flatMap((c) => c.evidence));
    // Older runs contribute only what a current verdict cites; the latest run shows everything it sent.
    const shown = runId === latestRunId ? all : all.filter((e) => cited.has(e.seq));
    for (const exchange of shown) {
      const item: EvidenceItem = {
        anchor: exchangeAnchor(exchange.seq, runId, latestRunId),
        exchange,
        runId,
        citedBy: [],
        open: shown.length <= 3 || deciding.has(`${runId}:${exchange.seq}`),
      };
      items.push(item);
      byKey.set(`${runId}:${exchange.seq}`, item);
    }
  }
  const cites = new Map<CheckId, { seq: number; anchor: string | null }[]>();
  for (const c of checks) {
    const list = [...c.evidence]
      .sort((a, b) => a - b)
      .map((seq) => {
        const item = byKey.get(`${c.runId}:${seq}`);
        if (item && !item.citedBy.includes(c.check)) item.citedBy.push(c.check);
        return { seq, anchor: item?.anchor ?? null };
      });
    cites.set(c.check, list);
  }
  return { items, cites };
}
