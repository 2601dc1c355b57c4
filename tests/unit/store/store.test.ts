import fs from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, test } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { servers } from "@/db/schema";
import { CHECK_IDS, CHECK_STATES } from "@/lib/vocabulary/checks";
import { summaryCounts } from "@/lib/store/servers/counts";
import { getServerDetail } from "@/lib/store/servers/detail";
import { listServers } from "@/lib/store/servers/list";
import { applyRegistrySnapshot, type ListedServer } from "@/lib/store/servers/registry";
import { listDueServers } from "@/lib/store/servers/round";
import { acquireRoundLock, finishRound, getRound, heartbeatRound } from "@/lib/store/rounds";
import { tempDb } from "./helpers";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
function fresh() {
  const t = tempDb();
  cleanups.push(t.cleanup);
  return t;
}

const listed = (name: string, url = `https://${name.replace(/\W/g, "-")}.example/mcp`): ListedServer => ({
  name,
  title: null,
  description: null,
  version: "1.0.0",
  url,
  transport: "streamable-http",
  host: new URL(url).host,
  needsConfig: null,
  registryUpdatedAt: null,
});

describe("database", () => {
  test("opening an empty file applies the committed migrations with WAL and foreign keys", () => {
    const { db, file } = fresh();
    expect(db.$client.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
    const tables = db.$client.prepare("select name from sqlite_master where type='table'").all() as { name: string }[];
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["servers", "runs", "check_results", "round_lock", "coverage_daily"]));
    expect(fs.existsSync(file)).toBe(true);
  });

  test("a savepoint's page copies stay in memory: no temporary file per server's run", () => {
    const { db } = fresh();
    const sqlite = db.$client;
    sqlite.exec("create table big (id integer primary key, body text)");
    sqlite.prepare("insert into big (body) select printf('%.3000c', 'x') from json_each(json_array(" + "0,".repeat(99) + "0))").run();
    // SQLite names its temporary files etilqs_*; a sub-journal spills to one past 64 KiB of changed pages.
    const tempFiles = () =>
      fs
        .readdirSync("/proc/self/fd")
        .map((fd) => {
          try {
            return fs.readlinkSync(`/proc/self/fd/${fd}`);
          } catch {
            return "";
          }
        })
        .filter((target) => target.includes("etilqs"));
    let during: string[] = [];
    sqlite.transaction(() => {
      sqlite.transaction(() => {
        sqlite.prepare("update big set body = printf('%.3000c', 'y')").run();
        during = tempFiles();
      })();
    })();
    expect(during).toEqual([]);
    expect(sqlite.prepare("select count(*) from big where body like 'y%'").pluck().get()).toBe(100);
  });

  test("reopening an existing file keeps its data and applies nothing twice", () => {
    const { db, file } = fresh();
    applyRegistrySnapshot(db, [listed("a/one")], "2026-11-29T00:00:00.000Z");
    closeDb(db);
    const again = openDb(file);
    cleanups.push(() => closeDb(again));
    expect(listServers(again).total).toBe(1);
    const n = (again.$client.prepare("select count(*) n from __drizzle_migrations").get() as { n: number }).n;
    expect(n).toBe(fs.readdirSync("db/migrations").filter((f) => f.endsWith(".sql")).length);
  });

  test("an older file (no migrations table) is migrated on open", () => {
    const { dir } = fresh();
    const file = `${dir}/old.db`;
    new Database(file).close();
    const db = openDb(file);
    cleanups.push(() => closeDb(db));
    expect(listServers(db).total).toBe(0);
  });
});

describe("registry snapshot", () => {
  test("servers that leave keep their history and are cleared when listed again", () => {
    const { db } = fresh();
    applyRegistrySnapshot(db, [listed("a/one"), listed("a/two")], "2026-11-01T00:00:00.000Z");
    const r2 = applyRegistrySnapshot(db, [listed("a/one")], "2026-11-02T00:00:00.000Z");
    expect(r2).toMatchObject({ added: 0, updated: 1, left: 1 });
    expect(getServerDetail(db, "a/two")).toMatchObject({
      leftRegistryAt: "2026-11-02T00:00:00.000Z",
      firstSeenAt: "2026-11-01T00:00:00.000Z",
    });
    expect(listServers(db).rows.map((r) => r.name)).toEqual(["a/one"]);
    expect(listServers(db, { includeLeft: true }).total).toBe(2);
    expect(listDueServers(db, "2026-11-03T00:00:00.000Z").map((s) => s.name)).toEqual(["a/one"]);

    const r3 = applyRegistrySnapshot(db, [listed("a/one"), listed("a/two")], "2026-11-03T00:00:00.000Z");
    expect(r3).toMatchObject({ returned: 1, left: 0 });
    expect(getServerDetail(db, "a/two")?.leftRegistryAt).toBeNull();
  });

  test("a changed remote URL makes the server due again", () => {
    const { db } = fresh();
    applyRegistrySnapshot(db, [listed("a/one")], "2026-11-01T00:00:00.000Z");
    db.update(servers).set({ nextDueAt: "2026-12-01T00:00:00.000Z" }).run();
    expect(listDueServers(db, "2026-11-02T00:00:00.000Z")).toHaveLength(0);
    applyRegistrySnapshot(db, [listed("a/one", "https://moved.example/mcp")], "2026-11-02T00:00:00.000Z");
    expect(listDueServers(db, "2026-11-02T00:00:00.000Z").map((s) => s.remoteUrl)).toEqual(["https://moved.example/mcp"]);
  });
});

describe("read API at 30,000 servers", () => {
  test("filters, searches and pages quickly on indexes", () => {
    const { db } = fresh();
    const N = 30_000;
    const insert = db.$client.prepare(
      `insert into servers (name, title, remote_url, transport, host, first_seen_at, last_seen_at,
        state_handshake, state_protocol_version, state_tools_list, state_error_taxonomy, state_auth_metadata)
       values (?, ?, ?, 'streamable-http', ?, '2026-11-01', '2026-11-01', ?, ?, ?, ?, ?)`,
    );
    db.$client.transaction(() => {
      for (let i = 0; i < N; i++) {
        const st = (k: number) => CHECK_STATES[(i + k) % 4];
        insert.run(
          `io.github.u${i % 997}/srv-${String(i).padStart(5, "0")}`,
          i % 10 === 0 ? `Weather ${i}` : null,
          `https://h${i}.example/mcp`,
          `h${i}.example`,
          st(0),
          st(1),
          st(2),
          st(3),
          i % 3 === 0 ? "not_checked" : "verified",
        );
      }
    })();

    const t0 = performance.now();
    const all = listServers(db, { pageSize: 100, page: 250 });
    const failed = listServers(db, { states: { tools_list: "failed" }, pageSize: 50, page: 100 });
    const both = listServers(db, { states: { handshake: "verified", auth_metadata: "not_checked" } });
    const search = listServers(db, { q: "weather 2999" });
    const counts = summaryCounts(db);
    const ms = performance.now() - t0;
    console.log(`[store] 5 index queries over ${N} servers in ${Math.round(ms)} ms`);

    expect(all.total).toBe(N);
    expect(all.rows).toHaveLength(100);
    expect(all.rows[0]!.name < all.rows[99]!.name).toBe(true);
    expect(failed.total).toBe(N / 4);
    expect(failed.rows.every((r) => r.states.tools_list === "failed")).toBe(true);
    expect(both.rows.every((r) => r.states.handshake === "verified" && r.states.auth_metadata === "not_checked")).toBe(true);
    expect(search.rows.map((r) => r.title)).toEqual(["Weather 29990"]);
    expect(counts.servers).toBe(N);
    for (const id of CHECK_IDS) expect(Object.values(counts.byCheck[id]).reduce((a, b) => a + b, 0)).toBe(N);
    expect(ms).toBeLessThan(1500);

    const plan = db.$client
      .prepare(
        "explain query plan select name from servers where state_tools_list = 'failed' and left_registry_at is null order by name limit 50",
      )
      .all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(" ")).toMatch(/servers_tl_idx/);
  });

  test("search treats % and _ literally", () => {
    const { db } = fresh();
    applyRegistrySnapshot(db, [listed("a/one_two"), listed("a/onextwo")], "2026-11-01T00:00:00.000Z");
    expect(listServers(db, { q: "one_two" }).rows.map((r) => r.name)).toEqual(["a/one_two"]);
    expect(listServers(db, { q: "%" }).total).toBe(0);
  });

  test("unknown names have no detail", () => {
    const { db } = fresh();
    expect(getServerDetail(db, "no/such")).toBeNull();
  });
});

describe("state counts", () => {
  test("count each listed server's stored states: a state not yet judged and a server that left count nowhere", () => {
    const { db } = fresh();
    const insert = db.$client.prepare(
      `insert into servers (name, remote_url, transport, host, first_seen_at, last_seen_at, left_registry_at, overall,
        state_handshake, state_protocol_version, state_tools_list, state_error_taxonomy, state_auth_metadata)
       values (?, 'https://h.example/mcp', 'streamable-http', 'h.example', '2026-11-01', '2026-11-01', ?, ?, ?, ?, ?, ?, ?)`,
    );
    const pick = (i: number, k: number) => ((i * 7 + k * 3) % 5 === 4 ? null : CHECK_STATES[(i * (k + 2)) % 4]);
    for (let i = 0; i < 300; i++) {
      const left = i % 11 === 0 ? "2026-11-02" : null;
      insert.run(`io.github.u/s-${i}`, left, ...[5, 0, 1, 2, 3, 4].map((k) => pick(i, k)));
    }

    const rows = db
      .select()
      .from(servers)
      .all()
      .filter((r) => r.leftRegistryAt === null);
    const counts = summaryCounts(db);
    expect(counts.servers).toBe(rows.length);
    expect(counts.servers).toBeLessThan(300);
    const fields = {
      handshake: "stateHandshake",
      protocol_version: "stateProtocolVersion",
      tools_list: "stateToolsList",
      error_taxonomy: "stateErrorTaxonomy",
      auth_metadata: "stateAuthMetadata",
    } as const;
    for (const state of CHECK_STATES) {
      expect(counts.byOverall[state]).toBe(rows.filter((r) => r.overall === state).length);
      for (const id of CHECK_IDS) expect(counts.byCheck[id][state]).toBe(rows.filter((r) => r[fields[id]] === state).length);
    }
    expect(Object.values(counts.byOverall).reduce((a, b) => a + b, 0)).toBeLessThan(rows.length);
  });
});

describe("round lock", () => {
  test("one holder at a time; a stale heartbeat passes the lock on and abandons the dead round", () => {
    const { db } = fresh();
    const t = new Date("2026-11-29T12:00:00.000Z");
    const a = acquireRoundLock(db, { holder: "a", trigger: "test", now: t, staleMs: 120_000 });
    expect(a.acquired).toBe(true);
    const b = acquireRoundLock(db, { holder: "b", trigger: "test", now: new Date(t.getTime() + 60_000), staleMs: 120_000 });
    expect(b).toMatchObject({ acquired: false, holder: "a" });
    expect(heartbeatRound(db, a.roundId, "a", new Date(t.getTime() + 90_000), { probed: 3 })).toBe(true);
    // 2 min after the last heartbeat, a is presumed dead.
    const c = acquireRoundLock(db, { holder: "c", trigger: "test", now: new Date(t.getTime() + 211_000), staleMs: 120_000 });
    expect(c.acquired).toBe(true);
    expect(getRound(db, a.roundId)).toMatchObject({ status: "abandoned", probed: 3 });
    // The old holder notices it lost the lock and cannot release c's.
    expect(heartbeatRound(db, a.roundId, "a", new Date(t.getTime() + 212_000), {})).toBe(false);
    finishRound(db, a.roundId, "a", { now: new Date(), status: "done", progress: {} });
    expect(acquireRoundLock(db, { holder: "d", trigger: "test", now: new Date(t.getTime() + 213_000), staleMs: 120_000 }).acquired).toBe(
      false,
    );
    if (c.acquired) finishRound(db, c.roundId, "c", { now: new Date(), status: "done", progress: {} });
    expect(acquireRoundLock(db, { holder: "d", trigger: "test", now: new Date(t.getTime() + 214_000), staleMs: 120_000 }).acquired).toBe(
      true,
    );
  });
});
