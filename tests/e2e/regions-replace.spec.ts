// architecture.md §8, the operator's fix for a region whose own network failed, through the real site: `npm start` as
// the scheduler with three regions on a real nats-server, three real agents, the agent for c in a network namespace
// this spec makes and cuts from the fleet. region_down opens; the cut agent is ended (SIGTERM in one run, SIGKILL in
// the other) and a new one started outside the namespace; with no round run, the site's own recovery clock
// (REGION_RECOVERY_SECONDS) resolves region_down, and the next round gives c primaries again. Everything the spec
// started is ended in afterAll, and it checks that no namespace, process or listening port is left.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { freePort } from "../../lib/cli/ports";
import { entry, startFixtureRegistry, type FixtureRegistry } from "../../lib/demo/loopback-registry";
import { startLoopbackHost, zooMount, type LoopbackHost } from "../fixtures/loopback-hosts";
import { SITE_USER, startAgent, startBroker, type AgentProcess, type Broker } from "../fixtures/nats";
import { createTestNetwork, type Namespace, type TestNetwork } from "../fixtures/netns";
import { startNext, type RunningNext } from "../fixtures/next-server";

test.describe.configure({ mode: "serial" });

const SECRET = "regions-replace-secret";
const TOKEN = "regions-replace-metrics";
// The site's default region health: a region's share counts once 20 distinct hosts were probed from it, so the fleet is
// 30 hosts of one server each and c is primary for about a third of them per round.
const FLEET = 30;
const RECOVERY_SECONDS = 2;

let network: TestNetwork | undefined;
let nsC: Namespace | undefined;
let broker: Broker | undefined;
let registry: FixtureRegistry | undefined;
let site: RunningNext | undefined;
let dir: string | undefined;
const fleet: LoopbackHost[] = [];
const agents: AgentProcess[] = [];
const ports: number[] = [];
const figures: string[] = [];

const bearer = { authorization: `Bearer ${SECRET}` };

function dbPath(): string {
  return path.join(dir!, "site.db");
}

/** The test's own look at the site's database, read-only and closed at once. */
function readDb<T>(f: (db: Database.Database) => T): T {
  const db = new Database(dbPath(), { readonly: true, fileMustExist: true });
  try {
    return f(db);
  } finally {
    db.close();
  }
}

function makeAllDue(): void {
  const db = new Database(dbPath(), { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("update servers set next_due_at = ?").run(new Date(Date.now() - 1000).toISOString());
  } finally {
    db.close();
  }
}

/** One round through the site's own route, to its end; its id. */
async function round(): Promise<number> {
  const origin = site!.origin;
  makeAllDue();
  const res = await fetch(`${origin}/api/rounds`, { method: "POST", headers: bearer });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: number };
  await expect
    .poll(async () => ((await (await fetch(`${origin}/api/rounds/${id}`, { headers: bearer })).json()) as { status: string }).status, {
      timeout: 90_000,
    })
    .not.toBe("running");
  return id;
}

interface Status {
  alerts: { kind: string; subject?: string | null }[];
  regions: { id: string; up: boolean; lastAnswerAt: string | null; hostShare: number | null }[];
}

async function status(): Promise<Status> {
  return (await (await fetch(`${site!.origin}/api/status`)).json()) as Status;
}

const regionDownOpen = async () => (await status()).alerts.some((a) => a.kind === "region_down");

async function regionUpGauge(region: string): Promise<string | undefined> {
  const text = await (await fetch(`${site!.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return new RegExp(`^mcp_status_region_up\\{region="${region}"\\} (\\S+)$`, "m").exec(text)?.[1];
}

const primariesOf = (region: string, roundId: number) =>
  readDb(
    (db) =>
      (
        db.prepare("select count(*) n from runs where round_id = ? and region = ? and role = 'primary'").get(roundId, region) as {
          n: number;
        }
      ).n,
  );

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-status-regions-replace-"));
  network = createTestNetwork();
  nsC = network.addNamespace();
  broker = await startBroker(["a", "b", "c"], { host: network.brokerAddress });
  ports.push(broker.port);
  agents.push(startAgent(broker, "a"), startAgent(broker, "b"));
  await Promise.all(agents.map((a) => a.ready));
  for (let i = 0; i < FLEET; i++)
    fleet.push(await startLoopbackHost(network.fleetAddress, { mounts: { "/s": zooMount("modern-healthy-paged", "/s") } }));
  registry = await startFixtureRegistry(
    fleet.map((h, i) => entry(`io.example/replace-${String(i).padStart(2, "0")}`, [{ type: "streamable-http", url: h.url("/s") }])),
    { pageSize: 100 },
  );
  const port = await freePort();
  ports.push(port);
  site = await startNext({
    dbPath: dbPath(),
    port,
    env: {
      CRON_SECRET: SECRET,
      METRICS_TOKEN: TOKEN,
      REGISTRY_URL: registry.url,
      PROBE_ALLOW_PRIVATE_NETWORKS: "1",
      CROSS_READ_SAMPLE: "0",
      NATS_URL: broker.url,
      NATS_USER: SITE_USER,
      NATS_PASSWORD: broker.users[SITE_USER]!,
      PROBE_REGIONS: "a,b,c",
      REGION_RECOVERY_SECONDS: String(RECOVERY_SECONDS),
    },
  });
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  try {
    if (site) {
      const log = test.info().outputPath("npm-start.log");
      fs.mkdirSync(path.dirname(log), { recursive: true });
      fs.writeFileSync(log, site.output());
    }
    await site?.stop().catch(() => undefined);
    await Promise.all(agents.map((a) => a.kill("SIGKILL").catch(() => undefined)));
    await Promise.all(fleet.map((h) => h.close().catch(() => undefined)));
    await registry?.close().catch(() => undefined);
    await broker?.stop().catch(() => undefined);
  } finally {
    const names = nsC ? [nsC.name] : [];
    network?.remove();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    // Nothing is left: no namespace of ours, no agent process, no listener on the site's or the broker's port.
    const left = execFileSync("ip", ["netns", "list"], { encoding: "utf8" });
    for (const n of names) expect(left).not.toContain(n);
    for (const a of agents) expect(alive(a.pid), `agent ${a.region} pid ${a.pid}`).toBe(false);
    if (site) expect(alive(site.pid)).toBe(false);
    for (const p of ports) expect(await listening(p), `port ${p}`).toBe(false);
    if (figures.length) console.log(figures.join("\n"));
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function listening(port: number): Promise<boolean> {
  const hosts = ["127.0.0.1", network?.brokerAddress].filter((h): h is string => !!h);
  return Promise.all(
    hosts.map(
      (host) =>
        new Promise<boolean>((resolve) => {
          const s = net.connect({ host, port });
          s.once("connect", () => (s.destroy(), resolve(true)));
          s.once("error", () => resolve(false));
        }),
    ),
  ).then((r) => r.some(Boolean));
}

for (const signal of ["SIGTERM", "SIGKILL"] as const) {
  test(`old agent ended with ${signal}: region_down resolves with no round run, and the next round gives c primaries`, async () => {
    test.setTimeout(300_000);
    const old = startAgent(broker!, "c", { netns: nsC!.name });
    agents.push(old);
    await old.ready;
    nsC!.cutFleet();
    try {
      for (let i = 0; i < 6 && !(await regionDownOpen()); i++) await round();
    } finally {
      nsC!.restoreFleet();
    }
    const down = await status();
    expect(down.alerts.filter((a) => a.kind === "region_down").map((a) => a.subject)).toEqual(["c"]);
    expect(down.regions.find((r) => r.id === "c")).toMatchObject({ up: false });
    expect(await regionUpGauge("c")).toBe("0");

    await old.kill(signal);
    const fresh = startAgent(broker!, "c");
    agents.push(fresh);
    await fresh.ready;
    const t0 = Date.now();
    // No round runs from here: only the site's recovery clock asks c.
    const roundsBefore = readDb((db) => (db.prepare("select count(*) n from rounds").get() as { n: number }).n);
    await expect.poll(regionDownOpen, { timeout: 90_000, intervals: [250] }).toBe(false);
    figures.push(`[regions-replace] ${signal}: region_down resolved ${Date.now() - t0} ms after the new agent answered`);
    expect(readDb((db) => (db.prepare("select count(*) n from rounds").get() as { n: number }).n)).toBe(roundsBefore);
    const up = await status();
    expect(up.regions.find((r) => r.id === "c")).toMatchObject({ up: true });
    expect(Date.parse(up.regions.find((r) => r.id === "c")!.lastAnswerAt!)).toBeGreaterThanOrEqual(t0 - 1000);
    expect(await regionUpGauge("c")).toBe("1");

    const next = await round();
    expect(primariesOf("c", next)).toBeGreaterThan(0);
    await fresh.kill("SIGTERM");
  });
}
