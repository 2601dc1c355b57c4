import { describe, expect, test } from "vitest";
import { overallOf, overallState, type OverallInput } from "@/lib/checks/overall";
import { CHECK_IDS, type CheckId, type CheckState, type NotCheckedCause } from "@/lib/vocabulary/checks";

// architecture.md §2's overall state, case by case: the rule is written out here, not read from the function.

const V = "verified",
  F = "failed",
  R = "observed_risk",
  N = "not_checked";
type Row = [
  handshake: CheckState,
  protocol_version: CheckState,
  tools_list: CheckState,
  error_taxonomy: CheckState,
  auth_metadata: CheckState,
];

function inputs(row: Row, causes: Partial<Record<CheckId, NotCheckedCause>> = {}): OverallInput[] {
  return CHECK_IDS.map((check, i) => ({
    check,
    state: row[i],
    reason: `${check} reason.`,
    notCheckedCause: row[i] === N ? (causes[check] ?? "withheld") : null,
  }));
}

describe("overall state (architecture.md §2)", () => {
  test.each([
    ["any Failed wins, even over a risk", [V, V, R, F, N], F, "error_taxonomy"],
    ["the first Failed check decides", [F, F, N, N, N], F, "handshake"],
    ["else any Observed risk", [V, V, V, R, N], R, "error_taxonomy"],
    ["Verified when handshake and tool list are, auth metadata unchecked", [V, V, V, V, N], V, null],
    ["Verified with a withheld call", [V, V, V, N, N], V, null],
    ["a credential gate whose metadata is fine is Not checked, never Verified", [N, N, N, N, V], N, "handshake"],
    ["a gate on the tool list: Not checked from the tool list", [V, V, N, N, V], N, "tools_list"],
    ["everything Not checked (an opt-out)", [N, N, N, N, N], N, "handshake"],
  ] as const)("%s", (_what, row, state, check) => {
    const o = overallOf(inputs(row as unknown as Row));
    expect(o?.state).toBe(state);
    expect(o?.check).toBe(check);
    expect(o?.reason).toBe(check ? `${check} reason.` : null);
    expect(overallState(Object.fromEntries(CHECK_IDS.map((id, i) => [id, row[i]])))).toBe(state);
  });

  test("Not checked carries the kind of its first Not checked discovery check", () => {
    const o = overallOf(inputs([V, V, N, N, V], { tools_list: "credential_required", error_taxonomy: "withheld" }));
    expect(o).toEqual({ state: N, check: "tools_list", reason: "tools_list reason.", cause: "credential_required" });
    expect(overallOf(inputs([N, N, N, N, N], { handshake: "opted_out" }))?.cause).toBe("opted_out");
  });

  test("no cause outside Not checked, and null before the first probe", () => {
    expect(overallOf(inputs([F, F, N, N, N], { tools_list: "not_reached" }))?.cause).toBeNull();
    expect(overallOf([])).toBeNull();
    expect(overallState({ handshake: null })).toBeNull();
  });
});
