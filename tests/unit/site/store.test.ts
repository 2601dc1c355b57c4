import { describe, expect, test } from "vitest";
import { alertState, coverageDays } from "@/lib/store/coverage";
import { countServers, revisionCensus } from "@/lib/store/servers/counts";
import { badgeStates } from "@/lib/store/servers/detail";
import { failingLongest } from "@/lib/store/servers/list";
import { completeReadCensus, refusalCounts } from "@/lib/store/runs";
import { toolChangeList } from "@/lib/store/tools";
import { tallyRefusals } from "@/lib/site/refusals";
import { SEED } from "../../e2e/seed";
import { seededDb } from "./seeded-db";

const seeded = seededDb("site-store-");

describe("site queries over the seeded fleet", () => {
  test("coverage days come oldest first, and the open alert is separate from resolved ones", () => {
    const days = coverageDays(seeded.db, 30);
    expect(days).toHaveLength(21);
    expect(days[0]!.day < days[20]!.day).toBe(true);
    const alerts = alertState(seeded.db);
    expect(alerts.open).toHaveLength(1);
    expect(alerts.resolved).toHaveLength(1);
  });

  test("failing longest puts never-read servers first and leaves out servers that left", () => {
    const rows = failingLongest(seeded.db, 50);
    expect(rows[0]!.name).toBe(SEED.allStates);
    expect(rows[0]!.lastSuccessAt).toBeNull();
    expect(rows[1]!.name).toBe(SEED.discover500);
    expect(rows[2]!.name).toBe(SEED.down);
    expect(rows.map((r) => r.name)).not.toContain(SEED.left);
    expect(rows.map((r) => r.name)).not.toContain(SEED.gated);
  });

  test("revision census counts servers still in the registry", () => {
    const rows = revisionCensus(seeded.db);
    const total = rows.reduce((n, r) => n + r.count, 0);
    expect(rows.map((r) => r.protocolVersion).sort()).toEqual(["2025-03-26", "2025-06-18", "2026-07-28"]);
    // 60 verified bulk servers, weather, quotes, the hostile one, the two healthy 0.13.0 ones (several remotes,
    // a certificate due), the long name, the 0.14.0 one with observations and the one read by regions a and c; the
    // retired server is not counted.
    expect(total).toBe(68);
    expect(countServers(seeded.db)).toEqual({ inRegistry: 134, left: 1 });
  });

  test("the complete-read census counts malformed but complete lists as read and endless ones as not", () => {
    const rows = completeReadCensus(seeded.db);
    const count = (complete: boolean, state?: string) =>
      rows.filter((r) => r.complete === complete && (state === undefined || r.toolsList === state)).reduce((n, r) => n + r.count, 0);
    // weather, quotes, the hostile one, two 0.13.0 ones, the long name, the poisoned one, the regional one and 52 bulk
    // servers; 8 bulk lists with a
    // duplicate name; the rest (the Invalid Host one among them) not read to the end.
    expect(count(true, "verified")).toBe(60);
    expect(count(true, "observed_risk")).toBe(8);
    expect(count(false)).toBe(65);
    expect(rows.some((r) => !r.complete && r.toolsList === "observed_risk")).toBe(true); // the cursor loop
    // Every listed server but the opted-out one, which was judged without a request and so never probed.
    expect(count(true) + count(false)).toBe(countServers(seeded.db).inRegistry - 1);
  });

  test("refusal shapes are tallied by their stored code, in vocabulary order", () => {
    const tally = tallyRefusals(refusalCounts(seeded.db));
    const kinds = new Map(tally.byCode);
    expect(kinds.get("is_error_result")).toBe(1);
    expect(kinds.get("malformed_empty")).toBe(20);
    expect(kinds.get("jsonrpc_invalid_params")).toBe(45);
    expect(tally.byCode.map(([c]) => c).indexOf("jsonrpc_invalid_params")).toBe(0);
    expect(tally.total).toBe(tally.byCode.reduce((n, [, c]) => n + c, 0));
    expect(tally.uncoded).toBe(0);
  });

  test("tool changes come newest first, for everyone or one server", () => {
    const all = toolChangeList(seeded.db);
    expect(all.total).toBe(3);
    expect(all.rows[0]!.at >= all.rows[2]!.at).toBe(true);
    expect(toolChangeList(seeded.db, { serverName: SEED.modern }).total).toBe(3);
    expect(toolChangeList(seeded.db, { serverName: SEED.legacy }).total).toBe(0);
  });

  test("badge states read one row; unknown names give null", () => {
    expect(badgeStates(seeded.db, SEED.allStates)?.states).toEqual({
      handshake: "verified",
      protocol_version: "failed",
      tools_list: "observed_risk",
      error_taxonomy: "not_checked",
      auth_metadata: "not_checked",
    });
    expect(badgeStates(seeded.db, "io.github.nobody/nothing")).toBeNull();
  });
});
