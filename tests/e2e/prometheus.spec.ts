import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { closeDb, openDb } from "../../db/client";
import { freePort } from "../../lib/cli/ports";
import { entry, startFixtureRegistry, type FixtureRegistry } from "../../lib/demo/loopback-registry";
import { startZooServer, type RunningZooServer } from "../../lib/demo/zoo";
import { METRICS } from "../../lib/metrics/families";
import { runRound } from "../../lib/rounds/round";
import { makeAllDue } from "../../lib/store/servers/round";
import { startNext, type RunningNext } from "../fixtures/next-server";

// A real Prometheus (Debian's package, installed by `npm test` and .ci/run) scrapes a real `npm start` on
// loopback with the metrics token, and the test reads what it stored through Prometheus's own HTTP API.

const PROMETHEUS = "/usr/bin/prometheus";
const PROMTOOL = "/usr/bin/promtool";
const TOKEN = "prometheus-spec-token";
const SECRET = "prometheus-spec-secret";

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** The README's example alert rules (the fenced yaml block that starts a rule file). */
function readmeRules(): string {
  const block = [...fs.readFileSync("README.md", "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => /^groups:/m.test(b));
  if (!block) throw new Error("README.md has no yaml block of alert rules");
  return block;
}

async function startPrometheus(dir: string, target: string): Promise<{ origin: string; child: ChildProcess; output: () => string }> {
  // Fails, never skips: a CI machine without the package is a broken CI machine.
  if (!fs.existsSync(PROMETHEUS))
    throw new Error(`${PROMETHEUS} is missing: run sh scripts/ensure-prometheus.sh (apt-get install -y prometheus)`);
  const port = await freePort();
  const config = path.join(dir, "prometheus.yml");
  const rules = path.join(dir, "rules.yml");
  fs.writeFileSync(rules, readmeRules());
  const check = spawnSync(PROMTOOL, ["check", "rules", rules], { encoding: "utf8" });
  expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  fs.writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "  evaluation_interval: 1s",
      `rule_files: ["${rules}"]`,
      "scrape_configs:",
      "  - job_name: mcp-status",
      "    metrics_path: /metrics",
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${TOKEN}`,
      "    static_configs:",
      `      - targets: ["${target}"]`,
      "",
    ].join("\n"),
  );
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, "tsdb")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout!.on("data", (b: Buffer) => (output += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (output += b.toString()));
  const origin = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (child.exitCode === null ? (await fetch(`${origin}/-/ready`).catch(() => null))?.status : `exited: ${output}`), {
      timeout: 30_000,
    })
    .toBe(200);
  return { origin, child, output: () => output };
}

test("Prometheus scrapes npm start with the token: up, a round counter that grows with POST /api/rounds, coverage as /api/status says", async () => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prometheus-spec-"));
  const dbPath = path.join(dir, "site.db");
  const zoo: RunningZooServer[] = [];
  let registry: FixtureRegistry | undefined;
  let site: RunningNext | undefined;
  let prometheus: Awaited<ReturnType<typeof startPrometheus>> | undefined;
  const db = openDb(dbPath);
  try {
    for (const name of ["modern-healthy-paged", "legacy-2025-06-18-stateless", "credential-gate-valid-prm"])
      zoo.push(await startZooServer(name));
    registry = await startFixtureRegistry(
      zoo.map((z, i) => entry(`io.github.prometheus/server-${i}`, [{ type: "streamable-http", url: z.url }])),
    );
    const first = await runRound({
      db,
      registryUrl: registry.url,
      allowPrivateNetworks: true,
      robots: false,
      trigger: "test",
      log: () => undefined,
    });
    expect(first.read).toBe(2);

    site = await startNext({
      dbPath,
      port: await freePort(),
      env: {
        METRICS_TOKEN: TOKEN,
        CRON_SECRET: SECRET,
        REGISTRY_URL: registry.url,
        PROBE_ALLOW_PRIVATE_NETWORKS: "1",
        CROSS_READ_SAMPLE: "0",
      },
    });
    const target = new URL(site.origin).host;

    // The endpoint itself: refused without the token (no metric names in the answer), and valid by promtool's rules.
    for (const headers of [{}, { authorization: "Bearer wrong" }] as Record<string, string>[]) {
      const refused = await fetch(`${site.origin}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(await refused.text()).not.toMatch(/mcp_status_|process_|nodejs_/);
    }
    const direct = await (await fetch(`${site.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const lint = spawnSync(PROMTOOL, ["check", "metrics"], { input: direct, encoding: "utf8" });
    expect(`${lint.stdout}${lint.stderr}`.trim()).toBe("");
    expect(lint.status).toBe(0);

    prometheus = await startPrometheus(dir, target);
    const query = async (q: string): Promise<Sample[]> => {
      const res = await fetch(`${prometheus!.origin}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as { status: string; data: { result: Sample[] } };
      expect(body.status).toBe("success");
      return body.data.result;
    };
    const scalar = async (q: string): Promise<number | null> => {
      const r = await query(q);
      return r.length === 1 ? Number(r[0]!.value[1]) : null;
    };

    await expect.poll(() => scalar(`up{job="mcp-status"}`), { timeout: 30_000 }).toBe(1);
    // Both processes are in the one target, told apart by their process label.
    await expect
      .poll(async () => (await query("process_start_time_seconds")).map((s) => s.metric.process).sort(), { timeout: 15_000 })
      .toEqual(["front", "renderer"]);

    const finished = `sum(${METRICS.roundsFinished.name}{status="done"})`;
    await expect.poll(() => scalar(finished), { timeout: 15_000 }).toBe(1);
    const startedBefore = await scalar(`sum(${METRICS.roundsStarted.name})`);
    expect(startedBefore).toBe(1);

    // A round the site runs itself, asked for over its API, shows in Prometheus as the counters grow.
    makeAllDue(db, new Date().toISOString(), "prometheus spec");
    const started = await fetch(`${site.origin}/api/rounds`, { method: "POST", headers: { authorization: `Bearer ${SECRET}` } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: number };
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${site!.origin}/api/rounds/${id}`, { headers: { authorization: `Bearer ${SECRET}` } })).json()) as {
              status: string;
            }
          ).status,
        {
          timeout: 60_000,
        },
      )
      .toBe("done");
    await expect.poll(() => scalar(finished), { timeout: 20_000 }).toBe(2);
    expect(await scalar(`sum(${METRICS.roundsStarted.name})`)).toBe(2);
    expect(await scalar(`${METRICS.roundsStarted.name}{trigger="api"}`)).toBe(1);
    expect(await scalar(`sum(${METRICS.serversProbed.name})`)).toBe(6);
    expect(await scalar(`${METRICS.roundDuration.name}_count`)).toBe(2);

    // Coverage as /api/status says it (503 while an alert is open, the same JSON either way).
    const status = (await (await fetch(`${site.origin}/api/status`)).json()) as { coverage: { today: number; median7d: number | null } };
    expect(status.coverage.today).toBe(2);
    await expect.poll(() => scalar(METRICS.coverageToday.name), { timeout: 15_000 }).toBe(status.coverage.today);
    expect(await scalar(METRICS.coverageMedian.name)).toBe(status.coverage.median7d);
    expect(await scalar(`sum(${METRICS.checkStates.name}{check="handshake"})`)).toBe(3);
    expect(await scalar(`${METRICS.frontAnswers.name}{outcome="pass"}`)).toBeGreaterThan(0);

    // The front's counters are the ones /api/health shows: the index loaded twice is a fill, then a hit, and
    // Prometheus catches up with the figures the health answer read after them.
    for (let i = 0; i < 2; i++) expect((await fetch(`${site.origin}/`)).status).toBe(200);
    const health = (await (await fetch(`${site.origin}/api/health`)).json()) as { front: { answers: Record<string, number> } };
    expect(health.front.answers.hit).toBeGreaterThan(0);
    for (const outcome of ["hit", "fill"]) {
      await expect
        .poll(async () => (await scalar(`${METRICS.frontAnswers.name}{outcome="${outcome}"}`)) ?? -1, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(health.front.answers[outcome]!);
    }
    expect(await scalar(METRICS.rendererUp.name)).toBe(1);
    expect(await scalar(METRICS.rendererRestarts.name)).toBe(0);

    // The README's alert rules load, evaluate without error against these series, and none fires here.
    const rulesNow = async () => {
      const res = (await (await fetch(`${prometheus!.origin}/api/v1/rules`)).json()) as {
        data: { groups: { rules: { name: string; health: string; state: string; lastError?: string }[] }[] };
      };
      return res.data.groups.flatMap((g) => g.rules);
    };
    await expect
      .poll(async () => (await rulesNow()).map((r) => `${r.name}:${r.health}`), { timeout: 15_000 })
      .toEqual(["McpStatusRoundsStale", "McpStatusNoRoundsRecorded", "McpStatusCoverageLow", "McpStatusSiteAlert"].map((n) => `${n}:ok`));
    expect((await rulesNow()).filter((r) => r.state !== "inactive").map((r) => r.name)).toEqual([]);
  } finally {
    const p = prometheus?.child;
    if (p && p.exitCode === null) {
      const exited = new Promise((r) => p.once("exit", r));
      p.kill("SIGTERM");
      await exited;
    }
    await site?.stop();
    await registry?.close();
    await Promise.all(zoo.map((z) => z.close()));
    closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
