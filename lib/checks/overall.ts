import { CHECK_IDS, DISCOVERY_CHECKS, type CheckId, type CheckState, type NotCheckedCause } from "../vocabulary/checks";

// The overall state of a server (architecture.md §2): the page's headline, the badge, the index and JSON `overall` all come
// from this one function, so a server nobody could read is never shown as Verified.

/** One check's verdict as far as the overall state needs it; reason and cause only matter when it decides. */
export interface OverallInput {
  check: CheckId;
  state: CheckState | null | undefined;
  reason?: string;
  notCheckedCause?: NotCheckedCause | null;
}

export interface Overall {
  state: CheckState;
  /** The check that decided it: the first Failed, else the first Observed risk, else (Not checked) the first Not
   * checked discovery check; null when the server is Verified. */
  check: CheckId | null;
  /** That check's reason (null when Verified or when the input carried none). */
  reason: string | null;
  /** Not checked only: that check's kind of "not checked" (null for results stored before kinds were). */
  cause: NotCheckedCause | null;
}

/** Failed if any check is; else Observed risk if any is; else Verified only when the handshake completed and the
 * tool list was read; else Not checked with its first Not checked discovery check. Null before the first probe. */
export function overallOf(results: readonly OverallInput[]): Overall | null {
  const byId = new Map(results.filter((r) => r.state).map((r) => [r.check, r]));
  if (byId.size === 0) return null;
  const ordered = CHECK_IDS.map((id) => byId.get(id)).filter((r): r is OverallInput & { state: CheckState } => r !== undefined);
  const decide = (r: OverallInput & { state: CheckState }): Overall => ({
    state: r.state,
    check: r.check,
    reason: r.reason ?? null,
    cause: r.state === "not_checked" ? (r.notCheckedCause ?? null) : null,
  });
  for (const worst of ["failed", "observed_risk"] as const) {
    const hit = ordered.find((r) => r.state === worst);
    if (hit) return decide(hit);
  }
  if (byId.get("handshake")?.state === "verified" && byId.get("tools_list")?.state === "verified") {
    return { state: "verified", check: null, reason: null, cause: null };
  }
  const first = DISCOVERY_CHECKS.map((id) => byId.get(id)).find((r) => r?.state === "not_checked");
  if (first) return decide(first as OverallInput & { state: CheckState });
  // A discovery check never evaluated (a partial row): nothing was read, so not Verified either.
  return { state: "not_checked", check: DISCOVERY_CHECKS.find((id) => !byId.has(id)) ?? null, reason: null, cause: null };
}

/** The overall state of denormalised states keyed by check id (a server row, a badge lookup). */
export function overallState(states: Partial<Record<CheckId, CheckState | null | undefined>>): CheckState | null {
  return overallOf(CHECK_IDS.map((check) => ({ check, state: states[check] })))?.state ?? null;
}
