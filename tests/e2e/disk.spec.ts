// A full disk is loud (architecture.md §6, database_unwritable): a real `npm start` with DATABASE_PATH on a small
// tmpfs this spec mounts itself (root, as CI runs) and fills with a file, the zoo's servers on loopback as the fleet,
// a real loopback webhook receiver. The filler file is removed and the tmpfs unmounted in `finally`.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { freePort } from "../../lib/cli/ports";
import { entry, startFixtureRegistry, type FixtureRegistry } from "../../lib/demo/loopback-registry";
import { createZooHandler } from "../../lib/demo/zoo";
import { leftMounts, mountSmallDisk, type SmallDisk } from "../fixtures/small-disk";
import { startNext, type RunningNext } from "../fixtures/next-server";
import { startReceiver, type Receiver } from "../fixtures/webhook-receiver";
import { serverUrl } from "./helpers";

const SECRET = "disk-spec-secret";
const TOKEN = "disk-spec-metrics";
// Each one a host of its own; every one reads completely, so a round that is not stopped probes them all.
const BEHAVIOURS = ["modern-healthy-paged", "legacy-2025-06-18-stateless", "dual-era", "pagination-multi-page-legacy"];
const FLEET_SIZE = 12;

/** The fleet: zoo behaviours on listeners of their own, behind one gate that can hold the first MCP request of every
 * probe after the first `passing` (robots.txt always passes). Each listener logs the MCP requests it answered. */
interface Fleet {
  names: string[];
  registry: FixtureRegistry;
  /** MCP requests answered per registry name, since the last reset. */
  requests: Map<string, number>;
  /** From now on, probes after the first `passing` wait at their first request until release(). */
  hold(passing: number): void;
  /** How many probes are waiting at the gate. */
  waiting(): number;
  /** Lets the waiting probes go; from then on every probe's first request is answered `slowMs` late. */
  release(slowMs?: number): void;
  close(): Promise<void>;
}

async function startFleet(): Promise<Fleet> {
  const servers: http.Server[] = [];
  const names: string[] = [];
  const requests = new Map<string, number>();
  let passing = Infinity;
  let started = 0;
  let waiters: (() => void)[] = [];
  let slowMs = 0;
  const entries = [];
  for (let i = 0; i < FLEET_SIZE; i++) {
    const name = `io.github.disk/server-${String(i).padStart(2, "0")}`;
    names.push(name);
    const zoo = createZooHandler(BEHAVIOURS[i % BEHAVIOURS.length]!);
    let seenThisPhase = false;
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith("/robots.txt")) return void zoo(req, res);
      const go = () => {
        requests.set(name, (requests.get(name) ?? 0) + 1);
        void zoo(req, res);
      };
      if (!seenThisPhase) {
        seenThisPhase = true;
        started++;
        if (started > passing) return void waiters.push(go);
        if (slowMs > 0) return void setTimeout(go, slowMs);
      }
      go();
    });
    // A new phase: every server's next request is the first of a new probe.
    server.on("phase", () => (seenThisPhase = false));
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    servers.push(server);
    entries.push(entry(name, [{ type: "streamable-http", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }]));
  }
  const registry = await startFixtureRegistry(entries);
  const fleet: Fleet = {
    names,
    requests,
    registry,
    hold(n) {
      passing = n;
      slowMs = 0;
      started = 0;
      requests.clear();
      for (const s of servers) s.emit("phase");
    },
    waiting: () => waiters.length,
    release(slow = 0) {
      passing = Infinity;
      slowMs = slow;
      const go = waiters;
      waiters = [];
      for (const w of go) w();
    },
    async close() {
      fleet.release();
      await registry.close();
      await Promise.all(servers.map((s) => new Promise<void>((ok) => (s.closeAllConnections(), s.close(() => ok())))));
    },
  };
  return fleet;
}

interface Stage {
  disk: SmallDisk;
  fleet: Fleet;
  hook: Receiver;
  site: RunningNext;
  dbPath: string;
}

/** Everything one scenario needs; `close` undoes it in reverse order and never throws before the unmount. */
async function stage(concurrency: number): Promise<{ stage: Stage | null; close: () => Promise<void> }> {
  let disk: SmallDisk | undefined;
  let fleet: Fleet | undefined;
  let hook: Receiver | undefined;
  let site: RunningNext | undefined;
  const close = async () => {
    // The site's own log beside the test's results, for reading after a failure.
    if (site) {
      const log = test.info().outputPath("npm-start.log");
      fs.mkdirSync(path.dirname(log), { recursive: true });
      fs.writeFileSync(log, site.output());
    }
    await site?.stop().catch(() => undefined);
    await fleet?.close().catch(() => undefined);
    await hook?.close().catch(() => undefined);
    disk?.close();
  };
  try {
    disk = mountSmallDisk(48, "mcp-status-disk-spec-");
    fleet = await startFleet();
    hook = await startReceiver();
    const dbPath = path.join(disk.dir, "site.db");
    site = await startNext({
      dbPath,
      port: await freePort(),
      env: {
        CRON_SECRET: SECRET,
        METRICS_TOKEN: TOKEN,
        REGISTRY_URL: fleet.registry.url,
        PROBE_ALLOW_PRIVATE_NETWORKS: "1",
        PROBE_CONCURRENCY: String(concurrency),
        CROSS_READ_SAMPLE: "0",
        ALERT_WEBHOOK_URL: hook.url,
      },
    });
    return { stage: { disk, fleet, hook, site, dbPath }, close };
  } catch (e) {
    await close();
    throw e;
  }
}

const bearer = { authorization: `Bearer ${SECRET}` };

async function postRound(origin: string): Promise<Response> {
  return fetch(`${origin}/api/rounds`, { method: "POST", headers: bearer });
}

async function round(origin: string, id: number): Promise<{ status: string; probed: number; error: string | null }> {
  return (await fetch(`${origin}/api/rounds/${id}`, { headers: bearer })).json();
}

async function runToEnd(origin: string): Promise<{ id: number; status: string; probed: number }> {
  const res = await postRound(origin);
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: number };
  await expect.poll(async () => (await round(origin, id)).status, { timeout: 60_000 }).not.toBe("running");
  return { id, ...(await round(origin, id)) };
}

async function statusOf(origin: string): Promise<{ code: number; kinds: string[]; body: { alerts: { kind: string; since: string }[] } }> {
  const res = await fetch(`${origin}/api/status`);
  const body = (await res.json()) as { alerts: { kind: string; since: string }[] };
  return { code: res.status, kinds: body.alerts.map((a) => a.kind), body };
}

/** The test's own look at the database file (read-only, closed at once, so the unmount finds nothing open). */
function readDb<T>(dbPath: string, f: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return f(db);
  } finally {
    db.close();
  }
}

/** Marks every server due, then folds the write-ahead log into the database and truncates it. Until the log is
 * truncated, a commit may reuse its space on a full disk and succeed; after it, the next commit needs new room. */
function makeDueAndCheckpoint(dbPath: string): void {
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("update servers set next_due_at = ?").run(new Date().toISOString());
    expect(db.pragma("wal_checkpoint(TRUNCATE)")).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
  } finally {
    db.close();
  }
}

test.describe.configure({ mode: "serial" });

test("full between rounds: 503 JSON, /api/status 503 within a minute, pages 200, the webhook; freed, it resolves and the next round writes", async () => {
  test.setTimeout(240_000);
  const { stage: s, close } = await stage(4);
  try {
    const { disk, site, hook, fleet, dbPath } = s!;
    const origin = site.origin;
    const first = await runToEnd(origin);
    expect(first).toMatchObject({ status: "done", probed: FLEET_SIZE });
    expect((await statusOf(origin)).code).toBe(200);

    makeDueAndCheckpoint(dbPath);
    disk.fill();
    const refused = await postRound(origin);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toContain("application/json");
    const refusal = (await refused.json()) as { error: string; message: string };
    expect(refusal.error).toBe("database_unwritable");
    // The volume has no room at all: measured before any write is tried (architecture.md §6).
    expect(refusal.message).toMatch(/ENOSPC: 0\.0 MiB free on the database's volume/);

    await expect.poll(async () => (await statusOf(origin)).code, { timeout: 60_000 }).toBe(503);
    const open = await statusOf(origin);
    expect(open.kinds).toEqual(["database_unwritable"]);
    const since = open.body.alerts[0]!.since;
    expect(Date.parse(since)).toBeGreaterThan(Date.now() - 120_000);
    const metrics = async () => (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    await expect.poll(metrics, { timeout: 60_000 }).toMatch(/^mcp_status_alerts_open\{kind="database_unwritable"\} 1$/m);
    await expect.poll(() => hook.bodies.filter((b) => b.alert.kind === "database_unwritable").length, { timeout: 60_000 }).toBe(1);
    expect(hook.bodies.at(-1)).toMatchObject({
      text: expect.stringContaining("database_unwritable"),
      alert: { kind: "database_unwritable", state: "open", since },
    });

    // Pages answer from what is stored.
    for (const p of ["/", serverUrl(fleet.names[0]!), "/coverage"]) expect((await fetch(`${origin}${p}`)).status, p).toBe(200);
    // React separates a text's parts with empty comments.
    const coverage = async () => (await (await fetch(`${origin}/coverage`)).text()).replaceAll("<!-- -->", "");
    expect(await coverage()).toContain("The database cannot be written: open since");
    // "Probe again now" from the server page's own form: the same 503 JSON.
    const html = await (await fetch(`${origin}${serverUrl(fleet.names[0]!)}`)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1];
    expect(token).toBeTruthy();
    const reprobe = await fetch(`${origin}/api/reprobe`, {
      method: "POST",
      headers: { origin, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ server: fleet.names[0]!, token: token! }),
      redirect: "manual",
    });
    expect(reprobe.status).toBe(503);
    expect(((await reprobe.json()) as { error: string }).error).toBe("database_unwritable");

    disk.free();
    // The clock tries the proving write every 30 s.
    await expect.poll(async () => (await statusOf(origin)).code, { timeout: 75_000, intervals: [1_000] }).toBe(200);
    await expect.poll(() => hook.bodies.filter((b) => b.alert.kind === "database_unwritable").length, { timeout: 30_000 }).toBe(2);
    const resolved = hook.bodies.at(-1)!;
    expect(resolved.alert).toMatchObject({ kind: "database_unwritable", state: "resolved", since });
    expect(typeof resolved.alert.id).toBe("number");
    expect(await coverage()).toMatch(/Recently resolved alerts[\s\S]*The database cannot be written/);

    const next = await runToEnd(origin);
    expect(next).toMatchObject({ status: "done", probed: FLEET_SIZE });
    const written = readDb(dbPath, (db) => db.prepare("select count(*) as n from runs where round_id = ?").get(next.id) as { n: number });
    expect(written.n).toBe(FLEET_SIZE);
  } finally {
    await close();
    expect(leftMounts("mcp-status-disk-spec-")).toEqual([]);
  }
});

test("full during a round: it stops starting probes, ends as failed, loses no server, and the file is intact", async () => {
  test.setTimeout(240_000);
  const { stage: s, close } = await stage(1);
  try {
    const { disk, site, fleet, dbPath } = s!;
    const origin = site.origin;
    expect(await runToEnd(origin)).toMatchObject({ status: "done", probed: FLEET_SIZE });

    makeDueAndCheckpoint(dbPath);
    const passing = 2;
    fleet.hold(passing);
    const res = await postRound(origin);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: number };
    // Two servers probed and their results committed; the third waits at the gate.
    await expect.poll(() => fleet.waiting(), { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await round(origin, id)).probed, { timeout: 30_000 }).toBe(passing);
    disk.fill();
    // From here each probe takes longer than the round's batch waits before it writes (100 ms), as real servers do: the
    // failed write is seen while the next probe is in flight, not after a loopback fleet has answered every probe.
    fleet.release(500);

    await expect.poll(async () => (await statusOf(origin)).kinds, { timeout: 60_000 }).toEqual(["database_unwritable"]);
    // Nothing new is started: the probes in flight when the write failed finish, the rest get no request.
    const settle = async () => [...fleet.requests.keys()].length;
    let seen = -1;
    await expect
      .poll(
        async () => {
          const now = await settle();
          const same = now === seen;
          seen = now;
          return same;
        },
        { timeout: 30_000, intervals: [3_000] },
      )
      .toBe(true);
    const probedAfter = fleet.names.filter((n) => fleet.requests.has(n));
    console.log(`[disk] servers probed in the round that met the full disk: ${probedAfter.length} of ${FLEET_SIZE}`);
    expect(probedAfter.length).toBeLessThan(FLEET_SIZE);

    disk.free();
    await expect.poll(async () => (await round(origin, id)).status, { timeout: 90_000, intervals: [1_000] }).toBe("failed");
    const ended = await round(origin, id);
    expect(ended.error).toMatch(/could not be written/);
    // The round's own failed write, or the alert clock's measure of the volume if its pass came first.
    expect(ended.error).toMatch(/SQLITE_FULL|ENOSPC/);

    const now = new Date().toISOString();
    const servers = readDb(
      dbPath,
      (db) =>
        db
          .prepare(
            "select s.name, s.next_due_at as due, r.round_id as roundId from servers s left join runs r on r.id = s.last_run_id order by s.name",
          )
          .all() as { name: string; due: string | null; roundId: number | null }[],
    );
    expect(servers).toHaveLength(FLEET_SIZE);
    const written = servers.filter((r) => r.roundId === id);
    const due = servers.filter((r) => r.roundId !== id && r.due !== null && r.due <= now);
    expect(written.length).toBe(passing);
    expect(written.length + due.length).toBe(FLEET_SIZE);
    expect(readDb(dbPath, (db) => db.pragma("integrity_check", { simple: true }))).toBe("ok");

    // The next round takes what is still due.
    await expect.poll(async () => (await statusOf(origin)).code, { timeout: 75_000, intervals: [1_000] }).toBe(200);
    const next = await runToEnd(origin);
    expect(next).toMatchObject({ status: "done", probed: due.length });
  } finally {
    await close();
    expect(leftMounts("mcp-status-disk-spec-")).toEqual([]);
  }
});
