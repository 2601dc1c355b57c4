import { afterEach, expect, test } from "vitest";
import { recordServerDay, type DayRollupInput } from "@/lib/store/history";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { listedServer } from "../store/listed";
import { tempDb } from "../store/helpers";

// recordServerDay is one prepared upsert reused for every server of a round: each call must fold its own values
// into the day, whatever the calls before it bound.

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

test("a day folds its runs: worst state, sums and counts, the largest handshake, uptime", () => {
  const t = tempDb();
  cleanups.push(t.cleanup);
  applyRegistrySnapshot(
    t.db,
    [listedServer("t/a", "https://a.example/mcp"), listedServer("t/b", "https://b.example/mcp")],
    "2026-11-01T00:00:00.000Z",
  );
  const id = (name: string) => (t.db.$client.prepare("select id from servers where name = ?").get(name) as { id: number }).id;
  const run = (serverId: number, runId: number, over: Partial<DayRollupInput>) =>
    recordServerDay(t.db, {
      serverId,
      day: "2026-11-02",
      state: "verified",
      runId,
      handshakeMs: null,
      toolsListMs: null,
      uptime: "up",
      ...over,
    });

  run(id("t/a"), 1, { handshakeMs: 300, toolsListMs: 40 });
  run(id("t/b"), 2, { state: "failed", uptime: "down" });
  run(id("t/a"), 3, { state: "not_checked", handshakeMs: null, uptime: "left_out" });
  run(id("t/a"), 4, { state: "verified", handshakeMs: 100, toolsListMs: 20, uptime: "down" });
  run(id("t/b"), 5, { state: "verified", handshakeMs: 50 });

  const rows = t.db.$client
    .prepare(
      `select s.name, d.state, d.probes, d.last_run_id as lastRunId, d.handshake_ms_sum as hsSum, d.handshake_ms_count as hsCount,
              d.handshake_ms_max as hsMax, d.tools_list_ms_sum as tlSum, d.tools_list_ms_count as tlCount,
              d.uptime_reached as reached, d.uptime_up as up
         from server_days d join servers s on s.id = d.server_id order by s.name`,
    )
    .all();
  expect(rows).toEqual([
    {
      name: "t/a",
      state: "not_checked",
      probes: 3,
      lastRunId: 4,
      hsSum: 400,
      hsCount: 2,
      hsMax: 300,
      tlSum: 60,
      tlCount: 2,
      reached: 2,
      up: 1,
    },
    { name: "t/b", state: "failed", probes: 2, lastRunId: 5, hsSum: 50, hsCount: 1, hsMax: 50, tlSum: 0, tlCount: 0, reached: 2, up: 1 },
  ]);
});
