import { CHECK_IDS, DISCOVERY_CHECKS, type CheckId, type CheckState } from "../checks/vocabulary";

// Stand-in for the one overall-state function lib/checks is getting (DESIGN §2), same shape: replace the import
// of this file with it at merge and delete this file.

export interface OverallInput {
  check: CheckId;
  state: CheckState | null | undefined;
  reason?: string;
}

export interface Overall {
  state: CheckState;
  /** The check that decided it; null when Verified. */
  check: CheckId | null;
  reason: string | null;
  /** The kind of Not checked (not known to this stand-in). */
  cause: string | null;
}

/** Failed if any check is; else Observed risk if any is; else Verified only when the handshake completed and the
 * tool list was read; else Not checked with its first Not checked discovery check. Null before the first probe. */
export function overallOf(results: readonly OverallInput[]): Overall | null {
  const byId = new Map(results.filter((r) => r.state).map((r) => [r.check, r]));
  if (byId.size === 0) return null;
  const decide = (r: OverallInput): Overall => ({ state: r.state!, check: r.check, reason: r.reason ?? null, cause: null });
  for (const worst of ["failed", "observed_risk"] as const) {
    const hit = CHECK_IDS.map((id) => byId.get(id)).find((r) => r?.state === worst);
    if (hit) return decide(hit);
  }
  if (byId.get("handshake")?.state === "verified" && byId.get("tools_list")?.state === "verified") {
    return { state: "verified", check: null, reason: null, cause: null };
  }
  const first = DISCOVERY_CHECKS.map((id) => byId.get(id)).find((r) => r?.state === "not_checked");
  if (first) return decide(first);
  return { state: "not_checked", check: DISCOVERY_CHECKS.find((id) => !byId.has(id)) ?? null, reason: null, cause: null };
}
