// Operated alerts end to end: a real SQLite file, a real round against a loopback MCP server, a real loopback
// webhook receiver, the real /api/status handler, and a restart (new db handle, new clock) in the middle.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { health, status } from "@/app/api/_lib/handlers";
import { closeDb, getDb, openDb, type Db } from "@/db/client";
import { coverageDaily, rounds } from "@/db/schema";
import { startAlertClock, type AlertClock } from "@/lib/rounds/alerts/clock";
import { evaluateAlerts, evaluateCoverage, evaluateCrossRead } from "@/lib/rounds/alerts/evaluate";
import { parseConfig } from "@/lib/config";
import { createAddressPolicy } from "@/lib/probe";
import { startBackground } from "@/lib/rounds/background";
import { runRound } from "@/lib/rounds/round";
import { alertsAtom } from "@/lib/site/alerts-feed";
import { lastRoundFinishedAt, openAlerts, recentAlertEvents, resolvedAlerts } from "@/lib/store/alerts";
import { crossReadCounts, replaceCrossReads, type CrossReadInput } from "@/lib/store/cross-reads";
import { REPROBE_ROUND_TRIGGER, type CrossReadOutcome } from "@/lib/vocabulary/store";
import { getMeta, META_KEYS } from "@/lib/store/meta";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { startSplitServer, tool, type SplitServer } from "../crossread/servers";
import { tempDb } from "../store/helpers";
import { startReceiver, type Receiver } from "../../fixtures/webhook-receiver";

const MIN = 60_000;
const logs: string[] = [];
const log = (l: string) => void logs.push(l);

describe("rounds_stale: opened by the clock, delivered, kept across a restart, resolved by a round", () => {
  let t: ReturnType<typeof tempDb>;
  let receiver: Receiver;
  let mcp: SplitServer;
  const t0 = Date.parse("2026-11-30T08:00:00.000Z");
  let clock = t0;
  const clocks: AlertClock[] = [];
  const startClock = (db: Db) => {
    const c = startAlertClock(
      {
        db,
        staleMinutes: 120,
        webhookUrl: receiver.url,
        siteUrl: "https://status.example",
        crossRead: null,
        webhookBackoffMs: 10_000,
        now: () => new Date(clock),
        log,
      },
      3_600_000,
    );
    clocks.push(c);
    return c;
  };

  beforeAll(async () => {
    t = tempDb("alerts-");
    receiver = await startReceiver();
    mcp = await startSplitServer({ discover: "legacy400", initialize: true, legacyTools: [tool("echo", "Echoes.")] });
    applyRegistrySnapshot(
      t.db,
      [
        {
          name: "io.test/one",
          title: null,
          description: null,
          version: "1",
          url: mcp.url,
          transport: "streamable-http",
          host: mcp.host,
          needsConfig: null,
          registryUpdatedAt: null,
        },
      ],
      new Date(t0).toISOString(),
    );
  });

  afterAll(async () => {
    for (const c of clocks) c.stop();
    await receiver.close();
    await mcp.close();
    t.cleanup();
  });

  test("the whole life of one alert", async () => {
    let db = t.db;
    const first = startClock(db);
    await first.tick();
    expect(status(db, new Date(clock)).status).toBe(200);

    // 121 minutes without a finished round: the alert opens; the receiver is down for the first POST.
    clock = t0 + 121 * MIN;
    receiver.failNext = 1;
    await first.tick();
    expect(openAlerts(db).map((a) => a.kind)).toEqual(["rounds_stale"]);
    expect(receiver.bodies).toEqual([]);
    expect(logs.some((l) => l.includes("webhook failed") && l.includes("HTTP 500"))).toBe(true);

    // Back-off: nothing is retried before 10 s have passed, then the retry gets through.
    clock += 5_000;
    await first.tick();
    expect(receiver.bodies).toHaveLength(0);
    clock += 6_000;
    await first.tick();
    expect(receiver.bodies).toHaveLength(1);
    const opened = receiver.bodies[0]!;
    expect(opened.text).toMatch(/^mcp-status alert rounds_stale \(rounds are stale\) opened: no round has finished in the 121 minutes/);
    expect(opened.text.split(/\.\s/)).toHaveLength(1);
    expect(opened.alert).toMatchObject({
      kind: "rounds_stale",
      state: "open",
      since: new Date(t0 + 121 * MIN).toISOString(),
      url: "https://status.example/coverage",
    });

    let res = status(db, new Date(clock));
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({
      lastRoundFinishedAt: null,
      alerts: [{ kind: "rounds_stale", since: new Date(t0 + 121 * MIN).toISOString() }],
    });
    // /api/health stays plain liveness.
    expect(health(db).status).toBe(200);

    // Restart: a new database handle and a new clock. The alert is still open and is not delivered again.
    first.stop();
    closeDb(db);
    db = openDb(t.file);
    t.db = db;
    const second = startClock(db);
    await second.tick();
    clock += 30 * MIN;
    await second.tick();
    expect(openAlerts(db).map((a) => a.kind)).toEqual(["rounds_stale"]);
    expect(receiver.bodies).toHaveLength(1);
    expect(status(db, new Date(clock)).status).toBe(503);

    // A round finishes: its end judges the alerts, and the clock delivers the resolution.
    const summary = await runRound({
      db,
      addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
      robots: false,
      trigger: "test",
      now: () => new Date(clock),
      log,
      onFinished: () => void second.tick(),
    });
    expect(summary).toMatchObject({ status: "done", read: 1 });
    await second.tick();
    expect(openAlerts(db)).toEqual([]);
    expect(resolvedAlerts(db)[0]).toMatchObject({ kind: "rounds_stale", resolvedAt: new Date(clock).toISOString() });
    expect(receiver.bodies).toHaveLength(2);
    expect(receiver.bodies[1]!.text).toMatch(/^mcp-status alert rounds_stale \(rounds are stale\) resolved: a round finished at /);
    expect(receiver.bodies[1]!.alert).toMatchObject({
      kind: "rounds_stale",
      state: "resolved",
      since: new Date(t0 + 121 * MIN).toISOString(),
    });

    res = status(db, new Date(clock));
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after).toMatchObject({
      lastRoundFinishedAt: new Date(clock).toISOString(),
      coverage: { today: 1, median7d: null },
      crossRead: null,
      alerts: [],
    });

    // The feed carries both events, newest first, with the webhook's sentences.
    const xml = alertsAtom({ origin: "https://status.example", events: recentAlertEvents(db), now: new Date(clock) });
    expect(xml.indexOf("resolved: a round finished")).toBeLessThan(xml.indexOf("opened: no round has finished"));
    fs.mkdirSync(path.resolve("test-results"), { recursive: true });
    fs.writeFileSync(
      path.resolve("test-results/alerts-capture.json"),
      JSON.stringify({ statusWhileOpen: body, statusAfter: after, webhook: receiver.bodies }, null, 2),
    );
  }, 60_000);
});

describe("coverage_drop and cross_read open and resolve on later days", () => {
  let t: ReturnType<typeof tempDb>;
  beforeAll(() => {
    t = tempDb("alerts-days-");
  });
  afterAll(() => t.cleanup());

  test("coverage_drop opens on a day clearly below the 7-day median and resolves when a later day is back", () => {
    const { db } = t;
    const days = [100, 100, 100, 100, 100, 100, 100, 80, 90, 99];
    db.insert(coverageDaily)
      .values(
        days.map((n, i) => ({
          day: `2026-11-${String(i + 1).padStart(2, "0")}`,
          serversRead: n,
          serversAttempted: 100,
          requests: n,
          requestsOk: n,
        })),
      )
      .run();
    // Nov 8 (80) opens it; Nov 9 (90) is still low; Nov 10 (99) is back.
    evaluateCoverage(db, new Date("2026-11-09T01:00:00Z"), log);
    expect(openAlerts(db)).toMatchObject([{ kind: "coverage_drop", day: "2026-11-08", value: 80, baseline: 100 }]);
    evaluateCoverage(db, new Date("2026-11-10T01:00:00Z"), log);
    expect(openAlerts(db)).toHaveLength(1);
    evaluateCoverage(db, new Date("2026-11-11T01:00:00Z"), log);
    expect(openAlerts(db)).toEqual([]);
    expect(resolvedAlerts(db)[0]).toMatchObject({
      kind: "coverage_drop",
      day: "2026-11-08",
      resolvedMessage: "Coverage is back: 99 servers read on 2026-11-10 (7-day median 100).",
    });
  });

  test("cross_read opens above 5% disagreement (at least 3 servers) and resolves with a later day below it", () => {
    const { db } = t;
    applyRegistrySnapshot(
      db,
      Array.from({ length: 40 }, (_, i) => ({
        name: `io.x/s${i}`,
        title: null,
        description: null,
        version: "1",
        url: `https://h${i}.example/mcp`,
        transport: "streamable-http" as const,
        host: `h${i}.example`,
        needsConfig: null,
        registryUpdatedAt: null,
      })),
      "2026-11-01T00:00:00Z",
    );
    const ids = db.$client.prepare("select id from servers order by id").all() as { id: number }[];
    const day = (outcomes: CrossReadOutcome[]): CrossReadInput[] =>
      outcomes.map((outcome, i) => ({
        serverId: ids[i]!.id,
        outcome,
        paths: [],
        detail: null,
        crossToolCount: null,
        probeToolCount: null,
        readAt: "2026-11-20T00:00:00Z",
      }));
    const many = (n: number, o: CrossReadOutcome) => Array<CrossReadOutcome>(n).fill(o);
    // 2 of 40 (5%) is not above the threshold; 3 only_cross_reader of 40 (7.5%) is.
    replaceCrossReads(db, "2026-11-20", day([...many(2, "disagreed"), ...many(38, "agreed")]));
    evaluateCrossRead(db, new Date("2026-11-20T06:00:00Z"), log);
    expect(openAlerts(db).filter((a) => a.kind === "cross_read")).toEqual([]);
    replaceCrossReads(db, "2026-11-21", day([...many(3, "only_cross_reader"), ...many(35, "agreed"), ...many(2, "neither")]));
    evaluateCrossRead(db, new Date("2026-11-21T06:00:00Z"), log);
    expect(openAlerts(db).filter((a) => a.kind === "cross_read")).toMatchObject([
      { day: "2026-11-21", message: expect.stringContaining("3 of 38 servers") },
    ]);
    replaceCrossReads(db, "2026-11-22", day([...many(1, "disagreed"), ...many(39, "agreed")]));
    evaluateCrossRead(db, new Date("2026-11-22T06:00:00Z"), log);
    expect(openAlerts(db).filter((a) => a.kind === "cross_read")).toEqual([]);
    expect(resolvedAlerts(db)[0]).toMatchObject({ kind: "cross_read", day: "2026-11-21" });
    // architecture.md §6: differences the probe's own rules explain are not counted. Ten only_cross_reader servers, all behind a
    // 5xx on server/discover or a slow-down, and one unexplained: no alert.
    const explained = (n: number): CrossReadInput[] =>
      day(many(n, "only_cross_reader")).map((r, i) => ({
        ...r,
        explanation: i % 2 ? { rule: "slow_down", code: null } : { rule: "discover_server_error", code: 500 },
      }));
    replaceCrossReads(db, "2026-11-23", [
      ...explained(10),
      ...day([...many(11, "agreed"), "only_cross_reader", ...many(28, "agreed")]).slice(10),
    ]);
    expect(crossReadCounts(db, "2026-11-23")).toMatchObject({ only_cross_reader: 11, explained: 10 });
    evaluateCrossRead(db, new Date("2026-11-23T06:00:00Z"), log);
    expect(openAlerts(db).filter((a) => a.kind === "cross_read")).toEqual([]);
    // The same day without explanations would open it.
    replaceCrossReads(db, "2026-11-24", day([...many(11, "only_cross_reader"), ...many(29, "agreed")]));
    evaluateCrossRead(db, new Date("2026-11-24T06:00:00Z"), log);
    expect(openAlerts(db).filter((a) => a.kind === "cross_read")).toMatchObject([
      { day: "2026-11-24", message: expect.stringContaining("11 of 40 servers") },
    ]);
  });

  test("a restarted process keeps open alerts and opens no duplicate", () => {
    const t2 = tempDb("alerts-restart-");
    try {
      evaluateAlerts(t2.db, new Date("2026-11-30T00:00:00Z"), { staleMinutes: 120, log });
      evaluateAlerts(t2.db, new Date("2026-11-30T03:00:00Z"), { staleMinutes: 120, log });
      closeDb(t2.db);
      t2.db = openDb(t2.file);
      evaluateAlerts(t2.db, new Date("2026-11-30T04:00:00Z"), { staleMinutes: 120, log });
      expect(openAlerts(t2.db)).toMatchObject([{ kind: "rounds_stale", createdAt: "2026-11-30T03:00:00.000Z" }]);
    } finally {
      t2.cleanup();
    }
  });
});

describe("what counts as a finished round", () => {
  test("a one-server re-probe from a server page neither resolves nor prevents rounds_stale", () => {
    const t = tempDb("alerts-reprobe-");
    try {
      const done = (trigger: string, at: string) =>
        t.db.insert(rounds).values({ startedAt: at, finishedAt: at, status: "done", trigger }).run();
      done("scheduler", "2026-11-30T00:00:00.000Z");
      done(REPROBE_ROUND_TRIGGER, "2026-11-30T02:30:00.000Z");
      expect(lastRoundFinishedAt(t.db)).toBe("2026-11-30T00:00:00.000Z");
      evaluateAlerts(t.db, new Date("2026-11-30T02:31:00Z"), { staleMinutes: 120, log });
      expect(openAlerts(t.db).map((a) => a.kind)).toEqual(["rounds_stale"]);
      done("api", "2026-11-30T02:40:00.000Z");
      evaluateAlerts(t.db, new Date("2026-11-30T02:41:00Z"), { staleMinutes: 120, log });
      expect(openAlerts(t.db)).toEqual([]);
    } finally {
      t.cleanup();
    }
  });
});

describe("the site process runs the alert clock", () => {
  test("with PROBE_SCHEDULE empty, startBackground still starts the clock and it evaluates at once", async () => {
    const t = tempDb("alerts-bg-");
    const config = parseConfig({
      DATABASE_PATH: path.join(t.dir, "bg.db"),
      PROBE_SCHEDULE: "",
      REGISTRY_URL: "http://127.0.0.1:9",
      CROSS_READ_SAMPLE: "0",
      ALERT_STALE_MINUTES: "30",
    });
    const lines: string[] = [];
    const bg = await startBackground(config, (l) => lines.push(l));
    try {
      expect(bg.scheduler).toBeNull();
      expect(bg.alerts).toBeDefined();
      expect(getMeta(getDb(config), META_KEYS.alertsWatchedSince)).not.toBeNull();
      expect(lines).toContain("[alerts] clock started: rounds_stale after 30 min, webhook off, cross-read sample 0");
    } finally {
      bg.stop();
      closeDb(getDb(config));
      t.cleanup();
    }
  });

  test("the configuration defaults: 120 minutes, a sample of 200, no webhook", () => {
    expect(parseConfig({ REGISTRY_URL: "https://r.example" })).toMatchObject({
      alertStaleMinutes: 120,
      crossReadSample: 200,
      alertWebhookUrl: undefined,
    });
    expect(() => parseConfig({ ALERT_WEBHOOK_URL: "not a url" })).toThrow(/ALERT_WEBHOOK_URL/);
  });
});
