// npm run bench:round: a real probe round over a loopback fleet of fixture servers, beside a baseline
// prober built on the official SDK v2 client doing connect + listTools with the same concurrency.
//
// Three child processes, so each figure is its own: the fleet (servers + registry), the round
// (runRound → probe → judge → SQLite) and the baseline. This process only orchestrates and prints.
// Environment knobs: BENCH_SERVERS (10000), BENCH_HOSTS (128), PROBE_CONCURRENCY (64), PROBE_HOST_CONCURRENCY (4),
// BENCH_LATENCY_MS / --latency-ms (50: every fleet answer waits this long), BENCH_CROWDED_PERCENT / --crowded-percent
// (30: that share of the servers on one host), BENCH_PROBE_ONLY (1 without latency, else 0), BENCH_KEEP_DB=1,
// BENCH_SITE=0 (no `npm start` on the round's database while it runs), BENCH_REGIONS / --regions (unset: in-process only;
// "3" or "a,b,c": then the same round again on a fresh database through nats-server and one `npm run agent` per region,
// architecture.md §8, with NATS_URL and PROBE_REGIONS set as the site sets them; bench/round-regions.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ChildProcess } from "node:child_process";
import { CHECK_IDS, type CheckId, type CheckState } from "@/lib/vocabulary/checks";
import { ZOO_EXPECTATIONS } from "@/lib/demo/zoo";
import {
  fmt,
  forkTs,
  freePort,
  nextMessage,
  percentile,
  pool,
  printTable,
  printTargets,
  procRss,
  selfRssHighWater,
  sortedNumbers,
  startRssSampler,
  stopChild,
  type TargetRow,
} from "./common";
import { FLEET_MIX, type FleetReady, type FleetServer, type FleetStats } from "./fleet";
import autocannon from "autocannon";
import { serverPath } from "@/lib/site/paths";
import { startNext } from "@/tests/fixtures/next-server";
import { RENDERER_NICENESS } from "@/lib/front/upstream";
import { RUN_ROLES } from "@/lib/vocabulary/regions";
import { benchRegions, compareStates, failureShare, IN_PROCESS_ENV, startBenchRegions, tallyRuns, type RunsTally } from "./round-regions";

const SELF = fileURLToPath(import.meta.url);
const FLEET = path.join(path.dirname(SELF), "fleet.ts");

const SERVERS = Number(process.env.BENCH_SERVERS ?? 10_000);
const HOSTS = Number(process.env.BENCH_HOSTS ?? 128);
const CONCURRENCY = Number(process.env.PROBE_CONCURRENCY ?? 64);
const HOST_CONCURRENCY = Number(process.env.PROBE_HOST_CONCURRENCY ?? 4);
const FLAGS = process.env.BENCH_ROLE
  ? { values: {} as Record<string, string | undefined> }
  : parseArgs({ options: { "latency-ms": { type: "string" }, "crowded-percent": { type: "string" }, regions: { type: "string" } } });
const LATENCY_MS = Number(FLAGS.values["latency-ms"] ?? process.env.BENCH_LATENCY_MS ?? 50);
const CROWDED_PERCENT = Number(FLAGS.values["crowded-percent"] ?? process.env.BENCH_CROWDED_PERCENT ?? 30);
/** Regions of the distributed round; none: only the in-process round. */
const REGIONS = benchRegions(FLAGS.values.regions ?? process.env.BENCH_REGIONS);
/** Like the internet (latency, a crowded host): the round's target is the one of issue 14. */
const INTERNET_LIKE = LATENCY_MS > 0 || CROWDED_PERCENT > 0;
const TARGET_INTERNET_ROUND_MS = 5 * 60_000;
/** Per-server limits for both probers: a healthy fixture answers in milliseconds. */
const DEADLINE_MS = 15_000;
/** BENCH_LIMIT_MINUTES: on a busy shared machine a 10,000-server round with latency can outlast 20 min. */
const WHOLE_RUN_LIMIT_MS = Number(process.env.BENCH_LIMIT_MINUTES ?? 20) * 60_000;

const TARGET_ROUND_MS = 60_000;
const TARGET_RATIO = 2;
const TARGET_RSS = 400 * 1024 * 1024;
/** Distributed mode (issue 29): the site's CPU per server no higher than in-process, wall time at most 1.2×. */
const TARGET_REGIONS_CPU_RATIO = 1;
const TARGET_REGIONS_WALL_RATIO = 1.2;

interface WorkerDone {
  type: "done";
  wallMs: number;
  /** User + system CPU time of the worker process during the run. */
  cpuMs: number;
  rssPeak: number;
  rssHighWater: number;
  rssSamples: number;
}

interface RoundDone extends WorkerDone {
  /** Event-loop delay during the round (perf_hooks), in ms. */
  loopDelay: { p50: number; p99: number; max: number };
  summary: { status: string; due: number; probed: number; read: number; failed: number; gated: number; skipped: number; error?: string };
  /** Probes a region did not answer (the round logs each one): sent, but no run records them. */
  unanswered: number;
}

interface BaselineDone extends WorkerDone {
  times: number[];
  ok: number;
  errors: Record<string, number>;
  /** Per server: whether connect + listTools completed. */
  okByIndex: boolean[];
}

/** Wall time, CPU time and peak RSS of this worker between start and stop: the figures every worker reports. */
function startMeasure() {
  const sampler = startRssSampler(100);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return {
    stop() {
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const rss = sampler.stop();
      return {
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        rssPeak: rss.peak,
        rssHighWater: selfRssHighWater(),
        rssSamples: rss.samples,
      };
    },
  };
}

/** A worker says hello, then the orchestrator sends the fleet's URLs. */
async function receiveUrls(): Promise<string[]> {
  const urlsMessage = nextMessage<{ type: "urls"; urls: string[] }>(process as unknown as ChildProcess, "urls", 60_000);
  process.send!({ type: "hello" });
  return (await urlsMessage).urls;
}

// ---------------------------------------------------------------------------------------------
// Worker: the real round.

async function roundWorker(): Promise<void> {
  const { openDb, closeDb } = await import("@/db/client");
  const { runRound } = await import("@/lib/rounds/round");
  const { getConfig } = await import("@/lib/config");
  const { roundRegionsFrom, closeRegionConnections } = await import("@/lib/rounds/regions");
  // As the site does (background.ts): with NATS_URL and PROBE_REGIONS the round probes through the regions.
  const regions = roundRegionsFrom(getConfig());
  const dbPath = process.env.BENCH_DB!;
  const registryUrl = process.env.BENCH_REGISTRY!;
  const db = openDb(dbPath);
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const measure = startMeasure();
  let probing = false;
  let unanswered = 0;
  const summary = await runRound({
    db,
    registryUrl,
    concurrency: CONCURRENCY,
    hostConcurrency: HOST_CONCURRENCY,
    allowPrivateNetworks: true,
    limits: { deadlineMs: DEADLINE_MS },
    trigger: "bench",
    lockStaleMs: 30 * 60_000,
    ...(regions ? { regions } : {}),
    log: (line) => {
      if (/^\[regions\] \S+ did not answer/.test(line)) unanswered++;
      console.log(`  ${line}`);
    },
    onProgress: () => {
      // The registry is ingested and servers are being written: the site has pages to serve.
      if (!probing) process.send!({ type: "probing" });
      probing = true;
    },
  });
  const measured = measure.stop();
  loop.disable();
  await closeRegionConnections();
  closeDb(db);
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const done: RoundDone = {
    type: "done",
    ...measured,
    loopDelay: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    summary: {
      status: summary.status,
      due: summary.due,
      probed: summary.probed,
      read: summary.read,
      failed: summary.failed,
      gated: summary.gated,
      skipped: summary.skipped,
      error: summary.error,
    },
    unanswered,
  };
  process.send!(done);
}

// ---------------------------------------------------------------------------------------------
// Worker: the baseline on @modelcontextprotocol/client (v2), version negotiation "auto".

async function baselineWorker(): Promise<void> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const urls = await receiveUrls();
  const times = new Array<number>(urls.length).fill(0);
  const okByIndex = new Array<boolean>(urls.length).fill(false);
  const errors: Record<string, number> = {};
  let ok = 0;
  const measure = startMeasure();
  await pool(urls, CONCURRENCY, async (url, i) => {
    const started = performance.now();
    const client = new Client({ name: "mcp-status-bench-baseline", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const deadline = AbortSignal.timeout(DEADLINE_MS);
    try {
      await client.connect(transport, { timeout: DEADLINE_MS, signal: deadline });
      await client.listTools(undefined, { timeout: DEADLINE_MS, signal: deadline });
      ok++;
      okByIndex[i] = true;
    } catch (e) {
      const name = (e as Error)?.constructor?.name ?? "Error";
      errors[name] = (errors[name] ?? 0) + 1;
    } finally {
      await client.close().catch(() => undefined);
      times[i] = performance.now() - started;
    }
  });
  const measured = measure.stop();
  const done: BaselineDone = {
    type: "done",
    ...measured,
    times,
    ok,
    errors,
    okByIndex,
  };
  process.send!(done);
}

// ---------------------------------------------------------------------------------------------
// Worker (informational): the same probe and judges with the same host gate and concurrency, no SQLite,
// to show how the round's time splits between talking to servers and recording the results.

async function probeOnlyWorker(): Promise<void> {
  const { probeServer, createAddressPolicy } = await import("@/lib/probe");
  const { judge } = await import("@/lib/checks");
  const { createHostGate } = await import("@/lib/rounds/host-gate");
  const urls = await receiveUrls();
  const policy = createAddressPolicy({ allowPrivate: true });
  // No queue here: every host may have the crowded limit of requests in flight.
  const gate = createHostGate({ limitOf: () => HOST_CONCURRENCY });
  const times = new Array<number>(urls.length).fill(0);
  const measure = startMeasure();
  await pool(urls, CONCURRENCY, async (url, i) => {
    const started = performance.now();
    const obs = await probeServer(
      { url, transport: "streamable-http" },
      { addressPolicy: policy, hostGate: gate, limits: { deadlineMs: DEADLINE_MS } },
    );
    judge(obs);
    times[i] = performance.now() - started;
  });
  const measured = measure.stop();
  const done: BaselineDone = {
    type: "done",
    ...measured,
    times,
    ok: urls.length,
    errors: {},
    okByIndex: [],
  };
  process.send!(done);
}

// ---------------------------------------------------------------------------------------------
// Orchestrator.

async function runWorker<T extends WorkerDone>(
  role: string,
  env: Record<string, string>,
  send?: unknown,
  onMessage?: (m: { type?: string }) => void,
): Promise<T & { childPeak: number }> {
  // In production the round runs inside the renderer, which `npm start` runs at this lower priority.
  const child = forkTs(SELF, role, env, role === "round" ? RENDERER_NICENESS : 0);
  if (onMessage) child.on("message", (m) => onMessage(m as { type?: string }));
  let childPeak = 0;
  const sampler = setInterval(() => (childPeak = Math.max(childPeak, procRss(child.pid!))), 100);
  try {
    if (send) {
      await nextMessage(child, "hello", 60_000);
      child.send(send as object);
    }
    const done = await nextMessage<T>(child, "done", WHOLE_RUN_LIMIT_MS);
    return { ...done, childPeak };
  } finally {
    clearInterval(sampler);
    await stopChild(child);
  }
}

interface StoredRow {
  name: string;
  durationMs: number;
  states: Record<CheckId, CheckState | null>;
}

async function readStored(dbPath: string): Promise<StoredRow[]> {
  const { openDb, closeDb } = await import("@/db/client");
  const db = openDb(dbPath);
  try {
    const rows = db.$client
      .prepare(
        `select s.name as name, r.duration_ms as durationMs, s.state_handshake as handshake, s.state_protocol_version as protocol_version,
                s.state_tools_list as tools_list, s.state_error_taxonomy as error_taxonomy, s.state_auth_metadata as auth_metadata
           from servers s left join runs r on r.id = s.last_run_id`,
      )
      .all() as (Record<CheckId, CheckState | null> & { name: string; durationMs: number | null })[];
    return rows.map((r) => ({
      name: r.name,
      durationMs: r.durationMs ?? NaN,
      states: Object.fromEntries(CHECK_IDS.map((c) => [c, r[c]])) as Record<CheckId, CheckState | null>,
    }));
  } finally {
    closeDb(db);
  }
}

function matches(server: FleetServer, stored: StoredRow | undefined): boolean {
  const exp = ZOO_EXPECTATIONS[server.behaviour];
  if (!exp || !stored) return false;
  return CHECK_IDS.every((c) => stored.states[c] === exp.states[c]);
}

async function orchestrate(): Promise<void> {
  // Agents and the broker are no children over IPC: a bench that exits early ends them itself.
  let regions: Awaited<ReturnType<typeof startBenchRegions>> | undefined;
  const hardStop = setTimeout(() => {
    console.error(`[bench:round] gave up after ${WHOLE_RUN_LIMIT_MS / 60_000} min`);
    regions?.killNow();
    process.exit(2);
  }, WHOLE_RUN_LIMIT_MS);
  hardStop.unref();
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      regions?.killNow();
      process.exit(code);
    });
  }

  console.log(`[bench:round] ${os.cpus().length} cores, node ${process.version}`);
  console.log(
    `[bench:round] fleet: ${fmt.n(SERVERS)} servers on ${HOSTS}+ loopback hosts (more when the crowded mix needs them to keep the rest under 50 a host); concurrency ${CONCURRENCY} (PROBE_CONCURRENCY); per-server deadline ${DEADLINE_MS} ms`,
  );
  console.log(
    `[bench:round] every answer ${LATENCY_MS} ms late; ${CROWDED_PERCENT}% of the servers on one host (limit ${HOST_CONCURRENCY}, PROBE_HOST_CONCURRENCY)`,
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "bench-round-"));
  const dbPath = path.join(tmp, "round.db");
  // The fleet stands in for servers on the internet, whose CPU is not ours: at the lowest priority it does
  // not take the site's share of a 2-core machine while the site is measured beside the round.
  const fleet = forkTs(
    FLEET,
    "fleet",
    {
      BENCH_FLEET_SERVERS: String(SERVERS),
      BENCH_FLEET_HOSTS: String(HOSTS),
      BENCH_FLEET_LIFETIME_MS: String(WHOLE_RUN_LIMIT_MS),
      BENCH_FLEET_LATENCY_MS: String(LATENCY_MS),
      BENCH_FLEET_CROWDED_PERCENT: String(CROWDED_PERCENT),
    },
    19,
  );
  let fleetPeak = 0;
  const fleetSampler = setInterval(() => (fleetPeak = Math.max(fleetPeak, procRss(fleet.pid!))), 250);
  try {
    const ready = await nextMessage<FleetReady>(fleet, "ready", 180_000);
    console.log(`[bench:round] fleet ready in ${fmt.ms(ready.startMs)}; registry ${ready.registryUrl}`);
    console.log(`[bench:round] mix: ${FLEET_MIX.map((m) => `${m.per100}% ${m.label}`).join(", ")}`);

    const steps = REGIONS.length > 0 ? 3 : 2;
    console.log(`\n[bench:round] 1/${steps} real round (registry → probe → judge → SQLite ${dbPath})`);
    const pages = ready.servers
      .filter((_, i) => i % Math.max(1, Math.floor(ready.servers.length / 200)) === 0)
      .map((s) => serverPath(s.name));
    const { round, siteFigures } = await measuredRound(dbPath, ready.registryUrl, pages, IN_PROCESS_ENV);
    const polite = await roundLines(fleet, ready, round, siteFigures);

    let distributed: Distributed | undefined;
    if (REGIONS.length > 0) {
      const regionsDbPath = path.join(tmp, "regions.db");
      console.log(
        `\n[bench:round] 2/${steps} the same round through ${REGIONS.length} regions (${REGIONS.join(", ")}): nats-server, one \`npm run agent\` per region (nice ${RENDERER_NICENESS}, as the round), NATS_URL and PROBE_REGIONS set for the round; fresh database ${regionsDbPath}`,
      );
      regions = await startBenchRegions(REGIONS, RENDERER_NICENESS);
      try {
        const cpu0 = regions.cpu();
        const measured = await measuredRound(regionsDbPath, ready.registryUrl, pages, regions.env);
        const cpu1 = regions.cpu();
        distributed = {
          ...measured,
          dbPath: regionsDbPath,
          agentsCpuS: cpu1.agents - cpu0.agents,
          brokerCpuS: cpu1.broker - cpu0.broker,
          polite: await roundLines(fleet, ready, measured.round, measured.siteFigures),
        };
      } finally {
        await regions.stop();
        regions = undefined;
      }
    }

    console.log(
      `\n[bench:round] ${steps}/${steps} baseline: @modelcontextprotocol/client ${clientVersion()} connect + listTools, versionNegotiation "auto"`,
    );
    const baseline = await runWorker<BaselineDone>("baseline", {}, { type: "urls", urls: ready.servers.map((s) => s.url) });
    console.log(
      `[bench:round] baseline done in ${fmt.s(baseline.wallMs)}: ${baseline.ok} listed tools, errors ${JSON.stringify(baseline.errors)}`,
    );
    const baselineRequests = await fleetRequests(fleet);

    let probeOnly: (BaselineDone & { childPeak: number }) | undefined;
    if ((process.env.BENCH_PROBE_ONLY ?? (INTERNET_LIKE ? "0" : "1")) !== "0") {
      console.log(`\n[bench:round] (info) probe + judge only, same host gate and concurrency, no SQLite`);
      probeOnly = await runWorker<BaselineDone>("probeonly", {}, { type: "urls", urls: ready.servers.map((s) => s.url) });
      console.log(`[bench:round] probe-only done in ${fmt.s(probeOnly.wallMs)}`);
    }

    const stored = await readStored(dbPath);
    const byName = new Map(stored.map((r) => [r.name, r]));
    const roundTimes = sortedNumbers(stored.map((r) => r.durationMs).filter(Number.isFinite));
    const baseTimes = sortedNumbers(baseline.times);

    // Per slice of the mix: did the round reach the states the zoo expects, and how long each prober took.
    const slices = new Map<string, { n: number; matched: number; rt: number[]; bt: number[]; bok: number }>();
    ready.servers.forEach((s, i) => {
      const st = slices.get(s.label) ?? { n: 0, matched: 0, rt: [], bt: [], bok: 0 };
      const row = byName.get(s.name);
      st.n++;
      if (matches(s, row)) st.matched++;
      if (row && Number.isFinite(row.durationMs)) st.rt.push(row.durationMs);
      st.bt.push(baseline.times[i]!);
      if (baseline.okByIndex[i]) st.bok++;
      slices.set(s.label, st);
    });
    printTable(
      "Per slice of the fleet (round states checked against the zoo's expected states)",
      ["slice", "servers", "round: expected states", "round p50", "baseline p50", "baseline listed tools"],
      [...slices].map(([label, st]) => [
        label,
        fmt.n(st.n),
        `${st.matched}/${st.n}`,
        fmt.ms(percentile(sortedNumbers(st.rt), 50)),
        fmt.ms(percentile(sortedNumbers(st.bt), 50)),
        `${st.bok}/${st.n}`,
      ]),
    );
    const matchedAll = [...slices.values()].reduce((a, s) => a + s.matched, 0);
    // Requests each server's own handler answered, per slice (suite 0.15.0's initialize-first read falls on modern servers only).
    const perServer = (counts: Record<string, number>, label: string) => (counts[label] ?? 0) / Math.max(1, slices.get(label)?.n ?? 0);
    printTable(
      "MCP requests per server, by slice (robots.txt and metadata hosts left out)",
      ["slice", "round", "SDK v2 baseline"],
      [...slices.keys()].map((label) => [
        label,
        perServer(polite.bySlice, label).toFixed(2),
        perServer(baselineRequests, label).toFixed(2),
      ]),
    );
    const sum = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
    const roundRequestsPerServer = sum(polite.bySlice) / SERVERS;
    const baseRequestsPerServer = sum(baselineRequests) / SERVERS;

    const roundRate = (round.summary.probed / round.wallMs) * 1000;
    const baseRate = (SERVERS / baseline.wallMs) * 1000;
    const ratio = baseline.wallMs / round.wallMs;
    const roundRss = Math.max(round.rssPeak, round.rssHighWater, round.childPeak);
    const baseRss = Math.max(baseline.rssPeak, baseline.rssHighWater, baseline.childPeak);
    printTable(
      "Side by side (same fleet, same concurrency)",
      ["prober", "wall", "servers/s", "p50/server", "p99/server", "CPU/server", "peak RSS", "outcome"],
      [
        [
          "mcp-status round",
          fmt.s(round.wallMs),
          fmt.rate(roundRate),
          fmt.ms(percentile(roundTimes, 50)),
          fmt.ms(percentile(roundTimes, 99)),
          fmt.ms(round.cpuMs / SERVERS),
          fmt.mb(roundRss),
          `${round.summary.probed} probed, ${matchedAll}/${SERVERS} states as expected`,
        ],
        [
          "SDK v2 client baseline",
          fmt.s(baseline.wallMs),
          fmt.rate(baseRate),
          fmt.ms(percentile(baseTimes, 50)),
          fmt.ms(percentile(baseTimes, 99)),
          fmt.ms(baseline.cpuMs / SERVERS),
          fmt.mb(baseRss),
          `${baseline.ok} listed tools`,
        ],
        ...(probeOnly
          ? [
              [
                "(info) probe + judge, no SQLite",
                fmt.s(probeOnly.wallMs),
                fmt.rate((SERVERS / probeOnly.wallMs) * 1000),
                fmt.ms(percentile(sortedNumbers(probeOnly.times), 50)),
                fmt.ms(percentile(sortedNumbers(probeOnly.times), 99)),
                fmt.ms(probeOnly.cpuMs / SERVERS),
                fmt.mb(Math.max(probeOnly.rssPeak, probeOnly.rssHighWater, probeOnly.childPeak)),
                "same probe and host gate as the round",
              ],
            ]
          : []),
      ],
    );
    console.log(`fleet process peak RSS (not counted for either prober): ${fmt.mb(fleetPeak)}`);
    console.log(
      "note: the round does more per server than the baseline (tools/call, auth metadata, robots.txt, one SQLite transaction) " +
        "and keeps one request at a time per host; the baseline shares keep-alive connections through the global fetch.",
    );

    const cpuRatio = round.cpuMs / baseline.cpuMs;
    const siteRatio = siteFigures ? siteFigures.duringP99 / siteFigures.idleP99 : NaN;
    const roundTarget = INTERNET_LIKE ? TARGET_INTERNET_ROUND_MS : TARGET_ROUND_MS;
    const rows: TargetRow[] = [
      {
        figure: "round CPU per server vs SDK baseline",
        value: `${fmt.ms(round.cpuMs / SERVERS)} / ${fmt.ms(baseline.cpuMs / SERVERS)} = ${cpuRatio.toFixed(2)}x`,
        target: "<= 1.0x",
        verdict: cpuRatio <= 1 ? "PASS" : "MISS",
      },
      {
        figure: "site p99 during the round vs idle",
        value: siteFigures
          ? `${fmt.ms(siteFigures.duringP99)} / ${fmt.ms(siteFigures.idleP99)} = ${siteRatio.toFixed(2)}x`
          : "not measured",
        target: "<= 2x",
        verdict: siteRatio <= 2 ? "PASS" : "MISS",
      },
      {
        figure: "event-loop delay in the round, p99 / max",
        value: `${fmt.ms(round.loopDelay.p99)} / ${fmt.ms(round.loopDelay.max)}`,
        target: "(info)",
        verdict: "info",
      },
      {
        figure: "round wall time",
        value: fmt.s(round.wallMs),
        target: `<= ${roundTarget / 1000} s`,
        verdict: round.wallMs <= roundTarget ? "PASS" : "MISS",
      },
      // The baseline keeps no per-host bound, so against a crowded host the comparison is only informative.
      {
        figure: "speed vs SDK v2 baseline",
        value: `${ratio.toFixed(2)}x`,
        target: INTERNET_LIKE ? "(info)" : ">= 2x",
        verdict: INTERNET_LIKE ? "info" : ratio >= TARGET_RATIO ? "PASS" : "MISS",
      },
      ...polite.rows,
      { figure: "round peak RSS", value: fmt.mb(roundRss), target: "<= 400 MB", verdict: roundRss <= TARGET_RSS ? "PASS" : "MISS" },
      { figure: "round servers/s", value: fmt.rate(roundRate), target: "(info)", verdict: "info" },
      {
        figure: "round p50 / p99 per server",
        value: `${fmt.ms(percentile(roundTimes, 50))} / ${fmt.ms(percentile(roundTimes, 99))}`,
        target: "(info)",
        verdict: "info",
      },
      {
        figure: "round status",
        value: `${round.summary.status}, ${round.summary.probed}/${SERVERS} probed`,
        target: `done, ${SERVERS}`,
        verdict: round.summary.status === "done" && round.summary.probed === SERVERS ? "PASS" : "MISS",
      },
      { figure: "states as the zoo expects", value: `${matchedAll}/${SERVERS}`, target: "(info)", verdict: "info" },
      {
        figure: "MCP requests per server, round / SDK baseline",
        value: `${roundRequestsPerServer.toFixed(2)} / ${baseRequestsPerServer.toFixed(2)}`,
        target: "(info)",
        verdict: "info",
      },
    ];
    printTargets(
      `bench:round: ${fmt.n(SERVERS)} servers, ${ready.hosts} hosts, concurrency ${CONCURRENCY}, ${os.cpus().length} cores`,
      rows,
    );
    const regionsReport = distributed ? await reportDistributed(distributed, { ...round, dbPath }, stored, matchedAll, ready) : undefined;
    // One line of figures for scripts.
    console.log(
      JSON.stringify({
        bench: "round",
        servers: SERVERS,
        hosts: ready.hosts,
        concurrency: CONCURRENCY,
        cores: os.cpus().length,
        round: {
          status: round.summary.status,
          probed: round.summary.probed,
          wallMs: Math.round(round.wallMs),
          cpuMsPerServer: Number((round.cpuMs / SERVERS).toFixed(3)),
          peakRssMb: Math.round(roundRss / 1024 / 1024),
          p50Ms: percentile(roundTimes, 50),
          p99Ms: percentile(roundTimes, 99),
          statesAsExpected: matchedAll,
          loopDelayMs: round.loopDelay,
        },
        baseline: {
          wallMs: Math.round(baseline.wallMs),
          cpuMsPerServer: Number((baseline.cpuMs / SERVERS).toFixed(3)),
          peakRssMb: Math.round(baseRss / 1024 / 1024),
          ok: baseline.ok,
          requestsBySlice: baselineRequests,
        },
        requestsPerServer: { round: Number(roundRequestsPerServer.toFixed(3)), baseline: Number(baseRequestsPerServer.toFixed(3)) },
        probeOnly: probeOnly
          ? { wallMs: Math.round(probeOnly.wallMs), cpuMsPerServer: Number((probeOnly.cpuMs / SERVERS).toFixed(3)) }
          : null,
        cpuRatioVsBaseline: Number(cpuRatio.toFixed(3)),
        speedRatioVsBaseline: Number(ratio.toFixed(3)),
        site: siteFigures ? { ...siteFigures, ratio: Number(siteRatio.toFixed(2)) } : null,
        latencyMs: LATENCY_MS,
        roundS: Number((round.wallMs / 1000).toFixed(1)),
        baselineS: Number((baseline.wallMs / 1000).toFixed(1)),
        ...polite.json,
        regions: regionsReport ?? null,
        pass: rows.every((r) => r.verdict !== "MISS"),
      }),
    );
  } finally {
    clearInterval(fleetSampler);
    await stopChild(fleet);
    if (process.env.BENCH_KEEP_DB === "1") console.log(`[bench:round] database kept at ${dbPath}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

type MeasuredRound = { round: RoundDone & { childPeak: number }; siteFigures: SiteFigures | undefined };

/** One round in its own process on a fresh database, with `npm start` serving its pages while it runs (unless BENCH_SITE=0). */
async function measuredRound(dbPath: string, registryUrl: string, pages: string[], env: Record<string, string>): Promise<MeasuredRound> {
  const site = process.env.BENCH_SITE === "0" ? undefined : await startSite(dbPath);
  let during: ReturnType<typeof loadSite> | undefined;
  let siteFigures: SiteFigures | undefined;
  try {
    const round = await runWorker<RoundDone>("round", { ...env, BENCH_DB: dbPath, BENCH_REGISTRY: registryUrl }, undefined, (m) => {
      if (m.type === "probing" && site && !during) during = loadSite(site.origin, pages);
    });
    if (site && during) {
      during.stop();
      const busy = await during.result;
      console.log(
        `[bench:round] site while the round ran: ${fmt.n(busy.requests.total)} server pages, p99 ${fmt.ms(busy.latency.p99)}; now idle for ${SITE_IDLE_S} s`,
      );
      const idle = await loadSite(site.origin, pages, SITE_IDLE_S).result;
      siteFigures = {
        duringP99: busy.latency.p99,
        idleP99: idle.latency.p99,
        duringRequests: busy.requests.total,
        idleRequests: idle.requests.total,
        errors: busy.errors + busy.non2xx + idle.errors + idle.non2xx,
      };
    }
    return { round, siteFigures };
  } finally {
    await site?.stop();
  }
}

/** The lines printed after each round: its summary, what the fleet's hosts saw, the event loop, the site. */
async function roundLines(fleet: ChildProcess, ready: FleetReady, round: RoundDone, siteFigures: SiteFigures | undefined) {
  console.log(`[bench:round] round ${round.summary.status} in ${fmt.s(round.wallMs)}: ${JSON.stringify(round.summary)}`);
  const polite = await politeness(fleet, ready, round.wallMs);
  console.log(polite.line);
  console.log(
    `[bench:round] event-loop delay during the round: p50 ${fmt.ms(round.loopDelay.p50)}, p99 ${fmt.ms(round.loopDelay.p99)}, max ${fmt.ms(round.loopDelay.max)}`,
  );
  if (siteFigures) {
    console.log(
      `site p99 during the round: ${fmt.ms(siteFigures.duringP99)} vs ${fmt.ms(siteFigures.idleP99)} idle (${(siteFigures.duringP99 / siteFigures.idleP99).toFixed(2)}x)`,
    );
  }
  return polite;
}

interface Distributed extends MeasuredRound {
  dbPath: string;
  agentsCpuS: number;
  brokerCpuS: number;
  polite: Awaited<ReturnType<typeof politeness>>;
}

/** The distributed round against the in-process one of the same run (issue 29's targets): the site's CPU per server, wall
 * time, probes sent per server from the runs table against 1 + 2 × the failure share, and every server's states. */
async function reportDistributed(
  d: Distributed,
  inProcess: RoundDone & { dbPath: string },
  inProcessStored: StoredRow[],
  inProcessMatched: number,
  ready: FleetReady,
) {
  const { openDb, closeDb } = await import("@/db/client");
  const tallyOf = (dbPath: string): RunsTally => {
    const db = openDb(dbPath);
    try {
      return tallyRuns(db.$client);
    } finally {
      closeDb(db);
    }
  };
  const tally = tallyOf(d.dbPath);
  const refTally = tallyOf(inProcess.dbPath);
  const stored = await readStored(d.dbPath);
  const byName = new Map(stored.map((r) => [r.name, r]));
  const asExpected = ready.servers.filter((s) => matches(s, byName.get(s.name))).length;
  const same = compareStates(inProcessStored, stored);
  const { failing, share } = failureShare(inProcessStored);
  const r = d.round;
  const cpuPerServer = r.cpuMs / SERVERS;
  const refCpuPerServer = inProcess.cpuMs / SERVERS;
  const cpuRatio = cpuPerServer / refCpuPerServer;
  const wallRatio = r.wallMs / inProcess.wallMs;
  const sent = tally.runs + r.unanswered;
  const perServer = sent / SERVERS;
  const bound = 1 + 2 * share;
  const agentsMsPerServer = (d.agentsCpuS * 1000) / SERVERS;
  const brokerMsPerServer = (d.brokerCpuS * 1000) / SERVERS;
  const roles = RUN_ROLES;
  printTable(
    `Probes the distributed round sent, from its runs table (${fmt.n(tally.servers)} servers; plus ${r.unanswered} a region did not answer)`,
    ["region", ...roles, "total"],
    [...tally.byRegion].map(([region, per]) => [
      region,
      ...roles.map((role) => fmt.n(per[role])),
      fmt.n(roles.reduce((a, k) => a + per[k], 0)),
    ]),
  );
  for (const diff of same.differences) console.log(`[bench:round] state differs (in-process → regions): ${diff}`);
  printTable(
    `In-process against ${REGIONS.length} regions, same fleet, same concurrency (round process at nice ${RENDERER_NICENESS} in both)`,
    ["round", "wall", "site CPU/server", "agents' CPU/server", "broker CPU/server", "probes/server", "states as expected"],
    [
      [
        "in-process",
        fmt.s(inProcess.wallMs),
        fmt.ms(refCpuPerServer),
        "-",
        "-",
        (refTally.runs / SERVERS).toFixed(3),
        `${inProcessMatched}/${SERVERS}`,
      ],
      [
        `${REGIONS.length} regions over NATS`,
        fmt.s(r.wallMs),
        fmt.ms(cpuPerServer),
        fmt.ms(agentsMsPerServer),
        fmt.ms(brokerMsPerServer),
        perServer.toFixed(3),
        `${asExpected}/${SERVERS}`,
      ],
    ],
  );
  const rows: TargetRow[] = [
    {
      figure: "site (round process) CPU per server, regions / in-process",
      value: `${fmt.ms(cpuPerServer)} / ${fmt.ms(refCpuPerServer)} = ${cpuRatio.toFixed(2)}x`,
      target: `<= ${TARGET_REGIONS_CPU_RATIO.toFixed(1)}x`,
      verdict: cpuRatio <= TARGET_REGIONS_CPU_RATIO ? "PASS" : "MISS",
    },
    {
      figure: "round wall time, regions / in-process",
      value: `${fmt.s(r.wallMs)} / ${fmt.s(inProcess.wallMs)} = ${wallRatio.toFixed(2)}x`,
      target: `<= ${TARGET_REGIONS_WALL_RATIO}x`,
      verdict: wallRatio <= TARGET_REGIONS_WALL_RATIO ? "PASS" : "MISS",
    },
    {
      figure: "probes sent per server (runs + unanswered)",
      value: `${fmt.n(sent)} / ${fmt.n(SERVERS)} = ${perServer.toFixed(3)}`,
      target: `<= 1 + 2 × ${share.toFixed(3)} = ${bound.toFixed(3)}`,
      verdict: perServer <= bound + 1e-9 ? "PASS" : "MISS",
    },
    {
      figure: "failure share (handshake or tool list failed, in-process round)",
      value: `${failing}/${inProcessStored.length} = ${(share * 100).toFixed(1)}%`,
      target: "(info)",
      verdict: "info",
    },
    {
      figure: "every server's states equal in both rounds",
      value: `${same.equal}/${same.total}${same.missing ? `, ${same.missing} missing` : ""}`,
      target: `${same.total}/${same.total}`,
      verdict: same.equal === same.total ? "PASS" : "MISS",
    },
    {
      figure: "regions round status",
      value: `${r.summary.status}, ${r.summary.probed}/${SERVERS} probed`,
      target: `done, ${SERVERS}`,
      verdict: r.summary.status === "done" && r.summary.probed === SERVERS ? "PASS" : "MISS",
    },
    ...d.polite.rows.map((row) => ({ ...row, figure: `regions: ${row.figure}` })),
    {
      figure: `agents' CPU per server (${REGIONS.length} agents together)`,
      value: `${fmt.ms(agentsMsPerServer)} (${d.agentsCpuS.toFixed(1)} s)`,
      target: "(info)",
      verdict: "info",
    },
    {
      figure: "site + agents + broker CPU per server / in-process",
      value: `${((cpuPerServer + agentsMsPerServer + brokerMsPerServer) / refCpuPerServer).toFixed(2)}x`,
      target: "(info)",
      verdict: "info",
    },
    {
      figure: "regions round event-loop p99 / max",
      value: `${fmt.ms(r.loopDelay.p99)} / ${fmt.ms(r.loopDelay.max)}`,
      target: "(info)",
      verdict: "info",
    },
  ];
  printTargets(
    `bench:round distributed: ${fmt.n(SERVERS)} servers, ${REGIONS.length} agents (${REGIONS.join(", ")}), in-process in the same run`,
    rows,
  );
  const wallMissed = wallRatio > TARGET_REGIONS_WALL_RATIO;
  console.log(
    `note: the ${REGIONS.length} agents, nats-server and the fleet run on this machine's ${os.cpus().length} cores beside the round, where production ` +
      `has each agent on a machine of its own: here the agents' probing (${d.agentsCpuS.toFixed(1)} s of CPU) competes with the round for the same cores, ` +
      (wallMissed
        ? `which is why the wall-time target (<= ${TARGET_REGIONS_WALL_RATIO}x) cannot be met on one machine.`
        : `so the wall-time ratio here is an upper bound of what separate machines give.`),
  );
  return {
    regions: REGIONS,
    wallMs: Math.round(r.wallMs),
    inProcessWallMs: Math.round(inProcess.wallMs),
    wallRatio: Number(wallRatio.toFixed(3)),
    cpuMsPerServer: Number(cpuPerServer.toFixed(3)),
    inProcessCpuMsPerServer: Number(refCpuPerServer.toFixed(3)),
    cpuRatio: Number(cpuRatio.toFixed(3)),
    agentsCpuMsPerServer: Number(agentsMsPerServer.toFixed(3)),
    brokerCpuMsPerServer: Number(brokerMsPerServer.toFixed(3)),
    probesPerServer: Number(perServer.toFixed(4)),
    probesBound: Number(bound.toFixed(4)),
    failureShare: Number(share.toFixed(4)),
    unanswered: r.unanswered,
    runsByRegion: Object.fromEntries(tally.byRegion),
    statesEqual: same.equal,
    statesAsExpected: asExpected,
    status: r.summary.status,
    pass: rows.every((row) => row.verdict !== "MISS"),
  };
}

/** What the fleet's hosts saw during the round: the crowded host's peak against its limit, ordinary hosts' peak,
 * and the Crawl-delay host's shortest gap. */
async function politeness(fleet: ChildProcess, ready: FleetReady, roundMs: number) {
  const statsMessage = nextMessage<FleetStats>(fleet, "stats", 30_000);
  fleet.send("stats");
  const stats = await statsMessage;
  for (const o of stats.overlaps) console.log(`[bench:round] overlap seen by the fleet: ${o}`);
  // Crowded as the round sees it: 50 or more servers on the host (architecture.md §2.5); the fleet's first host when the mix has one.
  const crowded = (h: number) => ready.serversPerHost[h]! >= 50;
  const crowdedPeak = ready.crowdedServers > 0 ? stats.peaks[0]! : null;
  const otherCrowdedPeak = Math.max(0, ...stats.peaks.filter((_, h) => crowded(h) && !(ready.crowdedServers > 0 && h === 0)));
  const ordinaryPeak = Math.max(0, ...stats.peaks.filter((_, h) => !crowded(h)));
  const ordinaryHosts = ready.serversPerHost.filter((n) => n > 0 && n < 50).length;
  const crawlPeak = stats.peaks[ready.crawlHost]!;
  const crawlOk = stats.crawlMinGapMs !== null && stats.crawlMinGapMs >= ready.crawlDelaySeconds * 1000 && crawlPeak <= 1;
  const line =
    `crowded host: ${fmt.n(ready.crowdedServers)} servers on one host of ${ready.hosts}, round ${fmt.s(roundMs)}, ` +
    `max in flight per host ${crowdedPeak ?? "n/a"} (limit ${HOST_CONCURRENCY}), crawl-delay honoured: ${crawlOk ? "yes" : "no"}` +
    ` [${ordinaryHosts} ordinary hosts (under 50 servers): max in flight ${ordinaryPeak} (limit 1);` +
    `${otherCrowdedPeak > 0 ? ` other crowded hosts: max in flight ${otherCrowdedPeak};` : ""} Crawl-delay ${ready.crawlDelaySeconds} s host: ${ready.crawlServers} servers, ` +
    `${stats.requests[ready.crawlHost]} requests, shortest gap ${stats.crawlMinGapMs ?? "n/a"} ms]`;
  const rows: TargetRow[] = [
    ...(crowdedPeak !== null
      ? [
          {
            figure: "crowded host max in flight",
            value: String(crowdedPeak),
            target: `<= ${HOST_CONCURRENCY}`,
            verdict: crowdedPeak <= HOST_CONCURRENCY ? "PASS" : "MISS",
          } as TargetRow,
        ]
      : []),
    { figure: "ordinary hosts max in flight", value: String(ordinaryPeak), target: "<= 1", verdict: ordinaryPeak <= 1 ? "PASS" : "MISS" },
    ...(otherCrowdedPeak > 0
      ? [
          {
            figure: "other crowded hosts max in flight",
            value: String(otherCrowdedPeak),
            target: `<= ${HOST_CONCURRENCY}`,
            verdict: otherCrowdedPeak <= HOST_CONCURRENCY ? "PASS" : "MISS",
          } as TargetRow,
        ]
      : []),
    {
      figure: "crawl-delay honoured",
      value: `${stats.crawlMinGapMs ?? "n/a"} ms shortest gap`,
      target: `>= ${ready.crawlDelaySeconds * 1000} ms`,
      verdict: crawlOk ? "PASS" : "MISS",
    },
  ];
  const json = {
    requestsBySlice: stats.bySlice,
    crowdedHost: {
      servers: ready.crowdedServers,
      hosts: ready.hosts,
      roundS: Number((roundMs / 1000).toFixed(1)),
      maxInFlight: crowdedPeak,
      limit: HOST_CONCURRENCY,
      ordinaryHosts,
      ordinaryMaxInFlight: ordinaryPeak,
      crawlDelayHonoured: crawlOk,
      crawlMinGapMs: stats.crawlMinGapMs,
    },
  };
  return { line, rows, json, bySlice: stats.bySlice };
}

/** The fleet's request counts since the last ask, per slice, and resets them. */
async function fleetRequests(fleet: ChildProcess): Promise<Record<string, number>> {
  const statsMessage = nextMessage<FleetStats>(fleet, "stats", 30_000);
  fleet.send("stats");
  return (await statsMessage).bySlice;
}

interface SiteFigures {
  duringP99: number;
  idleP99: number;
  duringRequests: number;
  idleRequests: number;
  errors: number;
}

const SITE_CONNECTIONS = 8;
const SITE_IDLE_S = 10;

/** `npm start` on the round's database, as production serves pages while its rounds write. */
async function startSite(dbPath: string) {
  const { openDb, closeDb } = await import("@/db/client");
  closeDb(openDb(dbPath)); // migrated once here, not raced by two processes
  const fresh = !fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"));
  if (fresh) throw new Error("bench:round needs a `next build` for the site measurement (or BENCH_SITE=0)");
  const site = await startNext({ dbPath, port: await freePort() });
  console.log(`[bench:round] site: npm start on ${site.origin}, ${SITE_CONNECTIONS} connections on server pages while the round runs`);
  return site;
}

/** Loads server pages until stopped (or for `seconds`). */
function loadSite(origin: string, paths: string[], seconds = 3_600) {
  let n = 0;
  const instance = autocannon({
    url: origin,
    connections: SITE_CONNECTIONS,
    duration: seconds,
    timeout: 20,
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length]! }) }],
  });
  return { result: instance, stop: () => instance.stop() };
}

function clientVersion(): string {
  try {
    const pkg = path.join(process.cwd(), "node_modules", "@modelcontextprotocol", "client", "package.json");
    return (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

const role = process.env.BENCH_ROLE;
if (role) {
  // A worker ends when the orchestrator says so or goes away.
  process.on("message", (m) => {
    if (m === "stop") process.exit(0);
  });
  process.on("disconnect", () => process.exit(0));
}
const main = role === "round" ? roundWorker : role === "baseline" ? baselineWorker : role === "probeonly" ? probeOnlyWorker : orchestrate;
main().then(
  () => {
    if (!role) process.exit(0);
  },
  (e: unknown) => {
    console.error(`[bench:round${role ? `:${role}` : ""}] ${(e as Error).stack ?? String(e)}`);
    process.exit(1);
  },
);
