import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkResults, runs, servers } from "@/db/schema";
import { startDemoFleet, type RunningFleet } from "@/lib/demo/fleet";
import { createAddressPolicy } from "@/lib/probe";
import { runRound } from "@/lib/rounds/round";
import { addOptOut } from "@/lib/store/optouts";
import { tempDb } from "../store/helpers";

// The embedded default (no NATS_URL) is one region, `local`, probing in-process exactly as before the regions work: the
// demo fleet's states and reasons after one round are those recorded on main without it (default-path.golden.tsv, taken
// on main at 2cfa465 and again at 050b9da when the fleet gained two servers; ports, times and a timing-bound page count
// normalised; taken again for suite 0.15.0's reach rule, which probes the demo's secret-header server and adds the
// reach cases), and every run says it was the local region's.

const GOLDEN = path.join(path.dirname(new URL(import.meta.url).pathname), "default-path.golden.tsv");
const normalise = (r: string) =>
  r
    .replace(/127\.0\.0\.\d+:\d+/g, "HOST")
    .replace(/\d+(\.\d+)? ?ms\b/g, "N ms")
    .replace(/\d+(\.\d+)? s\b/g, "N s")
    .replace(/\d+ pages \(\d+ tools\)/g, "N pages (N tools)");

let fleet: RunningFleet;
let t: ReturnType<typeof tempDb>;

beforeAll(async () => {
  fleet = await startDemoFleet();
  t = tempDb();
  const clock = Date.parse("2026-11-29T12:00:00.000Z");
  for (const o of fleet.operatorOptOuts) addOptOut(t.db, { ...o, source: "operator", since: new Date(clock).toISOString() });
  const summary = await runRound({
    db: t.db,
    registryUrl: fleet.registry.url,
    registryOptions: { sleep: async () => undefined },
    concurrency: 16,
    addressPolicy: createAddressPolicy({ allowPrivate: true }),
    limits: { deadlineMs: 10_000 },
    now: () => new Date(clock),
    log: () => undefined,
    trigger: "test",
    ownNetwork: { secondProbeAfterMs: 0 },
  });
  expect(summary.status).toBe("done");
}, 120_000);

afterAll(async () => {
  await fleet?.close();
  t?.cleanup();
});

describe("the default path without NATS_URL", () => {
  test("gives the demo fleet exactly the states and reasons it had before the regions work", () => {
    const rows = t.db
      .select({ name: servers.name, check: checkResults.check, state: checkResults.state, reason: checkResults.reason })
      .from(checkResults)
      .innerJoin(servers, eq(servers.id, checkResults.serverId))
      .all();
    const now = rows.map((r) => `${r.name}\t${r.check}\t${r.state}\t${normalise(r.reason)}`).sort();
    const before = fs.readFileSync(GOLDEN, "utf8").trimEnd().split("\n");
    expect(now).toEqual(before);
  });

  test("records every run as the local region's primary, with no quorum and no regional runs", () => {
    const all = t.db
      .select({ region: runs.region, role: runs.role, verdict: runs.verdictRunId, quorum: runs.quorum, discovery: runs.discovery })
      .from(runs)
      .all();
    expect(all.length).toBeGreaterThan(100);
    expect(new Set(all.map((r) => JSON.stringify(r)))).toEqual(
      new Set([JSON.stringify({ region: "local", role: "primary", verdict: null, quorum: null, discovery: null })]),
    );
  });
});
