import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { CHECK_IDS, CHECK_STATES } from "@/lib/vocabulary/checks";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startZooServer, type RunningZooServer } from "@/lib/demo/zoo";
import { METRICS } from "@/lib/metrics/families";
import { exposition } from "@/lib/metrics/registry";
import { storedFamilies } from "@/lib/metrics/stored";
import { createAddressPolicy } from "@/lib/probe";
import { siteStatus } from "@/lib/rounds/alerts/status";
import { runRound, startRound, type RoundDeps } from "@/lib/rounds/round";
import { acquireRoundLock } from "@/lib/store/rounds";
import { summaryCounts } from "@/lib/store/servers/counts";
import { PROBE_REQUEST_OUTCOMES } from "@/lib/vocabulary/store";
import { tempDb } from "../store/helpers";
import { parseExposition, sumOf, valueOf, type ParsedExposition } from "./exposition";

// Counters of events written by real rounds into a real SQLite file, and gauges read back from it: what any
// process serving /metrics reads.

const ZOO = [
  "modern-healthy-paged",
  "legacy-2025-06-18-stateless",
  "credential-gate-valid-prm",
  "slow-down-429-discover",
  "discover-500-stack-trace",
];
const zoo: RunningZooServer[] = [];
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;
let db: Db;
let clock = Date.parse("2026-11-29T12:00:00.000Z");
let probed = 0;

function deps(extra: Partial<RoundDeps> = {}): RoundDeps {
  return {
    db,
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    limits: { deadlineMs: 10_000 },
    robots: false,
    maxPauseWaitMs: 0,
    now: () => new Date(clock),
    log: () => undefined,
    trigger: "test",
    ...extra,
  };
}

const scrape = async (): Promise<ParsedExposition> => parseExposition(await exposition([storedFamilies(db, new Date(clock))]));

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  for (const name of ZOO) zoo.push(await startZooServer(name));
  registry = await startFixtureRegistry(
    ZOO.map((n, i) => entry(`io.github.metrics/${n}`, [{ type: "streamable-http", url: zoo[i]!.url }])),
  );
});

afterAll(async () => {
  await registry?.close();
  await Promise.all(zoo.map((z) => z.close()));
  t?.cleanup();
});

describe("stored metrics", () => {
  test("before any round: zero counters for every known label, no round timestamp, no median", async () => {
    const p = await scrape();
    for (const outcome of PROBE_REQUEST_OUTCOMES) expect(valueOf(p, METRICS.probeRequests.name, { outcome })).toBe(0);
    expect(valueOf(p, METRICS.roundsFinished.name, { status: "done" })).toBe(0);
    expect(valueOf(p, `${METRICS.roundDuration.name}_count`)).toBe(0);
    expect(p.samples.some((s) => s.name === METRICS.lastRoundFinished.name)).toBe(false);
    expect(p.samples.some((s) => s.name === METRICS.coverageMedian.name)).toBe(false);
    expect(valueOf(p, METRICS.coverageToday.name)).toBe(0);
  });

  test("a round counts itself, its servers by run kind and its requests by outcome, as the database recorded them", async () => {
    const summary = await runRound(deps());
    expect(summary.probed).toBe(ZOO.length);
    probed += summary.probed;
    const p = await scrape();
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "test" })).toBe(1);
    expect(valueOf(p, METRICS.roundsFinished.name, { status: "done" })).toBe(1);
    expect(valueOf(p, `${METRICS.roundDuration.name}_count`)).toBe(1);
    expect(valueOf(p, `${METRICS.roundDuration.name}_bucket`, { le: "+Inf" })).toBe(1);
    expect(valueOf(p, `${METRICS.roundDuration.name}_sum`)).toBeCloseTo(summary.durationMs / 1000, 2);
    // Every probed server lands in one run kind; the kinds match the round's own counters.
    expect(sumOf(p, METRICS.serversProbed.name)).toBe(summary.probed);
    expect(valueOf(p, METRICS.serversProbed.name, { kind: "read" })).toBe(summary.read);
    expect(valueOf(p, METRICS.serversProbed.name, { kind: "gated" })).toBe(summary.gated);
    expect(valueOf(p, METRICS.serversProbed.name, { kind: "slowed_down" })).toBe(summary.slowedDown);
    expect(valueOf(p, METRICS.serversProbed.name, { kind: "failed" })).toBe(summary.failed);
    // Requests by outcome add up to the requests the runs recorded, and their 2xx to the ones that succeeded.
    const runs = db.get<{ requests: number; ok: number }>(sql`select sum(requests) as requests, sum(requests_ok) as ok from runs`);
    expect(sumOf(p, METRICS.probeRequests.name)).toBe(runs.requests);
    expect(valueOf(p, METRICS.probeRequests.name, { outcome: "2xx" })).toBe(runs.ok);
    expect(valueOf(p, METRICS.probeRequests.name, { outcome: "4xx" })).toBeGreaterThan(0);
    expect(valueOf(p, METRICS.probeRequests.name, { outcome: "5xx" })).toBeGreaterThan(0);
  });

  test("gauges of stored data equal what /api/status and the census read", async () => {
    const p = await scrape();
    const status = siteStatus(db, new Date(clock));
    expect(valueOf(p, METRICS.coverageToday.name)).toBe(status.coverage.today);
    expect(status.coverage.today).toBeGreaterThan(0);
    expect(valueOf(p, METRICS.lastRoundFinished.name)).toBe(Date.parse(status.lastRoundFinishedAt!) / 1000);
    const counts = summaryCounts(db);
    expect(valueOf(p, METRICS.registryServers.name)).toBe(counts.servers);
    for (const check of CHECK_IDS) {
      for (const state of CHECK_STATES) expect(valueOf(p, METRICS.checkStates.name, { check, state })).toBe(counts.byCheck[check][state]);
    }
    for (const state of CHECK_STATES) expect(valueOf(p, METRICS.overallStates.name, { state })).toBe(counts.byOverall[state]);
    // One series per check and state: the registry's size never adds series.
    expect(p.samples.filter((s) => s.name === METRICS.checkStates.name)).toHaveLength(CHECK_IDS.length * CHECK_STATES.length);
  });

  test("check states are counted from the covering index alone, never by reading the table", () => {
    const cols = ["overall", ...CHECK_IDS.map((id) => `state_${id}`)].join(", ");
    const plan = db.$client
      .prepare(`explain query plan select ${cols}, count(*) from servers where left_registry_at is null group by ${cols}`)
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/USING COVERING INDEX servers_states_idx/);
  });

  test("a second round adds to the counters; a round taken over from a dead holder counts as abandoned", async () => {
    clock += 7 * 3_600_000;
    probed += (await runRound(deps({ trigger: "scheduler" }))).probed;
    // A holder that stops heartbeating: the next round takes its lock and records it abandoned.
    const dead = acquireRoundLock(db, { holder: "dead", trigger: "cli", now: new Date(clock), staleMs: 60_000 });
    expect(dead.acquired).toBe(true);
    clock += 10 * 60_000;
    const next = startRound(deps({ trigger: "api", serverIds: [] }));
    expect(next.started).toBe(true);
    if (next.started) await next.done;
    const p = await scrape();
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "test" })).toBe(1);
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "scheduler" })).toBe(1);
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "cli" })).toBe(1);
    expect(valueOf(p, METRICS.roundsStarted.name, { trigger: "api" })).toBe(1);
    expect(valueOf(p, METRICS.roundsFinished.name, { status: "done" })).toBe(3);
    expect(valueOf(p, METRICS.roundsFinished.name, { status: "abandoned" })).toBe(1);
    expect(valueOf(p, `${METRICS.roundDuration.name}_count`)).toBe(3);
    expect(sumOf(p, METRICS.serversProbed.name)).toBe(probed);
  });

  test("open alerts by kind follow the alerts table", async () => {
    db.run(
      sql`insert into alerts (day, kind, message, created_at) values ('2026-11-29', 'rounds_stale', 'no round finished', '2026-11-29T12:00:00.000Z')`,
    );
    const p = await scrape();
    expect(valueOf(p, METRICS.alertsOpen.name, { kind: "rounds_stale" })).toBe(1);
    expect(valueOf(p, METRICS.alertsOpen.name, { kind: "coverage_drop" })).toBe(0);
  });

  test("every family has HELP and TYPE, counters end in _total and names carry the site's prefix", async () => {
    const p = await scrape();
    for (const [name, type] of p.type) {
      expect(name.startsWith("mcp_status_")).toBe(true);
      expect(p.help.get(name)?.length ?? 0).toBeGreaterThan(10);
      expect(type === "counter").toBe(name.endsWith("_total"));
    }
  });

  test("the README's metric table names every metric the site exports", () => {
    const readme = fs.readFileSync("README.md", "utf8");
    for (const spec of Object.values(METRICS))
      expect(readme, spec.name).toMatch(new RegExp(`\\| \`${spec.name}(\\{[a-z,]+\\})?\` \\| ${spec.type} \\|`));
  });
});
