import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getServers, serverAnswer } from "@/app/api/_lib/handlers";
import type { Db } from "@/db/client";
import { entry, startFixtureRegistry, type FixtureEntry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startZooServer, ZOO_EXPECTATIONS, type RunningZooServer } from "@/lib/demo/zoo";
import { createAddressPolicy } from "@/lib/probe";
import { recordDailyCensus } from "@/lib/rounds/census";
import { runRound, type RoundDeps } from "@/lib/rounds/round";
import { authOutcomeOf, listCensusDays, rebuildCensusDay, runAuthFacts, type AuthFacts, type CensusDay } from "@/lib/store/census";
import { OBSERVATION_CODES } from "@/lib/vocabulary/checks";
import { addOptOut } from "@/lib/store/optouts";
import type { AuthOutcome } from "@/lib/vocabulary/store";
import { tempDb } from "../store/helpers";

// The daily census through the real write path: rounds over zoo servers listed by a fixture registry, into a real SQLite
// file, on three UTC days and one day without a round. Each row is compared with counts taken from the JSON API's answers
// for the same servers, and the rows rebuilt from stored runs with the rows the rounds wrote.

const PREFIX = "io.github.zoo/";
const NAMES = [
  "modern-healthy-paged",
  "legacy-2025-06-18-stateless",
  "dual-era",
  "http-sse-2024-11-05",
  "declined-32020-json",
  "slow-down-429-discover",
  "discover-500-stack-trace",
  "credential-gate-valid-prm",
  "auth-prm-404",
  "auth-challenge-without-resource-metadata",
  "modern-tools-list-gated",
  "late-fallback-then-initialize-401-challenge",
  "refusal-is-error-result",
  "refusal-html-page",
  "refusal-empty-body",
  "refusal-403-insufficient-scope-challenge",
  "refusal-403-broken-challenge",
  "pagination-cursor-loop",
  "legacy-no-common-version",
  "discover-only-newer-versions",
  "opted-out-host",
];
const SWITCHER = "io.github.x/switcher";
const NEWCOMER = "io.github.x/newcomer";
const LEAVER = "io.github.x/leaver";
const TEMPLATED = "io.github.x/templated";
const DAY_MS = 86_400_000;
const DAY_A = Date.parse("2026-11-01T06:00:00.000Z");
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const zoo = new Map<string, RunningZooServer>();
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;
let db: Db;
let clock = DAY_A;
const logs: string[] = [];
/** The rows the rounds wrote, and the API's counts right after each. */
const live = new Map<string, { row: CensusDay; api: ApiCounts }>();

function deps(): RoundDeps {
  return {
    db,
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    registryMaxAgeMs: 30 * 60_000,
    concurrency: 8,
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    limits: { deadlineMs: 10_000, maxBodyBytes: 1024 * 1024 },
    robots: false,
    now: () => new Date(clock),
    log: (l) => logs.push(l),
    trigger: "test",
  };
}

const url = (n: string) => zoo.get(n)!.url;
const zooEntry = (n: string) => entry(PREFIX + n, [{ type: ZOO_EXPECTATIONS[n]!.transport ?? "streamable-http", url: url(n) }]);

interface ApiRow {
  name: string;
  transport: string | null;
  era: string | null;
  protocolVersion: string | null;
  states: Record<string, string | null>;
  overall: string | null;
  overallCause: string | null;
  notCheckedCauses: Record<string, string | undefined>;
  needsConfig: string | null;
  clients: { initializeFirst: { state: string }; discoverFirst: { state: string } };
}

type ApiCounts = Pick<CensusDay, "registry" | "probed" | "needsConfiguration" | "revisions" | "eras" | "auth" | "overall"> & {
  transports: Record<string, number>;
  refusals: Record<string, number>;
  notCheckedCauses: Record<string, number>;
  observations: Record<string, number>;
  initializeFirst: Record<string, number>;
  discoverFirst: Record<string, number>;
};

const inc = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
/** Drops zero counts, so a row (every key of its vocabulary) and a tally (the keys seen) compare. */
const seen = (m: Record<string, number> | null) => (m === null ? null : Object.fromEntries(Object.entries(m).filter(([, n]) => n > 0)));

/** The census counted again from the JSON API: every listed server's row of GET /api/servers, and the error_taxonomy code
 * of GET /api/servers/<name>. The auth outcome is stated here in its own words. */
async function countsFromApi(): Promise<ApiCounts> {
  const rows: ApiRow[] = [];
  for (let page = 1; ; page++) {
    const body = (await getServers(new Request(`http://x/api/servers?pageSize=100&page=${page}`), db).json()) as {
      rows: ApiRow[];
      total: number;
    };
    rows.push(...body.rows);
    if (rows.length >= body.total) break;
  }
  const c: ApiCounts = {
    registry: rows.length,
    probed: 0,
    needsConfiguration: 0,
    revisions: {},
    eras: {} as ApiCounts["eras"],
    transports: {},
    auth: {} as ApiCounts["auth"],
    refusals: {},
    overall: {} as ApiCounts["overall"],
    notCheckedCauses: {},
    observations: {},
    initializeFirst: {},
    discoverFirst: {},
  };
  for (const r of rows) {
    if (!r.needsConfig) inc(c.transports, r.transport ?? "none");
    inc(c.initializeFirst, r.clients.initializeFirst.state);
    inc(c.discoverFirst, r.clients.discoverFirst.state);
    if (r.overall === null) {
      inc(c.eras, "none");
      inc(c.overall, "none");
      inc(c.auth, "not_reached");
      continue;
    }
    c.probed++;
    inc(c.eras, r.era ?? "unknown");
    if (r.protocolVersion) inc(c.revisions, r.protocolVersion);
    inc(c.overall, r.overall);
    if (r.overall === "not_checked") inc(c.notCheckedCauses, r.overallCause ?? "unknown");
    if (r.overallCause === "needs_configuration") c.needsConfiguration++;
    const gated = r.notCheckedCauses.handshake === "credential_required" || r.notCheckedCauses.tools_list === "credential_required";
    inc(
      c.auth,
      gated
        ? r.states.auth_metadata === "verified"
          ? "gate_usable_metadata"
          : "gate_no_usable_metadata"
        : r.states.handshake === "verified"
          ? "open"
          : "not_reached",
    );
    const detail = JSON.parse(serverAnswer(r.name, db).body) as {
      checks: { error_taxonomy?: { code: string | null } };
      observations: { code: string }[];
    };
    if (detail.checks.error_taxonomy) inc(c.refusals, detail.checks.error_taxonomy.code ?? "uncoded");
    for (const code of new Set(detail.observations.map((o) => o.code))) inc(c.observations, code);
  }
  return c;
}

/** One round at the clock, then the day's census step (what a full round ends with). */
async function roundAndCensus(): Promise<void> {
  const s = await runRound(deps());
  expect(s.status).toBe("done");
  await recordDailyCensus({ db, now: () => new Date(clock), log: (l) => logs.push(l), roundId: s.roundId });
  const row = listCensusDays(db).find((r) => r.day === day(clock))!;
  live.set(row.day, { row, api: await countsFromApi() });
}

beforeAll(async () => {
  t = tempDb("census-");
  db = t.db;
  const started = await Promise.all(NAMES.map((n) => startZooServer(n)));
  started.forEach((s, i) => zoo.set(NAMES[i]!, s));
  const entries: FixtureEntry[] = NAMES.map(zooEntry);
  entries.push(entry(SWITCHER, [{ type: "streamable-http", url: url("modern-healthy-paged") }]));
  entries.push(entry(LEAVER, [{ type: "streamable-http", url: url("legacy-2025-06-18-stateless") }]));
  entries.push(entry(TEMPLATED, [{ type: "streamable-http", url: "http://{tenant}.127.0.0.1.nip.io/mcp" }]));
  registry = await startFixtureRegistry(entries, { pageSize: 10 });
  addOptOut(db, {
    host: new URL(zoo.get("opted-out-host")!.origin).host,
    reason: "asked by email",
    source: "operator",
    since: new Date(DAY_A).toISOString(),
  });

  // Day A: the fleet as listed. Day B: one server switches to a failing remote, one joins, one leaves. Day C: no round.
  // Day D: another round.
  await roundAndCensus();
  clock = DAY_A + DAY_MS;
  registry.entries = [
    ...registry.entries.filter((e) => e.server.name !== LEAVER && e.server.name !== SWITCHER),
    entry(SWITCHER, [{ type: "streamable-http", url: url("discover-500-stack-trace") }]),
    entry(NEWCOMER, [{ type: "sse", url: url("http-sse-2024-11-05") }]),
  ];
  await roundAndCensus();
  clock = DAY_A + 3 * DAY_MS;
  await roundAndCensus();
}, 240_000);

afterAll(async () => {
  await Promise.all([...zoo.values()].map((s) => s.close()));
  await registry?.close();
  t?.cleanup();
});

describe("the daily census row", () => {
  test("counts every listed server by its latest stored result, as the JSON API shows them, on each day", () => {
    expect([...live.keys()]).toEqual([day(DAY_A), day(DAY_A + DAY_MS), day(DAY_A + 3 * DAY_MS)]);
    for (const [d, { row, api }] of live) {
      expect(row.source, d).toBe("round");
      expect(row.registry, d).toBe(api.registry);
      expect(row.probed, d).toBe(api.probed);
      expect(row.needsConfiguration, d).toBe(api.needsConfiguration);
      expect(row.revisions, d).toEqual(api.revisions);
      expect(seen(row.eras), d).toEqual(api.eras);
      expect(seen(row.transports), d).toEqual(api.transports);
      expect(seen(row.auth), d).toEqual(api.auth);
      expect(seen(row.refusals), d).toEqual(api.refusals);
      expect(seen(row.overall), d).toEqual(api.overall);
      expect(seen(row.notCheckedCauses), d).toEqual(api.notCheckedCauses);
      expect(seen(row.observations), d).toEqual(api.observations);
      expect(Object.keys(row.observations!).sort(), d).toEqual([...OBSERVATION_CODES].sort());
      // architecture.md §2.10: each kind of client's state, as the list API's rows carry it.
      expect(seen(row.clients!.initializeFirst), d).toEqual(api.initializeFirst);
      expect(seen(row.clients!.discoverFirst), d).toEqual(api.discoverFirst);
      // Each count covers every listed server exactly once.
      for (const m of [row.eras, row.auth, row.overall, row.clients!.initializeFirst, row.clients!.discoverFirst])
        expect(
          Object.values(m).reduce((a, b) => a + b, 0),
          d,
        ).toBe(row.registry);
    }
  });

  test("holds the outcomes the zoo is known for", () => {
    const a = live.get(day(DAY_A))!.row;
    // 21 zoo servers, the switcher, the leaver and the templated server.
    expect(a.registry).toBe(NAMES.length + 3);
    expect(a.needsConfiguration).toBe(1);
    expect(a.transports).toMatchObject({ "streamable-http": NAMES.length + 1, sse: 1, none: 0 });
    expect(a.revisions["2026-07-28"]).toBeGreaterThanOrEqual(3);
    expect(a.revisions["2025-06-18"]).toBeGreaterThanOrEqual(2);
    // Gates: credential-gate-valid-prm (usable), auth-prm-404 and auth-challenge-without-resource-metadata (not usable), the
    // tool list behind a gate after a modern handshake, and a late fallback that met one.
    expect(a.auth.gate_usable_metadata).toBe(3);
    expect(a.auth.gate_no_usable_metadata).toBe(2);
    expect(a.refusals).toMatchObject({ is_error_result: 1, malformed_html: 1, malformed_empty: 1 });
    expect(a.notCheckedCauses).toMatchObject({ opted_out: 1, slow_down: 1, needs_configuration: 1, credential_required: 4 });
    // Modern-only servers turn initialize-first clients away; legacy ones are reached by discover-first clients after the fallback.
    expect(a.clients!.initializeFirst.no).toBeGreaterThanOrEqual(1);
    expect(a.clients!.initializeFirst.yes).toBeGreaterThanOrEqual(2);
    expect(a.clients!.discoverFirst.yes_after_fallback).toBeGreaterThanOrEqual(2);
  });

  test("follows the registry and the servers from day to day", () => {
    const a = live.get(day(DAY_A))!.row;
    const b = live.get(day(DAY_A + DAY_MS))!.row;
    // One joined and one left: the same size, one more sse remote, one more Failed server (the switcher).
    expect(b.registry).toBe(a.registry);
    expect(b.transports!.sse).toBe(a.transports!.sse + 1);
    expect(b.overall.failed).toBe(a.overall.failed + 1);
    expect(b.eras.modern).toBe(a.eras.modern - 1);
  });

  test("a day with no round has no row, and a day written twice stays one row", async () => {
    expect(listCensusDays(db).map((r) => r.day)).not.toContain(day(DAY_A + 2 * DAY_MS));
    const again = await recordDailyCensus({ db, now: () => new Date(clock + 3_600_000), log: () => undefined, roundId: null });
    expect(again.wrote).toBe(false);
    expect(listCensusDays(db).filter((r) => r.day === day(clock))).toHaveLength(1);
    expect(listCensusDays(db).find((r) => r.day === day(clock))).toEqual(live.get(day(clock))!.row);
  });
});

describe("rebuilding days from stored runs", () => {
  test("rebuilt rows equal the rows the rounds wrote, in every count runs keep, and a second rebuild changes nothing", async () => {
    const originals = listCensusDays(db);
    db.$client.prepare("DELETE FROM census_days WHERE day < ?").run(day(clock));
    const s = await recordDailyCensus({ db, now: () => new Date(clock + 60_000), log: (l) => logs.push(l), roundId: null });
    expect(s.wrote).toBe(false);
    expect(s.rebuilt).toEqual([day(DAY_A), day(DAY_A + DAY_MS)]);
    for (const d of s.rebuilt) {
      const was = originals.find((r) => r.day === d)!;
      const now = listCensusDays(db).find((r) => r.day === d)!;
      expect(now.source).toBe("backfill");
      expect(now.uncertain).toBe(0);
      expect(now.transports).toBeNull();
      expect(now.refusals).toBeNull();
      expect(now.observations).toBeNull();
      expect(now.clients).toBeNull();
      const kept = ({ registry, probed, needsConfiguration, revisions, eras, auth, overall, notCheckedCauses }: CensusDay) => ({
        registry,
        probed,
        needsConfiguration,
        revisions,
        eras,
        auth,
        overall,
        notCheckedCauses,
      });
      expect(kept(now), d).toEqual(kept(was));
    }
    expect(logs.some((l) => /^\[census\] rebuilt 2 earlier days from stored runs/.test(l))).toBe(true);
    const again = await recordDailyCensus({ db, now: () => new Date(clock + 120_000), log: () => undefined, roundId: null });
    expect(again.rebuilt).toEqual([]);
    expect(listCensusDays(db)).toHaveLength(3);
  });

  test("a server whose latest stored run is older than the run retention is counted and reported as uncertain", () => {
    const asOf = new Date(DAY_A + DAY_MS).toISOString();
    const exact = rebuildCensusDay(db, asOf, new Date(DAY_A).toISOString());
    expect(exact.uncertain).toBe(0);
    // With the retention starting after day A's round, the servers not probed since (the opted-out one) are uncertain.
    const later = rebuildCensusDay(db, asOf, new Date(DAY_A + 1).toISOString());
    expect(later.uncertain).toBeGreaterThanOrEqual(1);
    expect(later.registry).toBe(exact.registry);
  });

  test("days older than the run retention are not rebuilt", async () => {
    db.$client.prepare("DELETE FROM census_days WHERE day = ?").run(day(DAY_A));
    const s = await recordDailyCensus({ db, now: () => new Date(DAY_A + 31 * DAY_MS), log: () => undefined, roundId: null });
    expect(s.rebuilt).toEqual([]);
    expect(listCensusDays(db).map((r) => r.day)).not.toContain(day(DAY_A));
  });
});

describe("the auth outcome", () => {
  const f = (o: Partial<AuthFacts>): AuthFacts => ({
    handshake: null,
    handshakeCause: null,
    toolsList: null,
    toolsListCause: null,
    authMetadata: null,
    ...o,
  });
  test.each<[string, AuthFacts, AuthOutcome]>([
    [
      "gate at the handshake, usable metadata",
      f({ handshake: "not_checked", handshakeCause: "credential_required", authMetadata: "verified" }),
      "gate_usable_metadata",
    ],
    [
      "gate at the handshake, no metadata URL",
      f({ handshake: "not_checked", handshakeCause: "credential_required", authMetadata: "not_checked" }),
      "gate_no_usable_metadata",
    ],
    [
      "gate at the tool list, risky metadata",
      f({ handshake: "verified", toolsList: "not_checked", toolsListCause: "credential_required", authMetadata: "observed_risk" }),
      "gate_no_usable_metadata",
    ],
    ["open, metadata of a 403 on the call", f({ handshake: "verified", toolsList: "verified", authMetadata: "verified" }), "open"],
    ["open, tool list past the deadline", f({ handshake: "verified", toolsList: "not_checked", toolsListCause: "deadline" }), "open"],
    ["handshake failed", f({ handshake: "failed", toolsList: "failed" }), "not_reached"],
    ["slowed down", f({ handshake: "not_checked", handshakeCause: "slow_down" }), "not_reached"],
    ["a result stored before causes were", f({ handshake: "not_checked" }), "unknown"],
  ])("%s", (_, facts, want) => expect(authOutcomeOf(facts)).toBe(want));

  test.each<[string, Parameters<typeof runAuthFacts>[0], Parameters<typeof runAuthFacts>[1], AuthOutcome]>([
    [
      "a handshake not checked that counts as up met the gate",
      { overall: "not_checked", overallCause: "credential_required", uptime: "up" },
      { handshake: "not_checked", toolsList: "not_checked", authMetadata: "verified" },
      "gate_usable_metadata",
    ],
    [
      "the same gate with risky metadata is Observed risk overall",
      { overall: "observed_risk", overallCause: null, uptime: "up" },
      { handshake: "not_checked", toolsList: "not_checked", authMetadata: "observed_risk" },
      "gate_no_usable_metadata",
    ],
    [
      "a slow-down before the handshake is left out of uptime",
      { overall: "not_checked", overallCause: "slow_down", uptime: "left_out" },
      { handshake: "not_checked", toolsList: "not_checked", authMetadata: "not_checked" },
      "not_reached",
    ],
    [
      "a tool list gate after a handshake, by the overall cause",
      { overall: "not_checked", overallCause: "credential_required", uptime: "up" },
      { handshake: "verified", toolsList: "not_checked", authMetadata: "not_checked" },
      "gate_no_usable_metadata",
    ],
    [
      "a tool list gate with risky metadata",
      { overall: "observed_risk", overallCause: null, uptime: "up" },
      { handshake: "verified", toolsList: "not_checked", authMetadata: "observed_risk" },
      "gate_no_usable_metadata",
    ],
    [
      "a tool list past the deadline",
      { overall: "not_checked", overallCause: "deadline", uptime: "up" },
      { handshake: "verified", toolsList: "not_checked", authMetadata: "not_checked" },
      "open",
    ],
    [
      "no common revision leaves the list unread, Failed overall",
      { overall: "failed", overallCause: null, uptime: "up" },
      { handshake: "verified", toolsList: "not_checked", authMetadata: "not_checked" },
      "open",
    ],
    [
      "a run stored before uptime was",
      { overall: "not_checked", overallCause: null, uptime: null },
      { handshake: "not_checked", toolsList: "not_checked", authMetadata: "not_checked" },
      "unknown",
    ],
  ])("rebuilt from a run: %s", (_, run, states, want) => expect(authOutcomeOf(runAuthFacts(run, states))).toBe(want));
});
