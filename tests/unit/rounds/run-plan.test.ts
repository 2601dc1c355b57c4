import { describe, expect, test } from "vitest";
import { judge } from "@/lib/checks";
import type { ProbeObservation } from "@/lib/probe/types";
import { planRun, type PersistInput, type RunBefore, type RunKind } from "@/lib/rounds/persist";
import { canonicalToolList, hashToolList } from "@/lib/rounds/tool-history";
import { down, ex, healthy, tool, withList } from "./observations";

// planRun decides what a run means before anything is written: a table of runs and what each is counted as,
// how it is scheduled, and which incident, tool and coverage rows it asks for.

const now = new Date(Date.UTC(2026, 10, 3, 12));
const tools = [tool("search", "Finds things")];
const toolsHash = hashToolList(canonicalToolList(tools));

type Prev = "new" | "same_as_healthy" | "failed_with_incident";

function before(obs: ProbeObservation, prev: Prev): RunBefore {
  const list = obs.toolsList?.kind === "complete" && !obs.blocked ? obs.toolsList.tools : null;
  const canon = list && canonicalToolList(list);
  const healthyStates = judge(healthy(now, tools)).map((r) => ({ check: r.check, state: r.state, since: "2026-11-01T00:00:00.000Z" }));
  const failedStates = judge(down(now)).map((r) => ({ check: r.check, state: r.state, since: "2026-11-01T00:00:00.000Z" }));
  return {
    prev: {
      id: 1,
      name: "a/server",
      consecutiveFailures: prev === "failed_with_incident" ? 2 : 0,
      unchangedStreak: prev === "same_as_healthy" ? 3 : 0,
      currentToolHash: prev === "new" ? null : toolsHash,
      lastRunId: prev === "new" ? null : 41,
      lastSuccessAt: null,
      checks: prev === "new" ? [] : prev === "same_as_healthy" ? healthyStates : failedStates,
    },
    openIncident: prev === "failed_with_incident" ? 7 : null,
    tools: canon && { canon, hash: hashToolList(canon), old: null },
    observationCodes: canon && [],
  };
}

const input = (obs: ProbeObservation, skipped = false): PersistInput => ({
  serverId: 1,
  roundId: 3,
  obs,
  results: judge(obs),
  skipped,
  now,
  ...(obs.blocked?.kind === "opted_out" ? { optOutSource: "operator" as const } : {}),
});

const challenge = { phase: "tools_list" as const, status: 401, challenges: [{ scheme: "Bearer", params: { realm: "x" } }], seq: 2 };
const slow = { phase: "discover" as const, status: 429, retryAfterSeconds: 120, seq: 1 };
const optedOut: ProbeObservation = {
  ...down(now),
  handshake: undefined,
  blocked: { kind: "opted_out", host: "s0.example", reason: "asked by mail" },
  exchanges: [],
};

const cases: {
  name: string;
  obs: ProbeObservation;
  prev: Prev;
  skipped?: boolean;
  kind: RunKind;
  outcome: string;
  incident: "open" | "close" | null;
  transitions: "none" | "some";
  toolChanges: number | null;
  coverage: { read: boolean } | null;
}[] = [
  {
    name: "a first complete read",
    obs: healthy(now, tools),
    prev: "new",
    kind: "read",
    outcome: "healthy",
    incident: null,
    transitions: "some",
    toolChanges: null,
    coverage: { read: true },
  },
  {
    name: "the same complete read again",
    obs: healthy(now, tools),
    prev: "same_as_healthy",
    kind: "read",
    outcome: "healthy",
    incident: null,
    transitions: "none",
    toolChanges: null,
    coverage: { read: true },
  },
  {
    name: "a complete read that closes the open incident",
    obs: healthy(now, tools),
    prev: "failed_with_incident",
    kind: "read",
    outcome: "healthy",
    incident: "close",
    transitions: "some",
    toolChanges: null,
    coverage: { read: true },
  },
  {
    name: "a changed tool list",
    obs: healthy(now, [...tools, tool("fetch", "Fetches things")]),
    prev: "same_as_healthy",
    kind: "read",
    outcome: "healthy",
    incident: null,
    transitions: "none",
    toolChanges: 2,
    coverage: { read: true },
  },
  {
    name: "a refused connection",
    obs: down(now),
    prev: "same_as_healthy",
    kind: "failed",
    outcome: "failed",
    incident: "open",
    transitions: "some",
    toolChanges: null,
    coverage: { read: false },
  },
  {
    name: "a refused connection while the incident is open",
    obs: down(now),
    prev: "failed_with_incident",
    kind: "failed",
    outcome: "failed",
    incident: null,
    transitions: "none",
    toolChanges: null,
    coverage: { read: false },
  },
  {
    name: "a tool list behind a credential gate",
    obs: withList(now, { kind: "credential_gate", challenge }),
    prev: "new",
    kind: "gated",
    outcome: "credential_gate",
    incident: null,
    transitions: "some",
    toolChanges: null,
    coverage: { read: false },
  },
  {
    name: "a slow-down at the handshake",
    obs: { ...down(now), handshake: { kind: "slow_down", slowDown: slow }, slowDown: slow, exchanges: [ex(1, "discover", 429)] },
    prev: "new",
    kind: "slowed_down",
    outcome: "slow_down",
    incident: null,
    transitions: "some",
    toolChanges: null,
    coverage: { read: false },
  },
  {
    name: "endless pages",
    obs: withList(now, { kind: "endless", why: "page_cap", tools, pages: 50, seqs: [2] }),
    prev: "new",
    kind: "partly_read",
    outcome: "healthy",
    incident: null,
    transitions: "some",
    toolChanges: null,
    coverage: { read: false },
  },
  {
    name: "an operator opt-out",
    obs: optedOut,
    prev: "same_as_healthy",
    skipped: true,
    kind: "skipped",
    outcome: "opted_out",
    incident: null,
    transitions: "some",
    toolChanges: null,
    coverage: null,
  },
];

describe("planRun decides what a run means before it is written", () => {
  test.each(cases)("$name: counted $kind, scheduled as $outcome", (c) => {
    const b = before(c.obs, c.prev);
    const plan = planRun(input(c.obs, c.skipped), b);
    expect(plan.kind).toBe(c.kind);
    expect(plan.outcome.kind).toBe(c.outcome);
    expect(plan.incident?.kind ?? null).toBe(c.incident);
    if (c.incident === "close") expect(plan.incident).toEqual({ kind: "close", id: 7 });
    expect(plan.transitions.length > 0 ? "some" : "none").toBe(c.transitions);
    expect(plan.run.keepEvidence).toBe(plan.transitions.length > 0);
    expect(plan.tools?.changes?.diff.length ?? null).toBe(c.toolChanges);
    expect(plan.coverage && { read: plan.coverage.read }).toEqual(c.coverage);
    expect(plan.update.lastProbedAt).toBe(c.skipped ? undefined : now.toISOString());
    expect(plan.update.nextDueAt).toBe(plan.schedule.nextDueAt);
    expect(plan.previousRunId).toBe(b.prev.lastRunId);
    // A complete read always leaves its tool list's hash on the server; any other run keeps the one before.
    expect(plan.update.currentToolHash).toBe(b.tools?.hash ?? b.prev.currentToolHash);
  });

  test("planning writes nothing and decides the same twice", () => {
    const obs = healthy(now, tools);
    const b = before(obs, "same_as_healthy");
    expect(planRun(input(obs), b)).toEqual(planRun(input(obs), b));
  });
});
