// A round that meets a full disk (architecture.md §6, database_unwritable): real SQLite on a real small tmpfs the
// test fills, real loopback MCP servers (the zoo), the round in this process. It stops starting probes, loses no
// server (written, or still due), says how many results it could not write, and ends as failed once it can.
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { closeDb, openDb, type Db } from "@/db/client";
import { entry, startFixtureRegistry } from "@/lib/demo/loopback-registry";
import { createZooHandler } from "@/lib/demo/zoo";
import { createAddressPolicy } from "@/lib/probe";
import { startRound, type RoundDeps, type RoundSummary } from "@/lib/rounds/round";
import { getMeta, META_KEYS } from "@/lib/store/meta";
import { getRound } from "@/lib/store/rounds";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { WRITE_CHECK_MIN_MS } from "@/lib/store/writes";
import { leftMounts, mountSmallDisk, type SmallDisk } from "../../fixtures/small-disk";

const N = 10;

interface Fleet {
  urls: string[];
  /** Date.now() of each server's first request, by index. */
  firstRequestAt: (number | undefined)[];
  close(): Promise<void>;
}

async function startFleet(n: number): Promise<Fleet> {
  const servers: http.Server[] = [];
  const urls: string[] = [];
  const firstRequestAt: (number | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    const zoo = createZooHandler("modern-healthy-paged");
    const server = http.createServer((req, res) => {
      firstRequestAt[i] ??= Date.now();
      void zoo(req, res);
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  }
  return {
    urls,
    firstRequestAt,
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((ok) => (s.closeAllConnections(), s.close(() => ok()))))).then(() => undefined),
  };
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  expect(leftMounts()).toEqual([]);
});

async function setup(): Promise<{ disk: SmallDisk; db: Db; fleet: Fleet; logs: string[]; deps: RoundDeps }> {
  const disk = mountSmallDisk(24);
  cleanups.push(() => disk.close());
  const db = openDb(path.join(disk.dir, "site.db"));
  cleanups.push(() => closeDb(db));
  const fleet = await startFleet(N);
  cleanups.push(() => fleet.close());
  applyRegistrySnapshot(
    db,
    fleet.urls.map((url, i) => ({
      name: `io.github.full/s${i}`,
      title: null,
      description: null,
      version: "1",
      url,
      transport: "streamable-http" as const,
      host: new URL(url).host,
      needsConfig: null,
      registryUpdatedAt: null,
    })),
    new Date().toISOString(),
  );
  // The write-ahead log folded into the database and truncated: until then a commit on a full disk may reuse the log's
  // space and succeed; after it, the round's first commit once the disk is full needs new room and fails.
  expect(db.$client.pragma("wal_checkpoint(TRUNCATE)")).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
  const logs: string[] = [];
  const deps: RoundDeps = {
    db,
    addressPolicy: createAddressPolicy({ allowPrivate: true }),
    robots: false,
    concurrency: 1,
    // One run per commit, at once: which results the disk took then depends on when it filled, not on how many
    // loopback probes fit in one batch's delay.
    batch: { maxBatch: 1 },
    trigger: "test",
    log: (l) => void logs.push(l),
  };
  return { disk, db, fleet, logs, deps };
}

async function until(pred: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Each server's latest run's round, and whether it is due at `now`. */
function standing(db: Db, now: string): { round: number | null; due: boolean }[] {
  return (
    db.$client
      .prepare("select r.round_id as round, s.next_due_at as due from servers s left join runs r on r.id = s.last_run_id order by s.id")
      .all() as { round: number | null; due: string | null }[]
  ).map((r) => ({ round: r.round, due: r.due === null || r.due <= now }));
}

describe("a round on a disk that fills up", () => {
  test("stops starting probes, keeps its servers due, and ends as failed with the count once it can record it", async () => {
    const { disk, db, fleet, logs, deps } = await setup();
    let filled = false;
    const r = startRound({
      ...deps,
      onProgress: (p) => {
        if (p.probed === 2 && !filled) {
          filled = true;
          disk.fill();
        }
      },
    });
    expect(r.started).toBe(true);
    if (!r.started) return;
    let summary: RoundSummary | undefined;
    void r.done.then((s) => (summary = s));

    await until(() => db.$writes.unwritable !== null, 20_000, "the first failed write");
    const since = Date.parse(db.$writes.unwritable!.since);
    await new Promise((res) => setTimeout(res, 1_500));
    // No probe started after the failed write (the one in flight when it failed may finish), and the round waits to
    // record its end while nothing can be written.
    expect(fleet.firstRequestAt.filter((t) => t !== undefined && t > since + 50)).toEqual([]);
    const probed = fleet.firstRequestAt.filter((t) => t !== undefined).length;
    expect(probed).toBeLessThan(N);
    expect(summary).toBeUndefined();
    expect(getRound(db, r.roundId)?.status).toBe("running");

    disk.free();
    await until(() => summary !== undefined, 20_000, "the round's end");
    // Runs are committed in batches: a run probed while the second one waited for its commit went with it. The first
    // failed write may be the next result's, or a heartbeat's or a host slot's (then that probe waits for its slot and
    // sends its requests once space is back, and its result is not written): every result is written, or counted as
    // not recorded.
    const written = summary!.probed;
    expect(written).toBeGreaterThanOrEqual(2);
    const unwritten = fleet.firstRequestAt.filter((t) => t !== undefined).length - written;
    expect(summary).toMatchObject({ status: "failed" });
    expect(summary!.error).toMatch(
      new RegExp(`^the database could not be written \\(SQLITE_FULL: database or disk is full\\): ${unwritten} results? not recorded`),
    );
    expect(getRound(db, r.roundId)).toMatchObject({ status: "failed", error: summary!.error, probed: written });
    expect(logs.some((l) => l.includes(`${unwritten} result`) && l.includes("stay due"))).toBe(true);
    // One line about the failing heartbeat, not one per beat.
    expect(logs.filter((l) => l.includes("heartbeat")).length).toBeLessThanOrEqual(2);

    const s = standing(db, new Date().toISOString());
    expect(s.filter((x) => x.round === r.roundId)).toHaveLength(written);
    expect(s.filter((x) => x.round !== r.roundId && x.due)).toHaveLength(N - written);
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");

    // Writes work again: the next round (after the proving write) reads the rest.
    await new Promise((res) => setTimeout(res, WRITE_CHECK_MIN_MS));
    const next = startRound(deps);
    expect(next.started).toBe(true);
    if (next.started) expect(await next.done).toMatchObject({ status: "done", probed: N - written, read: N - written });
    expect(db.$writes.unwritable).toBeNull();
  });

  test("a round that cannot record its end is taken over by the next one", async () => {
    const { disk, db, deps } = await setup();
    let filled = false;
    const stuck = startRound({
      ...deps,
      lockStaleMs: 2_000,
      heartbeatMs: 500,
      onProgress: (p) => {
        if (p.probed === 1 && !filled) {
          filled = true;
          disk.fill();
        }
      },
    });
    if (!stuck.started) throw new Error("not started");
    await until(() => db.$writes.unwritable !== null, 20_000, "the first failed write");
    // Its heartbeat cannot be written either: after lockStaleMs the lock is there for the taking.
    await new Promise((res) => setTimeout(res, 2_500));
    disk.free();
    const next = startRound({ ...deps, lockStaleMs: 2_000, now: () => new Date(Date.now() + WRITE_CHECK_MIN_MS) });
    expect(next.started).toBe(true);
    if (!next.started) return;
    const [first, second] = await Promise.all([stuck.done, next.done]);
    expect(first.status).toBe("failed");
    expect(getRound(db, stuck.roundId)).toMatchObject({ status: "abandoned" });
    expect(second).toMatchObject({ status: "done", probed: N - first.probed });
  });

  test("the registry refresh's failed write opens the alert, and the round records failed once it can", async () => {
    const { disk, db, fleet, deps } = await setup();
    const registry = await startFixtureRegistry(
      fleet.urls.map((url, i) => entry(`io.github.full/r${i}`, [{ type: "streamable-http", url }])),
    );
    cleanups.push(() => registry.close());
    const r = startRound({ ...deps, registryUrl: registry.url, registryMaxAgeMs: 0 });
    if (!r.started) throw new Error("not started");
    // The lock is taken; the registry is being read over HTTP when the disk fills.
    disk.fill();
    await until(() => db.$writes.unwritable !== null, 20_000, "the failed write");
    expect(fleet.firstRequestAt.every((t) => t === undefined)).toBe(true);
    disk.free();
    const s = await r.done;
    expect(s.status).toBe("failed");
    expect(s.error).toMatch(/^the database could not be written \(SQLITE_FULL/);
    expect(getMeta(db, META_KEYS.registryLastError) ?? "").toBe("");
    expect(db.$client.prepare("select count(*) as n from servers where name like 'io.github.full/r%'").get()).toEqual({ n: 0 });
    expect(fleet.firstRequestAt.every((t) => t === undefined)).toBe(true);
  });
});
