import { describe, expect, test } from "vitest";
import { judge } from "@/lib/checks";
import type { ProbeObservation, ToolDefinition } from "@/lib/probe/types";
import { evaluateCoverage } from "@/lib/rounds/alerts/evaluate";
import { persistRun } from "@/lib/rounds/persist";
import { coverageBetween, listAlerts } from "@/lib/store/coverage";
import { getRunExchanges, pruneOldRuns } from "@/lib/store/runs";
import { getServerDetail } from "@/lib/store/servers/detail";
import { DAY, HEALTHY_MAX_MS, HOUR } from "@/lib/rounds/schedule";
import { down, dueIn, ex, healthy, record, setup, tool, withList } from "./observations";

// persistRun against a real database, fed observations as the probe would hand them over (./observations).

describe("persisting a run", () => {
  test("a changed tool list is stored as field-path differences with before and after", () => {
    const { db, id } = setup(["a/one"]);
    const t1 = new Date("2026-11-01T01:00:00.000Z");
    const r1 = record(db, id("a/one"), healthy(t1, [tool("search", "Search"), tool("fetch", "Fetch")]), t1);
    expect(r1).toMatchObject({ kind: "read", toolChanges: 0, transitions: 5 });

    const t2 = new Date("2026-11-01T02:00:00.000Z");
    const r2 = record(
      db,
      id("a/one"),
      healthy(t2, [
        tool("search", "Search the web", {
          inputSchema: { type: "object", properties: { q: { type: "number" } } },
          annotations: { readOnlyHint: true },
        }),
        tool("summarise", "Summarise"),
      ]),
      t2,
    );
    expect(r2.toolChanges).toBe(5);
    const d = getServerDetail(db, "a/one")!;
    expect(d.toolChanges.map((c) => [c.toolName, c.kind, c.path, c.before, c.after])).toEqual([
      ["fetch", "removed", "", expect.stringContaining('"name":"fetch"'), null],
      ["search", "changed", "annotations", null, '{"readOnlyHint":true}'],
      ["search", "changed", "description", '"Search"', '"Search the web"'],
      ["search", "changed", "inputSchema.properties.q.type", '"string"', '"number"'],
      ["summarise", "added", "", null, expect.stringContaining('"name":"summarise"')],
    ]);
    expect(d.toolChanges.every((c) => c.at === t2.toISOString())).toBe(true);
    expect(d.tools?.map((t) => (t as { name: string }).name)).toEqual(["search", "summarise"]);
    // A tool change counts as a change: the healthy interval goes back to 30 min.
    expect(d.schedule.scheduleReason).toMatch(/results changed/);

    // The same list again (other order) is no change.
    const t3 = new Date("2026-11-01T03:00:00.000Z");
    const same = healthy(t3, [
      tool("summarise", "Summarise"),
      {
        annotations: { readOnlyHint: true },
        description: "Search the web",
        inputSchema: { properties: { q: { type: "number" } }, type: "object" },
        name: "search",
      },
    ]);
    expect(record(db, id("a/one"), same, t3).toolChanges).toBe(0);
    expect(db.$client.prepare("select count(*) n from tool_snapshots").get()).toEqual({ n: 2 });
  });

  test("evidence is kept for the latest run and for runs that changed a state; the rest is pruned", () => {
    const { db, id } = setup(["a/one"]);
    const at = (h: number) => new Date(Date.UTC(2026, 10, 1, h));
    const r1 = record(db, id("a/one"), healthy(at(1), [tool("t", "d")]), at(1));
    const r2 = record(db, id("a/one"), healthy(at(2), [tool("t", "d")]), at(2));
    const r3 = record(db, id("a/one"), healthy(at(3), [tool("t", "d")]), at(3));
    expect(getRunExchanges(db, r1.runId)).toHaveLength(3); // first run: every check transitioned
    expect(getRunExchanges(db, r2.runId)).toBeNull(); // unchanged and superseded
    expect(getRunExchanges(db, r3.runId)).toHaveLength(3); // latest
    const r4 = record(db, id("a/one"), down(at(4)), at(4));
    expect(r4).toMatchObject({ kind: "failed" });
    expect(getRunExchanges(db, r3.runId)).toBeNull();
    const d = getServerDetail(db, "a/one")!;
    expect(d.exchanges).toHaveLength(1);
    expect(d.transitions[0]).toMatchObject({ fromState: "verified", toState: "failed", runId: r4.runId });
    expect(getRunExchanges(db, d.transitions[0]!.runId)).toHaveLength(1);
    // A failing server keeps its last success, so "time since last success" stays visible.
    expect(d.lastSuccessAt).toBe(at(3).toISOString());
    expect(d.schedule).toMatchObject({ consecutiveFailures: 1 });
    expect(d.checks.find((c) => c.check === "handshake")).toMatchObject({ state: "failed", since: at(4).toISOString() });
    expect(d.checks.find((c) => c.check === "handshake")!.reason).toMatch(/ECONNREFUSED|refused/i);

    // Old unreferenced run rows go; rows behind current results and transitions stay.
    const removed = pruneOldRuns(db, "2026-12-31T00:00:00.000Z");
    expect(removed).toBe(2);
    expect(db.$client.prepare("select id from runs order by id").all()).toEqual([{ id: r1.runId }, { id: r4.runId }]);
  });

  test("coverage over a simulated week alerts when a day falls more than 5% below the 7-day median", () => {
    const names = Array.from({ length: 20 }, (_, i) => `a/s${i}`);
    const { db, id } = setup(names);
    const logs: string[] = [];
    const day = (d: number, h = 6) => new Date(Date.UTC(2026, 10, d, h));
    // Nov 1–7: all 20 read every day (some twice: distinct servers count once).
    for (let d = 1; d <= 7; d++) {
      for (const n of names) record(db, id(n), healthy(day(d), [tool("t", "d")]), day(d));
      for (const n of names.slice(0, 5)) record(db, id(n), healthy(day(d, 18), [tool("t", "d")]), day(d, 18));
    }
    // Nov 8: 19 read (5% below: no alert). Nov 9: 18 read and 2 down (10% below: alert).
    for (const n of names.slice(0, 19)) record(db, id(n), healthy(day(8), [tool("t", "d")]), day(8));
    for (const n of names.slice(0, 18)) record(db, id(n), healthy(day(9), [tool("t", "d")]), day(9));
    for (const n of names.slice(18)) record(db, id(n), down(day(9)), day(9));

    const cov = coverageBetween(db, "2026-11-01", "2026-11-09");
    expect(cov.map((c) => c.serversRead)).toEqual([20, 20, 20, 20, 20, 20, 20, 19, 18]);
    expect(cov[0]).toMatchObject({ serversAttempted: 20, requests: 75, requestsOk: 75 });
    expect(cov[8]).toMatchObject({ serversAttempted: 20, requests: 18 * 3 + 2, requestsOk: 18 * 3 });

    // Evaluated on Nov 9 (Nov 9 itself is not over yet), then on Nov 10.
    evaluateCoverage(db, day(9, 23), (l) => logs.push(l));
    expect(listAlerts(db)).toEqual([]);
    evaluateCoverage(db, day(10, 1), (l) => logs.push(l));
    evaluateCoverage(db, day(10, 2), (l) => logs.push(l)); // judged once only
    const alerts = listAlerts(db);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ day: "2026-11-09", kind: "coverage_drop", value: 18, baseline: 20 });
    expect(logs).toEqual(["[coverage] ALERT coverage fell: 18 distinct servers read on 2026-11-09, 10% below the 7-day median of 20"]);
  });

  test("a day with no reads at all after a working week is alerted", () => {
    const { db, id } = setup(["a/one", "a/two", "a/three"]);
    const logs: string[] = [];
    for (let d = 1; d <= 5; d++)
      for (const n of ["a/one", "a/two", "a/three"])
        record(db, id(n), healthy(new Date(Date.UTC(2026, 10, d, 3)), []), new Date(Date.UTC(2026, 10, d, 3)));
    evaluateCoverage(db, new Date(Date.UTC(2026, 10, 7, 3)), (l) => logs.push(l));
    expect(listAlerts(db).map((a) => [a.day, a.value])).toEqual([["2026-11-06", 0]]);
  });
});

describe("a complete read is what counts as read (architecture.md §2.2)", () => {
  const t1 = new Date("2026-11-02T01:00:00.000Z");
  const t2 = new Date("2026-11-02T05:00:00.000Z");
  const dup = (description: string): ToolDefinition[] => [
    tool("echo", "Echo"),
    tool("echo", description),
    { name: "stringly", inputSchema: "{}" },
  ];
  const malformed = (at: Date, tools: ToolDefinition[]) =>
    withList(at, {
      kind: "complete",
      tools,
      pages: 2,
      malformed: ['duplicate name "echo"', 'tool "stringly" has no object inputSchema'],
      seqs: [2],
    });

  test("a malformed but complete list gets a last complete read, coverage, a snapshot and tool history", () => {
    const { db, id } = setup(["a/malformed"]);
    const r1 = record(db, id("a/malformed"), malformed(t1, dup("Echo again")), t1);
    expect(r1.kind).toBe("read");
    let d = getServerDetail(db, "a/malformed")!;
    expect(d.states.tools_list).toBe("observed_risk");
    expect(d.lastSuccessAt).toBe(t1.toISOString());
    expect(d.latestRun?.read).toBe(true);
    expect(d.toolCount).toBe(3);
    expect(d.tools).toHaveLength(3);
    expect(coverageBetween(db, "2026-11-02", "2026-11-02")[0]).toMatchObject({ serversAttempted: 1, serversRead: 1 });
    expect(d.schedule.scheduleReason).toMatch(/^healthy/);

    // The second "echo" changes: reported as a change of that definition, not lost behind the first.
    const r2 = record(db, id("a/malformed"), malformed(t2, dup("Echo, louder")), t2);
    expect(r2).toMatchObject({ kind: "read", toolChanges: 1 });
    d = getServerDetail(db, "a/malformed")!;
    expect(d.toolChanges.map((c) => [c.toolName, c.kind, c.path, c.before, c.after])).toEqual([
      ["echo", "changed", "description", '"Echo again"', '"Echo, louder"'],
    ]);
    expect(d.lastSuccessAt).toBe(t2.toISOString());
  });

  test.each<[string, ProbeObservation["toolsList"]]>([
    ["a cursor loop", { kind: "endless", why: "cursor_loop", tools: [tool("a", "A"), tool("b", "B")], pages: 3, seqs: [2] }],
    ["the page cap", { kind: "endless", why: "page_cap", tools: [tool("a", "A")], pages: 50, seqs: [2] }],
  ])("a list whose pages never end (%s) is not a complete read", (_label, toolsList) => {
    const { db, id } = setup(["a/endless"]);
    const r = record(db, id("a/endless"), withList(t1, toolsList), t1);
    expect(r.kind).toBe("partly_read");
    const d = getServerDetail(db, "a/endless")!;
    expect(d.states.tools_list).toBe("observed_risk");
    expect(d.lastSuccessAt).toBeNull();
    expect(d.latestRun?.read).toBe(false);
    expect(d.tools).toBeNull();
    expect(coverageBetween(db, "2026-11-02", "2026-11-02")[0]).toMatchObject({ serversAttempted: 1, serversRead: 0 });
    // Observed risk, not a failure: the server answers, so it keeps the healthy cadence (at most 6 h).
    expect(d.schedule).toMatchObject({ consecutiveFailures: 0 });
    expect(dueIn(db, "a/endless", t1)).toBeLessThanOrEqual(HEALTHY_MAX_MS);
  });
});

describe("schedules follow the verdict (architecture.md §3)", () => {
  const at = (h: number) => new Date(Date.UTC(2026, 10, 3, h));
  const challenge = { phase: "tools_list" as const, status: 401, challenges: [{ scheme: "Bearer", params: { realm: "x" } }], seq: 2 };

  test("a tool list behind a credential gate after a good handshake waits at least 24 h", () => {
    const { db, id } = setup(["a/gated"]);
    const r = record(db, id("a/gated"), withList(at(1), { kind: "credential_gate", challenge }), at(1));
    expect(r.kind).toBe("gated");
    const d = getServerDetail(db, "a/gated")!;
    expect(d.states).toMatchObject({ handshake: "verified", tools_list: "not_checked" });
    expect(dueIn(db, "a/gated", at(1))).toBeGreaterThanOrEqual(DAY);
    expect(d.schedule).toMatchObject({ consecutiveFailures: 0, scheduleReason: expect.stringMatching(/credential required/) });
  });

  test("tool-list failures after a good handshake back off 6 h, 12 h, 24 h, and a complete read resets them", () => {
    const { db, id } = setup(["a/list-fails"]);
    const failing = (h: number) => withList(at(h), { kind: "failed", cause: "tools/list answered HTTP 500", pages: 0, seqs: [2] });
    const waits: number[] = [];
    for (const h of [0, 6, 18]) {
      expect(record(db, id("a/list-fails"), failing(h), at(h)).kind).toBe("failed");
      waits.push(dueIn(db, "a/list-fails", at(h)));
    }
    expect(getServerDetail(db, "a/list-fails")!.states).toMatchObject({ handshake: "verified", tools_list: "failed" });
    [6, 12, 24].forEach((h, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(h * HOUR);
      expect(waits[i]).toBeLessThan(h * HOUR * 1.1);
    });
    expect(getServerDetail(db, "a/list-fails")!.schedule.consecutiveFailures).toBe(3);
    record(db, id("a/list-fails"), healthy(at(42), [tool("t", "d")]), at(42));
    expect(getServerDetail(db, "a/list-fails")!.schedule.consecutiveFailures).toBe(0);
  });

  test("a completed handshake without a common revision backs off like a failure", () => {
    const { db, id } = setup(["a/old"]);
    const obs: ProbeObservation = {
      ...healthy(at(1), []),
      era: "legacy",
      handshake: {
        kind: "legacy",
        protocolVersion: "2023-01-01",
        common: false,
        fallbackCause: "server/discover answered HTTP 400",
        seq: 1,
      },
      toolsList: { kind: "not_attempted", why: "no common protocol revision" },
      toolCall: { kind: "withheld", why: "no common protocol revision", cause: "no_common_revision" },
    };
    const results = judge(obs);
    expect(results.find((r) => r.check === "handshake")?.state).toBe("verified");
    expect(results.find((r) => r.check === "protocol_version")?.state).toBe("failed");
    expect(persistRun(db, { serverId: id("a/old"), roundId: null, obs, results, skipped: false, now: at(1) }).kind).toBe("failed");
    expect(dueIn(db, "a/old", at(1))).toBeGreaterThanOrEqual(6 * HOUR);
    expect(getServerDetail(db, "a/old")!.schedule.consecutiveFailures).toBe(1);
  });

  test("a slow-down from a metadata host on another host leaves the MCP server's schedule healthy; its own host's is honoured", () => {
    const { db, id } = setup(["a/meta-elsewhere", "a/meta-same-host"]);
    const slowMeta = (metadataUrl: string): ProbeObservation => {
      const base = healthy(at(1), [tool("t", "d")]);
      const sd = { phase: "auth_metadata" as const, status: 429, retryAfterSeconds: 7200, seq: 4 };
      const gate = {
        phase: "tools_call" as const,
        status: 403,
        challenges: [{ scheme: "Bearer", params: { resource_metadata: metadataUrl } }],
        seq: 3,
      };
      return {
        ...base,
        toolCall: { kind: "answered", status: 403, shape: { type: "pre_dispatch_refusal" }, seq: 3 },
        authMetadata: { kind: "slow_down", slowDown: sd, challenge: gate },
        slowDown: sd,
        exchanges: [...base.exchanges, { ...ex(4, "auth_metadata", 429), method: "GET", url: metadataUrl }],
      };
    };
    const elsewhere = record(
      db,
      id("a/meta-elsewhere"),
      slowMeta("https://auth.other.example/.well-known/oauth-protected-resource"),
      at(1),
    );
    expect(elsewhere.kind).toBe("read");
    const d = getServerDetail(db, "a/meta-elsewhere")!;
    expect(d.states.auth_metadata).toBe("not_checked");
    expect(d.schedule.scheduleReason).toMatch(/^healthy/);
    expect(dueIn(db, "a/meta-elsewhere", at(1))).toBeLessThanOrEqual(HEALTHY_MAX_MS);

    record(db, id("a/meta-same-host"), slowMeta("https://s0.example/.well-known/oauth-protected-resource/mcp"), at(1));
    expect(getServerDetail(db, "a/meta-same-host")!.schedule.scheduleReason).toMatch(/slow down \(Retry-After 7200 s\)/);
    expect(dueIn(db, "a/meta-same-host", at(1))).toBeGreaterThanOrEqual(2 * HOUR);
  });

  test("a slow-down at the handshake is counted as slowed down, not as gated", () => {
    const { db, id } = setup(["a/slow"]);
    const sd = { phase: "discover" as const, status: 429, retryAfterSeconds: 120, seq: 1 };
    const obs: ProbeObservation = {
      ...down(at(1)),
      handshake: { kind: "slow_down", slowDown: sd },
      slowDown: sd,
      exchanges: [ex(1, "discover", 429)],
    };
    expect(record(db, id("a/slow"), obs, at(1)).kind).toBe("slowed_down");
    expect(getServerDetail(db, "a/slow")!.schedule.consecutiveFailures).toBe(0);
  });
});
