import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { closeDb, MIGRATIONS_FOLDER, openDb } from "@/db/client";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { createZooHandler } from "@/lib/demo/zoo";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { listedServer } from "../store/listed";

// npm run backup / npm run restore as an operator runs them: real processes on real SQLite files, a real round
// writing during the copy, kill -9 half-way, files that must be refused, a read-only and a full file system.

let dir: string;
/** For tests that start several tsx processes: a few seconds each, many more while other suites share the cores. */
const SPAWNS = { timeout: 120_000 };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-status-backup-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Exit {
  code: number | null;
  signal: string | null;
  out: string;
  err: string;
}

function command(
  script: "backup" | "restore" | "round",
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; exit: Promise<Exit>; onLine: (re: RegExp) => Promise<void> } {
  const child = spawn(process.execPath, ["--import", "tsx", `lib/cli/${script}.ts`, ...args], {
    env: { ...process.env, PROBE_SCHEDULE: "", CRON_SECRET: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of waiters.splice(0)) {
      if (w.re.test(out + err)) w.resolve();
      else waiters.push(w);
    }
  };
  child.stdout!.on("data", (d: Buffer) => ((out += d.toString()), check()));
  child.stderr!.on("data", (d: Buffer) => ((err += d.toString()), check()));
  // "close", not "exit": a process that writes its sentence and exits at once may exit before its pipes are read.
  const exit = new Promise<Exit>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, out, err })));
  const onLine = (re: RegExp) =>
    new Promise<void>((resolve, reject) => {
      waiters.push({ re, resolve });
      check();
      void exit.then((e) => reject(new Error(`exited (${e.code ?? e.signal}) before ${re}: ${e.out}${e.err}`)));
    });
  return { child, exit, onLine };
}

const run = async (script: "backup" | "restore", args: string[], env: Record<string, string>) => command(script, args, env).exit;

/** A live database of mcp-status with `servers` listed servers (a few MB with long descriptions), closed again.
 * `left`: they have all left the registry since, so they are kept but never due. */
function liveDb(name: string, servers: number, o: { migrationsFolder?: string; left?: boolean } = {}): string {
  const file = path.join(dir, name);
  const db = openDb(file, { migrationsFolder: o.migrationsFolder });
  const listed = Array.from({ length: servers }, (_, i) => ({
    ...listedServer(`io.github.filler/s${i}`, `https://filler${i % 97}.example/mcp/${i}`),
    description: `A filler server of the backup test, number ${i}: `.padEnd(600, "x"),
  }));
  const now = new Date().toISOString();
  // An older schema lacks columns today's registry code writes (0016 added servers.config_headers): plain rows then.
  if (o.migrationsFolder) {
    const insert = db.$client.prepare(
      "insert into servers (name, description, remote_url, transport, host, first_seen_at, last_seen_at) values (?, ?, ?, 'streamable-http', ?, ?, ?)",
    );
    for (const s of listed) insert.run(s.name, s.description, s.url, s.host, now, now);
  } else applyRegistrySnapshot(db, listed, now);
  if (o.left) db.$client.prepare("update servers set left_registry_at = ?").run(now);
  closeDb(db);
  return file;
}

const sha = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const ids = (file: string, sql = "select id from runs order by id") => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).all() as { id: number }[]).map((r) => r.id);
  } finally {
    db.close();
  }
};
const one = <T>(file: string, sql: string): T => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
};

/** A copy of the committed migrations without the last `drop` of them: a database of an earlier version. */
function olderMigrations(drop: number): string {
  const folder = fs.mkdtempSync(path.join(dir, "migrations-"));
  fs.cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, -drop);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe("npm run backup during a round that writes", () => {
  const N = 40;
  let fleet: Server[] = [];
  let registry: FixtureRegistry;

  beforeAll(async () => {
    const handler = createZooHandler("modern-healthy-paged");
    const started = await Promise.all(
      Array.from({ length: N }, () => {
        // Slow answers from 40 servers, one at a time: the round writes for most of a minute, through the whole copy.
        const server = createServer(
          (req, res) => void new Promise((r) => setTimeout(r, 250)).then(() => handler(req, res)).catch(() => res.destroy()),
        );
        return new Promise<{ server: Server; url: string }>((resolve) =>
          server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` })),
        );
      }),
    );
    fleet = started.map((s) => s.server);
    registry = await startFixtureRegistry(
      started.map((s, i) => entry(`io.github.live/s${i}`, [{ type: "streamable-http", url: s.url }])),
      { pageSize: 5 },
    );
  });
  afterAll(async () => {
    await Promise.all(fleet.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
    await registry.close();
  });

  test("the copy opens, passes integrity_check and holds every run committed before the backup began; it restores and serves", async () => {
    // The fillers have left the registry, so the round probes only the fleet: due, their unresolvable hosts would look
    // like the probe's own network failing (architecture.md §2.7), and the round would pause after 20 of them.
    const live = liveDb("round-live.db", 4000, { left: true });
    const round = command("round", ["--no-robots"], {
      DATABASE_PATH: live,
      REGISTRY_URL: registry.url,
      PROBE_ALLOW_PRIVATE_NETWORKS: "1",
      PROBE_CONCURRENCY: "1",
    });
    try {
      const until = Date.now() + 45_000;
      while (ids(live).length < 2) {
        if (Date.now() > until) throw new Error(`the round wrote no runs: ${JSON.stringify(await Promise.race([round.exit, "running"]))}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const before = ids(live);
      const dest = path.join(dir, "during-round.db");
      // About 5 MB at 1 MB/s: the round commits several runs while the copy runs.
      const backup = await run("backup", [dest, "--limit-rate", "1"], { DATABASE_PATH: live });
      const after = ids(live);
      expect(backup.code, backup.err).toBe(0);
      expect(backup.out).toMatch(/\[backup\] .* -> .*during-round\.db: [\d.]+ MB, integrity ok, \d+ servers, \d+ runs/);
      expect(after.length, "the round wrote during the backup").toBeGreaterThan(before.length);
      expect(fs.readdirSync(dir).filter((f) => f.startsWith("during-round.db."))).toEqual([]);

      const copy = new Database(dest, { readonly: true });
      try {
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
        const held = (copy.prepare("select id from runs order by id").all() as { id: number }[]).map((r) => r.id);
        expect(held.slice(0, before.length)).toEqual(before);
        for (const id of held) {
          // Each run landed whole: its five results or none of it.
          expect(copy.prepare("select count(*) n from check_results where run_id = ?").get(id)).toEqual({ n: 5 });
        }
        expect(copy.prepare("select status from rounds order by id desc limit 1").get()).toEqual({ status: "running" });
      } finally {
        copy.close();
      }

      // The copy restores into a fresh path: the round it caught running is closed as abandoned, and the site's
      // opener takes it as it is.
      const target = path.join(dir, "fresh", "restored.db");
      const restore = await run("restore", [dest], { DATABASE_PATH: target });
      expect(restore.code, restore.err).toBe(0);
      expect(restore.out).toMatch(/round \d+ was running when the backup was taken: marked abandoned/);
      expect(ids(target)).toEqual(ids(dest));
      expect(one(target, "select count(*) n from round_lock")).toEqual({ n: 0 });
      expect(one(target, "select status, error from rounds order by id desc limit 1")).toEqual({
        status: "abandoned",
        error: "restored from a backup taken while this round ran",
      });
      const db = openDb(target);
      closeDb(db);
    } finally {
      round.child.kill("SIGKILL");
      await round.exit;
    }
  }, 120_000);
});

describe("npm run backup killed half-way", SPAWNS, () => {
  test("leaves the live database untouched and only a file named partial, which the next backup removes", async () => {
    const live = liveDb("kill-live.db", 8000);
    const liveBefore = sha(live);
    const dest = path.join(dir, "killed.db");
    const b = command("backup", [dest, "--limit-rate", "2"], { DATABASE_PATH: live });
    await b.onLine(/\[backup\] (3|4|5)0% of/);
    b.child.kill("SIGKILL");
    const killed = await b.exit;
    expect(killed.signal).toBe("SIGKILL");
    expect(killed.out).not.toMatch(/integrity ok/);

    expect(fs.existsSync(dest)).toBe(false);
    const left = fs.readdirSync(dir).filter((f) => f.startsWith("killed.db"));
    expect(left).toContain(`killed.db.partial-${b.child.pid}`);
    expect(left.every((f) => f.startsWith(`killed.db.partial-${b.child.pid}`))).toBe(true);
    expect(sha(live)).toBe(liveBefore);
    expect(one(live, "pragma integrity_check")).toEqual({ integrity_check: "ok" });

    const again = await run("backup", [dest], { DATABASE_PATH: live });
    expect(again.code, again.err).toBe(0);
    expect(again.err).toMatch(new RegExp(`removed killed\\.db\\.partial-${b.child.pid}.*left by a backup that was killed`));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("killed.db"))).toEqual(["killed.db"]);
    expect(one(dest, "select count(*) n from servers")).toEqual({ n: 8000 });
  });

  test("SIGTERM stops the copy and removes the partial file", async () => {
    const live = liveDb("term-live.db", 8000);
    const dest = path.join(dir, "stopped.db");
    const b = command("backup", [dest, "--limit-rate", "2"], { DATABASE_PATH: live });
    await b.onLine(/\[backup\] [1-5]0% of/);
    b.child.kill("SIGTERM");
    const stopped = await b.exit;
    expect(stopped.code).toBe(1);
    expect(stopped.err).toMatch(/backup: stopped \(SIGTERM\); the partial copy was removed/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("stopped.db"))).toEqual([]);
  });
});

describe.concurrent("npm run backup refuses what it cannot do, with exit 2 and a sentence", SPAWNS, () => {
  let live: string;
  beforeAll(() => {
    live = liveDb("usage-live.db", 10);
  });

  test.for([
    { args: [], message: /backup: missing the backup file/ },
    { args: ["a.db", "b.db"], message: /backup: one backup file, got 2/ },
    { args: ["x.db", "--bogus"], message: /backup: unknown option --bogus/ },
    { args: ["x.db", "--limit-rate", "0"], message: /--limit-rate needs a rate of at least 1/ },
    { args: ["x.db", "--limit-rate"], message: /--limit-rate needs a rate in MB\/s/ },
    { args: ["/no/such/folder/x.db"], message: /cannot write \/no\/such\/folder: the folder does not exist/ },
    { args: ["/sys/mcp-status.db"], message: /cannot write \/sys: permission denied/ },
    { args: ["/etc/hostname/x.db"], message: /cannot write \/etc\/hostname: a part of the path is not a folder/ },
    { args: ["@live"], message: /is the live database itself/ },
    { args: ["@dir"], message: /is a folder: name the backup file/ },
    { args: ["@none"], message: /none\.db \(DATABASE_PATH\) does not exist/ },
  ])("$args", async ({ args, message }, { expect }) => {
    const none = path.join(dir, "none.db");
    const argv = args.map((a) => (a === "@live" ? live : a === "@dir" ? dir : a === "@none" ? path.join(dir, "x.db") : a));
    const r = await run("backup", argv, { DATABASE_PATH: args[0] === "@none" ? none : live });
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).toBe("");
    expect(fs.existsSync(none)).toBe(false);
  });

  test("a read-only file system gets exit 2; a full one breaks the copy off with exit 1 and leaves nothing", async ({ expect }) => {
    expect(process.getuid?.(), "mounting the test's file systems needs root").toBe(0);
    const mounts: string[] = [];
    const mount = (opts: string) => {
      const m = fs.mkdtempSync(path.join(dir, "mnt-"));
      execFileSync("mount", ["-t", "tmpfs", "-o", opts, "tmpfs", m]);
      mounts.push(m);
      return m;
    };
    try {
      const ro = mount("ro,size=1m");
      const r = await run("backup", [path.join(ro, "x.db")], { DATABASE_PATH: live });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/cannot write .*: the file system is read-only/);

      const big = liveDb("full-live.db", 3000);
      const small = mount("size=256k");
      const f = await run("backup", [path.join(small, "x.db")], { DATABASE_PATH: big });
      expect(f.code).toBe(1);
      expect(f.err).toMatch(/backup: the copy to .*x\.db\.partial-\d+ broke off: database or disk is full/);
      expect(fs.readdirSync(small)).toEqual([]);
    } finally {
      for (const m of mounts) execFileSync("umount", [m]);
    }
  });
});

describe.concurrent("npm run restore checks the file before anything moves", SPAWNS, () => {
  let good: string;
  beforeAll(async () => {
    const live = liveDb("restore-live.db", 50);
    good = path.join(dir, "good-backup.db");
    const r = await run("backup", [good], { DATABASE_PATH: live });
    expect(r.code, r.err).toBe(0);
  });

  /** A target holding a database of its own, to show a refused restore leaves it as it was. */
  function target(name: string): { file: string; hash: string } {
    const file = liveDb(name, 3);
    return { file, hash: sha(file) };
  }

  /** Files that must be refused, made on first use. */
  function refusable(kind: "text" | "other" | "damaged"): string {
    if (kind === "text") {
      const text = path.join(dir, "notes.txt");
      fs.writeFileSync(text, "not a database\n".repeat(100));
      return text;
    }
    if (kind === "other") {
      const other = path.join(dir, "other-app.db");
      const o = new Database(other);
      o.exec("create table notes (id integer primary key, body text); insert into notes (body) values ('hello')");
      o.close();
      return other;
    }
    const damaged = path.join(dir, "damaged.db");
    fs.copyFileSync(good, damaged);
    // Overwrite part of a b-tree page of the servers table: the file still opens, the check fails.
    const d = new Database(damaged, { readonly: true });
    const page = (d.prepare("select rootpage from sqlite_master where name = 'servers'").get() as { rootpage: number }).rootpage;
    const pageSize = d.pragma("page_size", { simple: true }) as number;
    d.close();
    const fd = fs.openSync(damaged, "r+");
    fs.writeSync(fd, Buffer.alloc(200, 0xff), 0, 200, (page - 1) * pageSize + 8);
    fs.closeSync(fd);
    return damaged;
  }

  test.for([
    { kind: "text", message: /notes\.txt is not an SQLite database, so not an mcp-status one/ },
    {
      kind: "other",
      message:
        /other-app\.db is an SQLite database but not an mcp-status one: it has no __drizzle_migrations, servers, runs, check_results, rounds table/,
    },
    { kind: "damaged", message: /damaged\.db fails PRAGMA integrity_check: / },
  ] as const)("a $kind file is refused, saying which, and the database stays as it was", async ({ kind, message }, { expect }) => {
    const file = refusable(kind);
    const t = target(`target-${kind}.db`);
    const r = await run("restore", [file], { DATABASE_PATH: t.file });
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(message);
    expect(sha(t.file)).toBe(t.hash);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(path.basename(t.file) + "."))).toEqual([]);
  });

  test("a file from a newer schema is refused as newer; one from an older schema is upgraded as it goes in", async ({ expect }) => {
    const newer = path.join(dir, "newer.db");
    fs.copyFileSync(good, newer);
    const n = new Database(newer);
    const last = (n.prepare("select max(created_at) at from __drizzle_migrations").get() as { at: number }).at;
    n.prepare("insert into __drizzle_migrations (hash, created_at) values ('from-a-later-version', ?)").run(Number(last) + 86_400_000);
    n.exec("create table later_feature (id integer primary key)");
    n.close();
    const t = target("target-newer.db");
    const r = await run("restore", [newer], { DATABASE_PATH: t.file });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /newer\.db is from a newer mcp-status: its schema has 1 migration\(s\) this version does not know .*upgrade mcp-status/,
    );
    expect(sha(t.file)).toBe(t.hash);

    const known = ids(good, "select id from __drizzle_migrations order by id").length;
    const older = liveDb("older.db", 20, { migrationsFolder: olderMigrations(1) });
    const fresh = path.join(dir, "fresh-from-older", "status.db");
    const u = await run("restore", [older], { DATABASE_PATH: fresh });
    expect(u.code, u.err).toBe(0);
    expect(u.out).toMatch(new RegExp(`20 servers, 0 runs \\(latest none\\), upgraded from migration ${known - 1} to ${known}`));
    expect(ids(fresh, "select id from __drizzle_migrations order by id")).toHaveLength(known);
  });

  test("refused while another process has the database open, idle between rounds; taken once that process is killed", async ({
    expect,
  }) => {
    const t = target("target-open.db");
    // Opens the database as the site does (migrations, WAL, a read), keeps the connection, and then only waits, as the
    // site does between rounds.
    const holder = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import("./db/client").then((m) => { globalThis.held = m.openDb(${JSON.stringify(t.file)}); console.log("open"); setInterval(() => {}, 1000); })`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const gone = new Promise((r) => holder.once("exit", r));
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.once("data", () => resolve());
        void gone.then(() => reject(new Error("the process holding the database exited before it opened it")));
      });

      const r = await run("restore", [good], { DATABASE_PATH: t.file });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(
        /target-open\.db is open in another process \(the site, a round or another command\): stop it first; nothing was changed/,
      );
      expect(sha(t.file)).toBe(t.hash);
    } finally {
      holder.kill("SIGKILL");
      await gone;
    }
    const ok = await run("restore", [good], { DATABASE_PATH: t.file });
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toMatch(/the database it replaced is kept as .*target-open\.db\.before-restore-/);
    expect(one(t.file, "select count(*) n from servers")).toEqual({ n: 50 });
    const kept = fs.readdirSync(dir).find((f) => f.startsWith("target-open.db.before-restore-"))!;
    expect(one(path.join(dir, kept), "select count(*) n from servers")).toEqual({ n: 3 });
    expect(fs.existsSync(`${t.file}-wal`)).toBe(false);
  });

  test.for([
    { args: [], message: /restore: missing the backup file to restore/ },
    { args: ["a.db", "b.db"], message: /restore: one backup file, got 2/ },
    { args: ["@absent"], message: /absent\.db does not exist/ },
    { args: ["@dir"], message: /is not a file/ },
  ])("bad usage $args: exit 2, and nothing is made", async ({ args, message }, { expect }) => {
    const unused = path.join(dir, `unused-${args.length}-${args[0] ?? ""}.db`.replace(/[@/]/g, ""));
    const argv = args.map((a) => (a === "@absent" ? path.join(dir, "absent.db") : a === "@dir" ? dir : a));
    const r = await run("restore", argv, { DATABASE_PATH: unused });
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(message);
    expect(fs.existsSync(unused)).toBe(false);
  });
});
