// A backup taken while a round writes, restored as an operator would: `npm run backup` beside a real `npm start`, the
// site stopped, `npm run restore` into a fresh path, `npm start` on it; every server the backup holds answers as before.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { entry, startFixtureRegistry, type FixtureRegistry } from "../../lib/demo/loopback-registry";
import { createZooHandler } from "../../lib/demo/zoo";
import { serverUrl } from "./helpers";
import { freshDbFile, startOwnSite, type OwnSite } from "./own-site";

const DIR = path.resolve("test-results/backup");
const LIVE_DB = path.join(DIR, "live", "status.db");
const BACKUP = path.join(DIR, "backups", "status-during-round.db");
const RESTORED_DB = path.join(DIR, "restored", "status.db");
const SECRET = "backup-spec-secret";
// Kinds whose probes end in an HTTP answer (no network-level failure, so no second probe a minute later).
const KINDS = ["modern-healthy-paged", "legacy-2025-06-18-stateless", "dual-era", "declined-32020-json", "discover-500-stack-trace"];
const N = 12;
const name = (i: number) => `io.github.backup/s${String(i).padStart(2, "0")}`;

test.describe.configure({ mode: "serial" });
test.use({ javaScriptEnabled: false });

function npmRun(script: "backup" | "restore", file: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn("npm", ["run", "--silent", script, "--", file], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, out })));
}

function readDb<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}
const runIds = (file: string) =>
  readDb(file, (db) => (db.prepare("select id from runs order by id").all() as { id: number }[]).map((r) => r.id));
const latestRuns = (file: string) =>
  readDb(
    file,
    (db) =>
      new Map(
        (db.prepare("select name, last_run_id as run from servers").all() as { name: string; run: number | null }[]).map((r) => [
          r.name,
          r.run,
        ]),
      ),
  );

interface Answers {
  json: unknown;
  text: string;
}

/** What a reader gets for a server: its JSON, and its page's text as Chromium shows it without JavaScript (the render
 * stamp, which says when this process rendered it, left out). */
async function answersFor(page: Page, origin: string, server: string): Promise<Answers> {
  const res = await page.request.get(`${origin}/api/servers/${server}`);
  expect(res.status()).toBe(200);
  await page.goto(`${origin}${serverUrl(server)}`);
  const text = await page.evaluate(() => {
    for (const e of document.querySelectorAll(".render-stamp")) e.remove();
    return document.body.innerText;
  });
  const json = (await res.json()) as { uptime?: { last24h?: { from: string } }; regionUptime?: { from: string }[] };
  // The 24-hour uptime window starts 24 hours before the request, and each region's uptime 30 days before it: the
  // fields that move with the clock.
  const window = json.uptime?.last24h;
  if (window) {
    expect(Math.abs(Date.now() - 86_400_000 - Date.parse(window.from))).toBeLessThan(120_000);
    window.from = "24 hours before the request";
  }
  for (const u of json.regionUptime ?? []) {
    expect(Math.abs(Date.now() - 30 * 86_400_000 - Date.parse(u.from))).toBeLessThan(120_000);
    u.from = "30 days before the request";
  }
  return { json, text };
}

async function listed(page: Page, origin: string): Promise<Map<string, unknown>> {
  const res = await page.request.get(`${origin}/api/servers?pageSize=50`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { total: number; rows: { name: string }[] };
  expect(body.total).toBe(body.rows.length);
  return new Map(body.rows.map((r) => [r.name, r]));
}

let fleet: Server[] = [];
/** While set, the fleet answers nothing: the round waits on its current probe. */
let held: Promise<void> = Promise.resolve();
let release = () => {};
let registry: FixtureRegistry | undefined;
let live: OwnSite | undefined;
let restored: OwnSite | undefined;

test.afterAll(async () => {
  release();
  await live?.stop();
  await restored?.stop();
  await Promise.all(fleet.map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
  await registry?.close();
});

test("a backup taken during a round restores into a fresh path, and the site answers as before for every run it holds", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const started = await Promise.all(
    Array.from({ length: N }, (_, i) => {
      const handler = createZooHandler(KINDS[i % KINDS.length]!);
      // Slow answers, and none at all while the test holds the fleet: the round is still running when the backup ends.
      const server = createServer(
        (req, res) =>
          void new Promise((r) => setTimeout(r, 250))
            .then(() => held)
            .then(() => handler(req, res))
            .catch(() => res.destroy()),
      );
      return new Promise<string>((resolve) =>
        server.listen(
          0,
          "127.0.0.1",
          () => (fleet.push(server), resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)),
        ),
      );
    }),
  );
  registry = await startFixtureRegistry(started.map((url, i) => entry(name(i), [{ type: "streamable-http", url }])));
  for (const f of [LIVE_DB, RESTORED_DB, BACKUP]) freshDbFile(f);
  const env = {
    CRON_SECRET: SECRET,
    REGISTRY_URL: registry.url,
    PROBE_ALLOW_PRIVATE_NETWORKS: "1",
    PROBE_CONCURRENCY: "1",
    CROSS_READ_SAMPLE: "0",
    // One public origin for both sites, as behind an operator's proxy: copyable links on the pages name it, not
    // each process's own loopback port.
    PUBLIC_BASE_URL: "https://status.example",
  };
  live = await startOwnSite(LIVE_DB, env);
  const origin = live.origin;
  const auth = { authorization: `Bearer ${SECRET}` };

  const post = await page.request.post(`${origin}/api/rounds`, { headers: auth });
  expect(post.status()).toBe(202);
  const { id } = (await post.json()) as { id: number };
  const round = async () => (await (await page.request.get(`${origin}/api/rounds/${id}`, { headers: auth })).json()) as { status: string };
  await expect.poll(() => runIds(LIVE_DB).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);

  // What readers get just before the backup begins; the round goes on writing meanwhile.
  const before = {
    runs: runIds(LIVE_DB),
    latest: latestRuns(LIVE_DB),
    list: await listed(page, origin),
    servers: new Map<string, Answers>(),
  };
  for (let i = 0; i < N; i++) before.servers.set(name(i), await answersFor(page, origin, name(i)));
  const capturedRuns = before.runs;
  held = new Promise((r) => (release = r));
  expect((await round()).status).toBe("running");

  fs.mkdirSync(path.dirname(BACKUP), { recursive: true });
  const backup = await npmRun("backup", BACKUP, { DATABASE_PATH: LIVE_DB });
  expect(backup.code, backup.out).toBe(0);
  expect(backup.out).toMatch(/\[backup\] .*status\.db -> .*status-during-round\.db: [\d.]+ MB, integrity ok, 12 servers/);
  expect((await round()).status, "the round was still running when the backup finished").toBe("running");
  const inCopy = runIds(BACKUP);
  expect(inCopy.slice(0, capturedRuns.length), "every run committed before the backup began").toEqual(capturedRuns);
  // Let the round go on: it writes runs the backup does not hold.
  release();
  await expect.poll(() => runIds(LIVE_DB).length, { timeout: 60_000 }).toBeGreaterThan(inCopy.length);

  // While the site runs on its database, a restore onto it is refused and changes nothing.
  const refused = await npmRun("restore", BACKUP, { DATABASE_PATH: LIVE_DB });
  expect(refused.code).toBe(1);
  expect(refused.out).toMatch(/is open in another process \(the site, a round or another command\): stop it first; nothing was changed/);

  await live.stop();
  live = undefined;
  const restore = await npmRun("restore", BACKUP, { DATABASE_PATH: RESTORED_DB });
  expect(restore.code, restore.out).toBe(0);
  expect(restore.out).toMatch(/\[restore\] .*status-during-round\.db -> .*restored\/status\.db: .* integrity ok, 12 servers/);
  expect(restore.out).toMatch(new RegExp(`round ${id} was running when the backup was taken: marked abandoned`));

  restored = await startOwnSite(RESTORED_DB, env);
  const after = await listed(page, restored.origin);
  const inBackup = latestRuns(BACKUP);
  let compared = 0;
  for (let i = 0; i < N; i++) {
    const server = name(i);
    // A server probed again between the capture and the backup's snapshot shows that later run: not comparable.
    if (inBackup.get(server) !== before.latest.get(server)) continue;
    compared++;
    const now = await answersFor(page, restored.origin, server);
    expect(now.json, `${server}: /api/servers/<name>`).toEqual(before.servers.get(server)!.json);
    expect(now.text, `${server}: its page`).toBe(before.servers.get(server)!.text);
    expect(after.get(server), `${server}: its /api/servers row`).toEqual(before.list.get(server));
  }
  expect(compared, "servers whose latest run the capture and the backup share").toBeGreaterThanOrEqual(3);
  for (const run of capturedRuns) {
    const res = await page.request.get(`${restored.origin}/runs/${run}`);
    expect(res.status(), `/runs/${run}`).toBe(200);
  }
});
