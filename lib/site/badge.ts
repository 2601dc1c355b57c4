import { makeBadge } from "badge-maker";
import { CHECK_LABELS, STATE_LABELS } from "./labels";
import { type CheckId, type CheckState } from "../vocabulary/checks";
import type { ApiShape } from "../api/schemas";

export const BADGE_COLORS: Record<CheckState | "unknown", string> = {
  verified: "#2e7d32",
  failed: "#c62828",
  observed_risk: "#b26a00",
  not_checked: "#6e6e6e",
  unknown: "#9e9e9e",
};

export const BADGE_CACHE_CONTROL = "public, max-age=300, s-maxage=300, stale-while-revalidate=600";
export const BADGE_CACHE_SECONDS = 300;

export interface BadgeSpec {
  label: string;
  message: string;
  color: string;
}

/** What a badge says. `state` null means the server is known but not probed yet; `known` false means no such server. */
export function badgeSpec(opts: { known: boolean; state: CheckState | null; check?: CheckId; leftRegistry?: boolean }): BadgeSpec {
  const label = opts.check ? `MCP ${CHECK_LABELS.en[opts.check].toLowerCase()}` : "MCP status";
  if (!opts.known) return { label, message: "unknown", color: BADGE_COLORS.unknown };
  if (!opts.state) return { label, message: "not probed yet", color: BADGE_COLORS.unknown };
  const message = STATE_LABELS.en[opts.state].toLowerCase() + (opts.leftRegistry ? " (left registry)" : "");
  return { label, message, color: BADGE_COLORS[opts.state] };
}

/** badge-maker escapes label and message as XML text. */
export function badgeSvg(spec: BadgeSpec): string {
  return makeBadge({ label: spec.label, message: spec.message, color: spec.color, style: "flat" });
}

/** The shields.io endpoint schema: https://shields.io/badges/endpoint-badge */
export function shieldsEndpoint(spec: BadgeSpec): ApiShape<"ShieldsAnswer"> {
  return {
    schemaVersion: 1,
    label: spec.label,
    message: spec.message,
    color: spec.color.replace(/^#/, ""),
    cacheSeconds: BADGE_CACHE_SECONDS,
  };
}
