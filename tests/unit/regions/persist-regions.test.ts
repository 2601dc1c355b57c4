import { describe, expect, test } from "vitest";
import { serverAnswer } from "@/app/api/_lib/handlers";
import { judge } from "@/lib/checks";
import { persistRun } from "@/lib/rounds/persist";
import { decideQuorum } from "@/lib/regions/quorum";
import { getServerDetail } from "@/lib/store/servers/detail";
import { down, healthy, setup, tool } from "../rounds/observations";

// What a round with regions writes (architecture.md §8), read back as /api/servers/<name> serves it.

const at = new Date("2026-12-01T14:05:00.000Z");
const refused = () => {
  const o = down(at);
  o.exchanges[0]!.network = "refused";
  return o;
};

describe("a round's regional reads, stored", () => {
  test("a failing minority: the state comes from a reader, every read is a run of its own, the JSON carries regions and the note", () => {
    const { db, id } = setup(["r/one"]);
    const reads = [
      { region: "b", role: "primary" as const, obs: refused(), results: judge(refused()) },
      { region: "a", role: "confirmation" as const, obs: healthy(at, [tool("t", "T")]), results: judge(healthy(at, [tool("t", "T")])) },
      { region: "c", role: "confirmation" as const, obs: healthy(at, [tool("t", "T")]), results: judge(healthy(at, [tool("t", "T")])) },
    ];
    const v = decideQuorum(reads);
    const r = persistRun(db, {
      serverId: id("r/one"),
      roundId: 7,
      obs: v.deciding.obs,
      results: v.results,
      skipped: false,
      now: at,
      regional: { region: v.deciding.region, role: v.deciding.role, quorum: v.quorum, others: reads.filter((x) => x !== v.deciding) },
    });
    expect(r.kind).toBe("read");
    const d = getServerDetail(db, "r/one")!;
    expect(d.checks.find((c) => c.check === "handshake")!.state).toBe("verified");
    // No back-off: the schedule follows the quorum's verdict.
    expect(d.schedule.consecutiveFailures).toBe(0);
    const json = JSON.parse(serverAnswer("r/one", db).body) as {
      regions: { region: string; role: string; deciding: boolean; states: Record<string, string> }[];
      quorum: { regions: string[]; failed: string[]; note: string };
      regionUptime: { region: string; up: number; reached: number }[];
      latestRun: { region: string; role: string };
    };
    expect(json.latestRun).toMatchObject({ region: "a", role: "confirmation" });
    expect(json.regions.map((x) => [x.region, x.role, x.deciding, x.states.handshake])).toEqual([
      ["a", "confirmation", true, "verified"],
      ["b", "primary", false, "failed"],
      ["c", "confirmation", false, "verified"],
    ]);
    expect(json.quorum).toEqual({
      regions: ["b", "a", "c"],
      failed: ["b"],
      note: "Failed from b at 14:05 UTC (connection refused) while a and c read it; a failing minority of regions does not set the state.",
    });
    expect(json.regionUptime).toEqual([
      expect.objectContaining({ region: "a", up: 1, reached: 1 }),
      expect.objectContaining({ region: "b", up: 0, reached: 1 }),
      expect.objectContaining({ region: "c", up: 1, reached: 1 }),
    ]);
  });

  test("a failing majority: Failed, the reason names the regions, and the back-off starts", () => {
    const { db, id } = setup(["r/three"]);
    const reads = [
      { region: "a", role: "primary" as const, obs: refused(), results: judge(refused()) },
      { region: "b", role: "confirmation" as const, obs: refused(), results: judge(refused()) },
      { region: "c", role: "confirmation" as const, obs: healthy(at, []), results: judge(healthy(at, [])) },
    ];
    const v = decideQuorum(reads);
    persistRun(db, {
      serverId: id("r/three"),
      roundId: 8,
      obs: v.deciding.obs,
      results: v.results,
      skipped: false,
      now: at,
      regional: { region: v.deciding.region, role: v.deciding.role, quorum: v.quorum, others: reads.filter((x) => x !== v.deciding) },
    });
    const d = getServerDetail(db, "r/three")!;
    const hs = d.checks.find((c) => c.check === "handshake")!;
    expect(hs.state).toBe("failed");
    expect(hs.reason).toMatch(/it failed from a and b \(2 of 3 regions\)\.$/);
    expect(d.schedule.consecutiveFailures).toBe(1);
    expect(Date.parse(d.schedule.nextDueAt!) - at.getTime()).toBeGreaterThanOrEqual(5 * 3_600_000);
  });

  test("without regions the JSON has one local read and no quorum", () => {
    const { db, id } = setup(["r/two"]);
    persistRun(db, { serverId: id("r/two"), roundId: 1, obs: healthy(at, []), results: judge(healthy(at, [])), skipped: false, now: at });
    const json = JSON.parse(serverAnswer("r/two", db).body) as { regions: { region: string; deciding: boolean }[]; quorum: unknown };
    expect(json.regions).toEqual([expect.objectContaining({ region: "local", role: "primary", deciding: true })]);
    expect(json.quorum).toBeNull();
  });
});
