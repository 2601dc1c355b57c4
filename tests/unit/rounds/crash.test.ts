import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDb, closeDb, type Db } from "@/db/client";
import { runRound, RoundAlreadyRunning, startRound } from "@/lib/rounds/round";
import { getRound } from "@/lib/store/rounds";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { createZooHandler } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

// kill -9 a round process mid-way: nothing it committed is lost, the lock recovers, rounds never overlap.

const N = 12;
const DELAY_MS = 250;
const STALE_S = 5;
let fleet: Server[] = [];
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;
let db: Db;

function startSlowServer(): Promise<{ server: Server; url: string }> {
  const handler = createZooHandler("modern-healthy-paged");
  // A killed client leaves requests half-read; the zoo handler's "aborted" is expected here.
  const server = createServer(
    (req, res) => void new Promise((r) => setTimeout(r, DELAY_MS)).then(() => handler(req, res)).catch(() => res.destroy()),
  );
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` })),
  );
}

function roundProcess(): { child: ChildProcess; exit: Promise<{ code: number | null; signal: string | null; out: string }> } {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/round.ts", "--lock-stale-seconds", String(STALE_S), "--no-robots"], {
    env: {
      ...process.env,
      DATABASE_PATH: t.file,
      REGISTRY_URL: registry.url,
      PROBE_ALLOW_PRIVATE_NETWORKS: "1",
      PROBE_CONCURRENCY: "3",
      PROBE_SCHEDULE: "",
      CRON_SECRET: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exit = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal, out })),
  );
  return { child, exit };
}

const count = (sql: string) => (db.$client.prepare(sql).get() as { n: number }).n;

async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  const started = await Promise.all(Array.from({ length: N }, startSlowServer));
  fleet = started.map((s) => s.server);
  registry = await startFixtureRegistry(
    started.map((s, i) => entry(`io.github.slow/s${String(i).padStart(2, "0")}`, [{ type: "streamable-http", url: s.url }])),
    { pageSize: 5 },
  );
});

afterAll(async () => {
  await Promise.all(fleet.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  await registry.close();
  t.cleanup();
});

describe("a round killed mid-way", () => {
  test("loses nothing committed, blocks other rounds until its lock is stale, then the next round finishes the rest", async () => {
    const a = roundProcess();
    try {
      await waitFor(() => count("select count(*) n from runs") >= 4, 45_000);
    } catch (e) {
      a.child.kill("SIGKILL");
      throw new Error(`round process did not commit 4 runs: ${(await a.exit).out}`, { cause: e });
    }
    process.kill(-a.child.pid!, "SIGKILL");
    const killed = await a.exit;
    expect(killed.signal).toBe("SIGKILL");

    const committed = db.$client.prepare("select id, server_id from runs order by id").all() as { id: number; server_id: number }[];
    expect(committed.length).toBeGreaterThanOrEqual(4);
    expect(committed.length).toBeLessThan(N);
    // Each committed run landed whole: five results and the server row point at it.
    for (const r of committed) {
      expect(count(`select count(*) n from check_results where run_id = ${r.id}`)).toBe(5);
      expect(count(`select count(*) n from servers where id = ${r.server_id} and last_run_id = ${r.id}`)).toBe(1);
    }
    const deadRound = (db.$client.prepare("select round_id from round_lock").get() as { round_id: number }).round_id;

    // The lock is still fresh: no other round may start (this test's own connection stands in for another process).
    const inProcess = await runRound({ db, lockStaleMs: STALE_S * 1000, log: () => undefined }).catch((e: unknown) => e);
    expect(inProcess).toBeInstanceOf(RoundAlreadyRunning);
    expect(getRound(db, deadRound)?.status).toBe("running");

    // Once the heartbeat is stale the next round takes over and probes only what was still due.
    const beat = Date.parse((db.$client.prepare("select heartbeat_at h from round_lock").get() as { h: string }).h);
    await new Promise((r) => setTimeout(r, Math.max(0, beat + STALE_S * 1000 - Date.now()) + 200));
    const c = roundProcess();
    const finished = await c.exit;
    expect(finished.code, finished.out).toBe(0);
    expect(finished.out).toMatch(/\[rounds\] \d+ due, \d+ read, 0 partly read, 0 failed, 0 gated, 0 slowed down, 0 skipped in \d+ s/);

    expect(getRound(db, deadRound)).toMatchObject({ status: "abandoned" });
    expect(getRound(db, deadRound)!.error).toMatch(/stopped heartbeating/);
    const after = db.$client.prepare("select id, server_id from runs where id <= ? order by id").all(committed.at(-1)!.id);
    expect(after).toEqual(committed);
    expect(count("select count(*) n from servers where state_handshake = 'verified'")).toBe(N);
    // Nothing committed was probed twice.
    expect(count("select count(*) n from (select server_id from runs group by server_id having count(*) > 1)")).toBe(0);
    expect(count("select count(*) n from runs")).toBe(N);
    const last = db.$client.prepare("select * from rounds order by id desc limit 1").get() as { due: number; status: string };
    expect(last).toMatchObject({ status: "done", due: N - committed.length });
    expect(count("select count(*) n from round_lock")).toBe(0);
  }, 90_000);

  test("two rounds started at once: one runs, the other is told one is already running", async () => {
    const second = openDb(t.file);
    try {
      const x = startRound({ db, log: () => undefined });
      const y = startRound({ db: second, log: () => undefined });
      expect([x.started, y.started].sort()).toEqual([false, true]);
      const running = x.started ? x : y;
      const refused = x.started ? y : x;
      if (!refused.started && running.started) {
        expect(refused.roundId).toBe(running.roundId);
        expect(refused.reason).toMatch(/already running/);
        await running.done;
      }
    } finally {
      closeDb(second);
    }
  });
});
