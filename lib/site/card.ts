import { CHECK_IDS, type CheckId, type CheckState } from "../vocabulary/checks";
import type { CardFacts } from "../store/servers/detail";
import { formatUtc } from "./format";
import { CHECK_LABELS, STATE_LABELS } from "./labels";

// The link-preview card of a server page (OpenGraph and Twitter image): what it says, as data. The drawing
// lives in app/ (next/og); the card is cached per data version of the server.

export const CARD_SIZE = { width: 1200, height: 630 } as const;

export interface CardModel {
  name: string;
  title: string | null;
  overall: CheckState | null;
  overallLabel: string;
  checks: { id: CheckId; label: string; state: CheckState | null; stateLabel: string }[];
  /** "Last probe 2026-12-01 08:10 UTC", or that none happened yet. */
  probed: string;
  leftRegistry: boolean;
}

const stateText = (s: CheckState | null) => (s ? STATE_LABELS.en[s] : "Not probed yet");

export function cardModel(f: CardFacts): CardModel {
  return {
    name: f.name,
    title: f.title && f.title !== f.name ? f.title : null,
    // The stored overall state (architecture.md §2), as badges and the index show it.
    overall: f.overall,
    overallLabel: stateText(f.overall),
    checks: CHECK_IDS.map((id) => ({ id, label: CHECK_LABELS.en[id], state: f.states[id], stateLabel: stateText(f.states[id]) })),
    probed: f.lastProbedAt ? `Last probe ${formatUtc(f.lastProbedAt)}` : "Not probed yet",
    leftRegistry: f.leftRegistryAt !== null,
  };
}

/** The page's description for link previews: the overall state and the five checks in one line. */
export function cardDescription(m: CardModel): string {
  const checks = m.checks.map((c) => `${c.label} ${c.stateLabel}`).join(" · ");
  return `Overall ${m.overallLabel}. ${checks}. ${m.probed}; what an anonymous client sees, with reasons and evidence.`;
}
