import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { postReprobe, type ReprobeDeps } from "@/app/api/_lib/reprobe";
import { judge } from "@/lib/checks";
import { createAddressPolicy } from "@/lib/probe";
import type { Exchange, ProbeObservation } from "@/lib/probe/types";
import { persistRun } from "@/lib/rounds/persist";
import { startRoundAfterReprobes } from "@/lib/rounds/reprobe";
import { REPROBE_ROUND_TRIGGER as REPROBE_TRIGGER } from "@/lib/vocabulary/store";
import { runRound } from "@/lib/rounds/round";
import { acquireRoundLock, finishRound } from "@/lib/store/rounds";
import { probeTimings } from "@/lib/rounds/timings";
import { latencyBadgeSpec, resolveBadgeQuery } from "@/lib/site/badge-route";
import { serverHistory } from "@/app/_lib/history";
import { percentile, responseTimes, stripDays } from "@/lib/site/history";
import { FORM_KEY_META, issueFormToken, newFormKey, verifyFormToken } from "@/lib/site/reprobe-form";
import { historyDays, stateChanges, worstDiscoveryState } from "@/lib/store/history";
import { addOptOut } from "@/lib/store/optouts";
import { metaOnce, reprobeStatus, requestReprobe } from "@/lib/store/reprobe";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { pruneOldRuns } from "@/lib/store/runs";
import { listedServer } from "../store/listed";
import { startZooServer } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function setup(urls: string[], now = "2026-11-01T00:00:00.000Z") {
  const t = tempDb();
  cleanups.push(t.cleanup);
  applyRegistrySnapshot(
    t.db,
    urls.map((url, i) => listedServer(`t/s${i}`, url)),
    now,
  );
  const id = (i: number) => (t.db.$client.prepare("select id from servers where name = ?").get(`t/s${i}`) as { id: number }).id;
  return { db: t.db, id };
}

const ex = (seq: number, phase: Exchange["phase"], durationMs: number, status?: number): Exchange => ({
  seq,
  phase,
  method: "POST",
  url: "https://s0.example/mcp",
  requestHeaders: {},
  responseHeaders: {},
  durationMs,
  ...(status ? { status, bodyExcerpt: "{}" } : { error: "timeout" }),
});

function healthy(at: Date, hsMs: number, tlMs: number): ProbeObservation {
  return {
    url: "https://s0.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: new Date(at.getTime() + hsMs + tlMs).toISOString(),
    era: "modern",
    handshake: { kind: "modern", protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], seq: 1 },
    toolsList: { kind: "complete", tools: [{ name: "a", inputSchema: { type: "object" } }], pages: 2, malformed: [], seqs: [2, 3] },
    toolCall: {
      kind: "answered",
      status: 200,
      shape: { type: "jsonrpc_error", code: -32602, message: "Unknown tool", transport: "json" },
      seq: 4,
    },
    authMetadata: { kind: "no_challenge" },
    exchanges: [
      ex(1, "discover", hsMs, 200),
      ex(2, "tools_list", tlMs / 2, 200),
      ex(3, "tools_list", tlMs / 2, 200),
      ex(4, "tools_call", 3, 200),
    ],
  };
}

function down(at: Date): ProbeObservation {
  return {
    url: "https://s0.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: at.toISOString(),
    era: "unknown",
    handshake: { kind: "failed", cause: "timeout after 10000 ms (headers)", seq: 1 },
    exchanges: [ex(1, "discover", 10_000)],
  };
}

const record = (db: ReturnType<typeof setup>["db"], serverId: number, obs: ProbeObservation, now: Date) =>
  persistRun(db, { serverId, roundId: null, obs, results: judge(obs), skipped: false, now });

describe("response times and the daily rollup", () => {
  test("a step's time is the sum of its answered exchanges; a step with no answer has none", () => {
    expect(probeTimings(healthy(new Date(), 140, 80))).toEqual({ handshakeMs: 140, toolsListMs: 80 });
    expect(probeTimings(down(new Date()))).toEqual({ handshakeMs: null, toolsListMs: null });
    // The look at the other transport after a failed handshake (architecture.md §2.8) is no step of the handshake.
    const checked: ProbeObservation = {
      ...down(new Date()),
      exchanges: [ex(1, "discover", 10_000), ex(2, "discover", 30, 200), ex(3, "initialize", 40, 200)],
      transportCheck: { transport: "sse", answered: false, seqs: [2, 3] },
    };
    expect(probeTimings(checked)).toEqual({ handshakeMs: null, toolsListMs: null });
  });

  test("runs carry their times and a day keeps its worst discovery state after the runs are pruned", () => {
    const { db, id } = setup(["https://s0.example/mcp"]);
    const t0 = new Date("2026-11-02T08:00:00.000Z");
    record(db, id(0), healthy(t0, 100, 40), t0);
    const t1 = new Date("2026-11-02T14:00:00.000Z");
    record(db, id(0), down(t1), t1);
    const t2 = new Date("2026-11-02T20:00:00.000Z");
    const last = record(db, id(0), healthy(t2, 300, 60), t2);
    const runs = db.$client.prepare("select handshake_ms as hs, tools_list_ms as tl from runs order by id").all();
    expect(runs).toEqual([
      { hs: 100, tl: 40 },
      { hs: null, tl: null },
      { hs: 300, tl: 60 },
    ]);

    const day = historyDays(db, ["t/s0"], "2026-11-01").get("t/s0")!;
    expect(day).toEqual([{ day: "2026-11-02", state: "failed", probes: 3, runId: last.runId, handshakeMsAvg: 200, toolsListMsAvg: 50 }]);

    // A quiet run the next day (no state change), then 40 days on it is pruned: the day stays, its run link goes.
    const quiet = new Date("2026-11-03T08:00:00.000Z");
    record(db, id(0), healthy(quiet, 100, 40), quiet);
    const t3 = new Date("2026-12-12T08:00:00.000Z");
    record(db, id(0), healthy(t3, 90, 30), t3);
    expect(pruneOldRuns(db, "2026-11-12T00:00:00.000Z")).toBe(1);
    const after = historyDays(db, ["t/s0"], "2026-09-14").get("t/s0")!;
    expect(after.map((d) => [d.day, d.state, d.runId === null])).toEqual([
      ["2026-11-02", "failed", false],
      ["2026-11-03", "verified", true],
      ["2026-12-12", "verified", false],
    ]);
    const strip = stripDays(after, t3);
    expect(strip).toHaveLength(90);
    expect(strip[89]).toMatchObject({ day: "2026-12-12", state: "verified", probes: 1 });
    expect(strip.filter((d) => d.state === null)).toHaveLength(87);
  });

  test("the worst discovery state orders failed, observed risk, not checked, verified", () => {
    expect(worstDiscoveryState({ handshake: "verified", protocol_version: "verified", tools_list: "observed_risk" })).toBe("observed_risk");
    expect(worstDiscoveryState({ handshake: "not_checked", protocol_version: "failed", tools_list: "not_checked" })).toBe("failed");
    expect(worstDiscoveryState({ handshake: "verified", tools_list: "not_checked", error_taxonomy: "failed" })).toBe("not_checked");
  });

  test("p50 and p95 over 24 hours and 30 days, and the latency badge", () => {
    const now = new Date("2026-11-30T12:00:00.000Z");
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();
    const samples = [
      ...Array.from({ length: 20 }, (_, i) => ({ startedAt: at(48 + i), handshakeMs: 1000 + i, toolsListMs: null })),
      ...Array.from({ length: 20 }, (_, i) => ({ startedAt: at(1 + i / 2), handshakeMs: 100 + i * 10, toolsListMs: 50 })),
    ];
    const t = responseTimes(samples, now);
    expect(t.last24h.handshake).toEqual({ p50: 190, p95: 280, samples: 20 });
    expect(t.last30d.handshake.samples).toBe(40);
    expect(t.last30d.handshake.p95).toBe(1017);
    expect(t.last24h.toolsList).toEqual({ p50: 50, p95: 50, samples: 20 });
    expect(percentile([], 50)).toBeNull();
    expect(latencyBadgeSpec(t)).toEqual({ label: "MCP handshake p95", message: "280 ms (24 h)", color: "#2e7d32" });
    expect(latencyBadgeSpec(null).message).toBe("unknown");
    const bad = resolveBadgeQuery(new URLSearchParams("metric=speed"), { states: () => null, latency: () => t, uptime: () => null });
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining("latency") });
  });
});

describe("probe again now", () => {
  const limits = { minMinutes: 15, hourlyCap: 3 };

  test("five requests for one server: one queued, four refused until 15 minutes passed; the hourly cap holds across servers", () => {
    const { db, id } = setup(["https://a.example/mcp", "https://b.example/mcp", "https://c.example/mcp", "https://d.example/mcp"]);
    const t0 = new Date("2026-11-02T10:00:00.000Z");
    const answers = Array.from({ length: 5 }, (_, i) => requestReprobe(db, "t/s0", new Date(t0.getTime() + i * 60_000), limits));
    expect(answers.filter((a) => a.queued)).toHaveLength(1);
    expect(answers.slice(1)).toEqual(Array(4).fill({ queued: false, refusal: "server_recent", retryAt: "2026-11-02T10:15:00.000Z" }));
    const due = db.$client.prepare("select next_due_at as d from servers where id = ?").get(id(0)) as { d: string };
    expect(due.d).toBe(t0.toISOString());

    expect(requestReprobe(db, "t/s1", new Date("2026-11-02T10:05:00.000Z"), limits).queued).toBe(true);
    expect(requestReprobe(db, "t/s2", new Date("2026-11-02T10:06:00.000Z"), limits).queued).toBe(true);
    expect(requestReprobe(db, "t/s3", new Date("2026-11-02T10:07:00.000Z"), limits)).toEqual({
      queued: false,
      refusal: "global_cap",
      retryAt: "2026-11-02T11:00:00.000Z",
    });
    expect(requestReprobe(db, "t/s3", new Date("2026-11-02T11:00:01.000Z"), limits).queued).toBe(true);
    expect(requestReprobe(db, "nobody/none", t0, limits)).toEqual({ queued: false, refusal: "unknown_server" });
    db.$client.prepare("update servers set left_registry_at = ? where id = ?").run(t0.toISOString(), id(1));
    expect(requestReprobe(db, "t/s1", new Date("2026-11-02T13:00:00.000Z"), limits)).toEqual({ queued: false, refusal: "left_registry" });
  });

  test("the form token is bound to the server and expires", () => {
    const key = newFormKey();
    const now = new Date("2026-11-02T10:00:00.000Z");
    const token = issueFormToken(key, "t/s0", now);
    expect(verifyFormToken(key, "t/s0", token, new Date(now.getTime() + 3_600_000))).toBe(true);
    expect(verifyFormToken(key, "t/s1", token, now)).toBe(false);
    expect(verifyFormToken(key, "t/s0", token, new Date(now.getTime() + 3 * 3_600_000))).toBe(false);
    expect(verifyFormToken(newFormKey(), "t/s0", token, now)).toBe(false);
    expect(verifyFormToken(key, "t/s0", "123.abc", now)).toBe(false);
  });

  test("the handler refuses cross-site posts, redirects with the outcome, and starts one probe per accepted request", async () => {
    const { db } = setup(["https://a.example/mcp"]);
    const now = new Date();
    const started: number[] = [];
    const deps: ReprobeDeps = { db, now: () => now, limits, start: (id) => void started.push(id) };
    const token = issueFormToken(metaOnce(db, FORM_KEY_META, newFormKey), "t/s0", now);
    const post = (headers: Record<string, string>, fields: Record<string, string> = { server: "t/s0", token }) =>
      postReprobe(new Request("http://127.0.0.1:3000/api/reprobe", { method: "POST", headers, body: new URLSearchParams(fields) }), deps);

    const evil = await post({ origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain("Sec-Fetch-Site is cross-site");
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ "sec-fetch-site": "same-site" })).status).toBe(403);
    const stale = await post({ origin: "http://127.0.0.1:3000" }, { server: "t/s0", token: "1.xyz" });
    expect(stale.status).toBe(303);
    expect(stale.headers.get("location")).toBe("/servers/t/s0?reprobe=form_expired#reprobe");
    expect(started).toEqual([]);

    const ok = await post({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/servers/t/s0?reprobe=queued#reprobe");
    const again = await post({ origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" });
    expect(again.headers.get("location")).toMatch(/^\/servers\/t\/s0\?reprobe=server_recent&retry=.+#reprobe$/);
    // A post from the Chinese page leads back to it; an unknown language is refused like any malformed form.
    const zh = await post({ origin: "http://127.0.0.1:3000" }, { server: "t/s0", token, lang: "zh" });
    expect(zh.headers.get("location")).toMatch(/^\/zh\/servers\/t\/s0\?reprobe=server_recent&retry=.+#reprobe$/);
    expect((await post({ origin: "http://127.0.0.1:3000" }, { server: "t/s0", token, lang: "fr" })).status).toBe(400);
    expect(started).toHaveLength(1);
    expect((await post({}, { server: "nobody/none", token })).status).toBe(303);
  });

  test("a one-server round probes only that server, and an opted-out host gets no request at all", async () => {
    const hits: string[] = [];
    const recorder = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => recorder.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise((r) => recorder.close(r)));
    const zoo = await startZooServer("modern-healthy-paged");
    cleanups.push(() => zoo.close());
    const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}/mcp`;
    const { db, id } = setup([recorderUrl, zoo.url, "https://never.example/mcp"]);
    addOptOut(db, { host: new URL(recorderUrl).host, reason: "operator asked", source: "operator", since: new Date().toISOString() });
    const deps = { db, addressPolicy: createAddressPolicy({ allowPrivate: true }), log: () => undefined, trigger: "reprobe" };

    for (const i of [0, 1]) expect(requestReprobe(db, `t/s${i}`, new Date(), limits).queued).toBe(true);
    const opted = await runRound({ ...deps, serverIds: [id(0)] });
    expect(opted).toMatchObject({ status: "done", probed: 1, skipped: 1 });
    expect(hits).toEqual([]);
    const status = reprobeStatus(db, id(0), limits);
    expect(status?.probe).toMatchObject({ requests: 0 });

    const round = await runRound({ ...deps, serverIds: [id(1)] });
    expect(round).toMatchObject({ status: "done", probed: 1, read: 1 });
    expect(zoo.log.length).toBeGreaterThan(0);
    expect(reprobeStatus(db, id(1), limits)?.probe?.requests).toBeGreaterThan(0);
    const h = serverHistory(db, "t/s1", new Date())!;
    expect(h.days[89]).toMatchObject({ state: "verified", probes: 1 });
    expect(h.responseTimes.last24h.handshake.samples).toBe(1);
    // The third server was due too, and nothing probed it.
    expect(db.$client.prepare("select count(*) as n from runs where server_id = ?").get(id(2))).toEqual({ n: 0 });
    expect(stateChanges(db, { serverId: id(1), limit: 10 }).map((c) => c.check)).toContain("handshake");
  });

  test("a scheduled round waits for a one-server re-probe to finish instead of skipping its tick, but not for another round", async () => {
    const { db } = setup(["https://a.example/mcp"]);
    const deps = {
      db,
      addressPolicy: createAddressPolicy({ allowPrivate: true }),
      log: () => undefined,
      trigger: "scheduler",
      serverIds: [],
    };
    const hold = (trigger: string) => acquireRoundLock(db, { holder: "other", trigger, now: new Date(), staleMs: 60_000 });
    const release = (roundId: number) => finishRound(db, roundId, "other", { now: new Date(), status: "done", progress: {} });

    const api = hold("api");
    if (!api.acquired) throw new Error("lock not taken");
    const t0 = Date.now();
    expect(await startRoundAfterReprobes(deps, { pollMs: 20, maxWaitMs: 2_000 })).toMatchObject({ started: false, roundId: api.roundId });
    expect(Date.now() - t0).toBeLessThan(500);
    release(api.roundId);

    const reprobe = hold(REPROBE_TRIGGER);
    if (!reprobe.acquired) throw new Error("lock not taken");
    setTimeout(() => release(reprobe.roundId), 300);
    const r = await startRoundAfterReprobes(deps, { pollMs: 20, maxWaitMs: 5_000 });
    expect(r.started).toBe(true);
    if (r.started) expect((await r.done).status).toBe("done");
  });
});
