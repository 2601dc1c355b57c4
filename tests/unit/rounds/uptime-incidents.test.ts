import { describe, expect, test } from "vitest";
import { judge } from "@/lib/checks";
import type { ProbeObservation } from "@/lib/probe/types";
import { persistRun } from "@/lib/rounds/persist";
import { uptimeOutcome } from "@/lib/rounds/uptime";
import { incidentEvents, incidentList } from "@/lib/store/incidents";
import { pruneOldRuns } from "@/lib/store/runs";
import { serverUptime } from "@/lib/store/uptime";
import { down, ex, healthy, record, setup, tool, withList } from "./observations";

// Uptime and incidents (architecture.md §4), written by persistRun into a real database and read back by the store.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 10, 1, 12);
const at = (hours: number) => new Date(T0 + hours * HOUR);
const tools = [tool("search", "Search")];

function gated(when: Date): ProbeObservation {
  const challenge = { phase: "initialize" as const, status: 401, challenges: [{ scheme: "Bearer", params: { realm: "x" } }], seq: 2 };
  return {
    ...down(when),
    era: "legacy",
    handshake: { kind: "credential_gate", challenge, fallbackCause: "server/discover answered HTTP 401" },
    exchanges: [ex(1, "discover", 401), ex(2, "initialize", 401)],
  };
}

function slowed(when: Date): ProbeObservation {
  const sd = { phase: "discover" as const, status: 429, retryAfterSeconds: 60, seq: 1 };
  return { ...down(when), handshake: { kind: "slow_down", slowDown: sd }, slowDown: sd, exchanges: [ex(1, "discover", 429)] };
}

function optedOut(when: Date): ProbeObservation {
  return {
    ...down(when),
    handshake: undefined,
    blocked: { kind: "opted_out", host: "s0.example", reason: "operator list" },
    exchanges: [],
  };
}

const noCommonRevision = (when: Date): ProbeObservation => ({
  ...healthy(when, []),
  era: "legacy",
  handshake: { kind: "legacy", protocolVersion: "2023-01-01", common: false, fallbackCause: "server/discover answered HTTP 400", seq: 1 },
  toolsList: { kind: "not_attempted", why: "no common protocol revision" },
  toolCall: { kind: "withheld", why: "no common protocol revision", cause: "no_common_revision" },
});

describe("uptime: what a probe counts as (architecture.md §4)", () => {
  test.each([
    ["a completed handshake", "up", healthy(at(0), tools)],
    ["a credential gate on the handshake", "up", gated(at(0))],
    [
      "a credential gate on the tool list after a good handshake",
      "up",
      withList(at(0), {
        kind: "credential_gate",
        challenge: { phase: "tools_list", status: 401, challenges: [{ scheme: "Bearer", params: {} }], seq: 2 },
      }),
    ],
    ["a handshake that completed without a common revision", "up", noCommonRevision(at(0))],
    ["a refused connection", "down", down(at(0))],
    [
      "a modern handshake declined with -32022",
      "down",
      { ...down(at(0)), handshake: { kind: "declined", code: -32022, message: "Unsupported", status: 400, seq: 1 } },
    ],
    [
      "a 401 without a challenge",
      "down",
      { ...down(at(0)), handshake: { kind: "refused_no_challenge", phase: "initialize", status: 401, seq: 2 } },
    ],
    ["a slow-down at the handshake", "left_out", slowed(at(0))],
    ["an opted-out host", "left_out", optedOut(at(0))],
    ["a server that needs configuration", "left_out", { ...optedOut(at(0)), blocked: { kind: "needs_config", detail: "URL template" } }],
  ] as [string, string, ProbeObservation][])("%s counts as %s", (_what, outcome, obs) => {
    expect(uptimeOutcome(obs)).toBe(outcome);
  });
});

describe("uptime per server from the day rollups", () => {
  test("each window counts up among reached probes; slow-downs and opt-outs are left out", () => {
    const { db, id } = setup(["u/one"]);
    const s = id("u/one");
    // 40 days ago: 2 down; 10 days ago: 1 up, 1 down; 3 days ago: 2 up; in the last 24 h: 1 up, 1 down, 1 slowed, 1 opted out.
    const now = at(40 * 24);
    const runsAt: [number, (d: Date) => ProbeObservation, boolean?][] = [
      [0, down],
      [1, down],
      [30 * 24, (d) => healthy(d, tools)],
      [30 * 24 + 1, down],
      [37 * 24, gated],
      [37 * 24 + 1, (d) => healthy(d, tools)],
      [40 * 24 - 10, (d) => healthy(d, tools)],
      [40 * 24 - 8, down],
      [40 * 24 - 6, slowed],
      [40 * 24 - 4, optedOut, true],
    ];
    for (const [h, make, skipped] of runsAt) {
      const when = at(h);
      const obs = make(when);
      persistRun(db, { serverId: s, roundId: null, obs, results: judge(obs), skipped: !!skipped, now: when });
    }
    const u = serverUptime(db, "u/one", now)!;
    expect(u.last24h).toMatchObject({ up: 1, reached: 2, ratio: 0.5 });
    expect(u.last7d).toMatchObject({ up: 3, reached: 4, ratio: 0.75 });
    expect(u.last30d).toMatchObject({ up: 4, reached: 6 });
    expect(u.last90d).toMatchObject({ up: 4, reached: 8, ratio: 0.5 });
    expect(u.last7d.from).toBe(new Date(Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`) - 6 * DAY).toISOString());
    expect(serverUptime(db, "no/such", now)).toBeNull();
  });

  test("the 90-day figure outlives the 30-day run retention", () => {
    const { db, id } = setup(["u/pruned"]);
    for (let d = 0; d < 60; d++) record(db, id("u/pruned"), d % 10 === 0 ? down(at(d * 24)) : healthy(at(d * 24), tools), at(d * 24));
    const now = at(60 * 24);
    const before = serverUptime(db, "u/pruned", now)!;
    expect(before.last90d).toMatchObject({ up: 54, reached: 60, ratio: 0.9 });
    const removed = pruneOldRuns(db, new Date(now.getTime() - 30 * DAY).toISOString());
    expect(removed).toBeGreaterThan(0);
    expect(serverUptime(db, "u/pruned", now)!.last90d).toEqual(before.last90d);
  });

  test("a server never probed has no ratio, not 0 % or 100 %", () => {
    const { db } = setup(["u/new"]);
    const u = serverUptime(db, "u/new", at(0))!;
    for (const w of Object.values(u)) expect(w).toMatchObject({ ratio: null, up: 0, reached: 0 });
  });
});

describe("incidents (architecture.md §4)", () => {
  test("opened when a discovery check turns Failed, kept through left-out runs, closed by the first good probe", () => {
    const { db, id } = setup(["i/one"]);
    const s = id("i/one");
    record(db, s, healthy(at(0), tools), at(0));
    expect(incidentList(db, { server: "i/one", limit: 10 }).total).toBe(0);

    record(db, s, down(at(1)), at(1));
    record(db, s, down(at(2)), at(2));
    persistRun(db, { serverId: s, roundId: null, obs: slowed(at(3)), results: judge(slowed(at(3))), skipped: false, now: at(3) });
    let list = incidentList(db, { server: "i/one", limit: 10 });
    expect(list.total).toBe(1);
    expect(list.rows[0]).toMatchObject({ startedAt: at(1).toISOString(), endedAt: null, durationMs: null, check: "handshake" });
    expect(list.rows[0]!.reason).toMatch(/ECONNREFUSED|refused/i);

    record(db, s, healthy(at(4.5), tools), at(4.5));
    list = incidentList(db, { server: "i/one", limit: 10 });
    expect(list.rows[0]).toMatchObject({ endedAt: at(4.5).toISOString(), durationMs: 3.5 * HOUR });
    expect(list.rows[0]!.closedRunId).toBeGreaterThan(list.rows[0]!.openedRunId);

    // A second one later, then the list is most recent first.
    record(db, s, withList(at(10), { kind: "failed", cause: "tools/list answered HTTP 500", pages: 0, seqs: [2] }), at(10));
    list = incidentList(db, { server: "i/one", limit: 10 });
    expect(list.rows.map((r) => r.check)).toEqual(["tools_list", "handshake"]);
    expect(list.rows[0]!.endedAt).toBeNull();
  });

  test("the first probe of a server opens one when it fails; a credential gate closes it", () => {
    const { db, id } = setup(["i/first"]);
    record(db, id("i/first"), down(at(0)), at(0));
    expect(incidentList(db, { server: "i/first", limit: 10 }).rows[0]).toMatchObject({ endedAt: null });
    record(db, id("i/first"), gated(at(2)), at(2));
    expect(incidentList(db, { server: "i/first", limit: 10 }).rows[0]).toMatchObject({ durationMs: 2 * HOUR });
  });

  test("a failed protocol version opens an incident though uptime counts the probe up", () => {
    const { db, id } = setup(["i/old"]);
    record(db, id("i/old"), noCommonRevision(at(0)), at(0));
    expect(incidentList(db, { server: "i/old", limit: 10 }).rows[0]).toMatchObject({ check: "protocol_version", endedAt: null });
    expect(serverUptime(db, "i/old", at(1))!.last24h).toMatchObject({ up: 1, reached: 1 });
  });

  test("opt-outs and slow-downs neither open nor close an incident", () => {
    const { db, id } = setup(["i/quiet"]);
    const s = id("i/quiet");
    persistRun(db, { serverId: s, roundId: null, obs: optedOut(at(0)), results: judge(optedOut(at(0))), skipped: true, now: at(0) });
    persistRun(db, { serverId: s, roundId: null, obs: slowed(at(1)), results: judge(slowed(at(1))), skipped: false, now: at(1) });
    expect(incidentList(db, { server: "i/quiet", limit: 10 }).total).toBe(0);
  });

  test("the site-wide list pages across servers and the feed has an entry per opening and closing", () => {
    const { db, id } = setup(["i/a", "i/b", "i/c"]);
    for (const [n, name] of ["i/a", "i/b", "i/c"].entries()) record(db, id(name), down(at(n)), at(n));
    record(db, id("i/a"), healthy(at(5), tools), at(5));
    const page1 = incidentList(db, { limit: 2, offset: 0 });
    expect(page1).toMatchObject({ total: 3, ongoing: 2 });
    expect(page1.rows.map((r) => r.serverName)).toEqual(["i/c", "i/b"]);
    expect(incidentList(db, { limit: 2, offset: 2 }).rows.map((r) => r.serverName)).toEqual(["i/a"]);
    const events = incidentEvents(db, { limit: 10 });
    expect(events.map((e) => [e.incident.serverName, e.kind])).toEqual([
      ["i/a", "closed"],
      ["i/c", "opened"],
      ["i/b", "opened"],
      ["i/a", "opened"],
    ]);
  });
});
