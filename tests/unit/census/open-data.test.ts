import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openApiDocument } from "@/app/api/_lib/openapi";
import { closeDb, getDb, type Db } from "@/db/client";
import { parseConfig, type Config } from "@/lib/config";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startZooServer, type RunningZooServer } from "@/lib/demo/zoo";
import { roundDepsFromConfig } from "@/lib/rounds/background";
import { dailyCensusRunning } from "@/lib/rounds/census";
import { listServersFiles, pruneServersFiles, writeServersFile } from "@/lib/rounds/open-data";
import { startReprobeRound } from "@/lib/rounds/reprobe";
import { runRound } from "@/lib/rounds/round";
import { censusCsv, censusCsvColumns } from "@/lib/site/census-data";
import { fileAnswer, parseRange } from "@/lib/site/file-answer";
import { serversFileDay } from "@/lib/site/paths";
import { listCensusDays } from "@/lib/store/census";
import { serverIdByName } from "@/lib/store/history";
import { getServerDetail } from "@/lib/store/servers/detail";
import { documentValidator } from "../../fixtures/openapi-ajv";

// The wiring a real deployment runs: rounds started with the process configuration's dependencies (what the scheduler, the
// API route and the CLI use) write the day's census row and its open-data file; the file's lines validate against the
// OpenAPI document's schema, and the CSV reads back through Python's own csv module.

const NAMES = ["modern-healthy-paged", "credential-gate-valid-prm", "discover-500-stack-trace", "http-sse-2024-11-05"];
const PYTHON = "/usr/bin/python3";

const zoo = new Map<string, RunningZooServer>();
let registry: FixtureRegistry;
let dir: string;
let config: Config;
let db: Db;
let clock = Date.parse("2026-11-20T03:00:00.000Z");
const logs: string[] = [];

const deps = () =>
  roundDepsFromConfig(config, {
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    robots: false,
    now: () => new Date(clock),
    log: (l) => logs.push(l),
    trigger: "test",
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "open-data-"));
  config = parseConfig({
    DATABASE_PATH: path.join(dir, "site.db"),
    REGISTRY_URL: "http://127.0.0.1:9/",
    PROBE_ALLOW_PRIVATE_NETWORKS: "1",
  });
  db = getDb(config);
  for (const n of NAMES) zoo.set(n, await startZooServer(n));
  registry = await startFixtureRegistry(
    NAMES.map((n) => entry(`io.github.zoo/${n}`, [{ type: n.startsWith("http-sse") ? "sse" : "streamable-http", url: zoo.get(n)!.url }])),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all([...zoo.values()].map((s) => s.close()));
  await registry?.close();
  closeDb(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a round with the process configuration", () => {
  test("writes the day's census row and the day's file beside the database", async () => {
    expect(config.openDataDir).toBe(path.join(dir, "open-data"));
    const s = await runRound(deps());
    expect(s.status).toBe("done");
    await dailyCensusRunning();
    const rows = listCensusDays(db);
    expect(rows.map((r) => [r.day, r.source, r.roundId])).toEqual([["2026-11-20", "round", s.roundId]]);
    expect(rows[0]!.registry).toBe(NAMES.length);
    expect(listServersFiles(config.openDataDir).map((f) => f.name)).toEqual(["servers-2026-11-20.jsonl.gz"]);
    expect(logs.some((l) => /^\[census\] 2026-11-20: 4 servers counted in \d+ ms$/.test(l))).toBe(true);
  }, 60_000);

  test("each line of the file is one listed server and validates against the OpenAPI document's OpenDataServer", () => {
    const text = zlib.gunzipSync(fs.readFileSync(path.join(config.openDataDir, "servers-2026-11-20.jsonl.gz"))).toString("utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.slice(0, -1).split("\n");
    expect(lines).toHaveLength(NAMES.length);
    const validate = documentValidator(openApiDocument()).component("OpenDataServer");
    for (const line of lines) {
      const server = JSON.parse(line) as { name: string; checks: Record<string, { state: string; suiteVersion: string } | null> };
      expect(validate(server), `${line.slice(0, 200)}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const d = getServerDetail(db, server.name)!;
      for (const c of d.checks) expect(server.checks[c.check]).toEqual({ state: c.state, suiteVersion: c.suiteVersion });
      // architecture.md §2.6 (0.15.0): the same configuration as the server's JSON.
      expect((server as unknown as { configuration: unknown }).configuration).toEqual(d.configuration);
    }
    expect(lines.map((l) => (JSON.parse(l) as { name: string }).name)).toEqual(NAMES.map((n) => `io.github.zoo/${n}`).sort());
    const gated = JSON.parse(lines.find((l) => l.includes("credential-gate"))!) as Record<string, unknown>;
    expect(gated).toMatchObject({
      overall: "not_checked",
      overallCause: "credential_required",
      uptime30d: { ratio: 1, up: 1, reached: 1 },
    });
  });

  test("a second round the same day and a re-probe leave the row and the file as they were", async () => {
    const file = path.join(config.openDataDir, "servers-2026-11-20.jsonl.gz");
    const before = fs.statSync(file).mtimeMs;
    clock += 3_600_000;
    expect((await runRound(deps())).status).toBe("done");
    await dailyCensusRunning();
    const r = startReprobeRound(deps(), serverIdByName(db, "io.github.zoo/modern-healthy-paged")!);
    expect(r.started).toBe(true);
    if (r.started) await r.done;
    await dailyCensusRunning();
    expect(listCensusDays(db)).toHaveLength(1);
    expect(fs.statSync(file).mtimeMs).toBe(before);
  }, 60_000);

  test("the next day gets its own row and file; files older than 30 days are deleted", async () => {
    fs.writeFileSync(path.join(config.openDataDir, "servers-2026-10-01.jsonl.gz"), "old");
    fs.writeFileSync(path.join(config.openDataDir, "notes.txt"), "not ours to delete");
    clock = Date.parse("2026-11-21T00:10:00.000Z");
    expect((await runRound(deps())).status).toBe("done");
    await dailyCensusRunning();
    expect(listCensusDays(db).map((r) => r.day)).toEqual(["2026-11-20", "2026-11-21"]);
    expect(fs.readdirSync(config.openDataDir).sort()).toEqual(["notes.txt", "servers-2026-11-20.jsonl.gz", "servers-2026-11-21.jsonl.gz"]);
    expect(pruneServersFiles(config.openDataDir, "2026-12-20")).toEqual(["servers-2026-11-20.jsonl.gz"]);
    expect(await writeServersFile(db, config.openDataDir, "2026-11-21", new Date(clock))).toBeNull();
  }, 60_000);
});

describe("census.csv", () => {
  test("reads back through Python's csv module (Debian's python3) with the same numbers", () => {
    expect(fs.existsSync(PYTHON), `${PYTHON} is missing: apt-get install -y python3`).toBe(true);
    const rows = listCensusDays(db);
    // A rebuilt-looking day without transports, and a revision only that day has, so empty cells and extra columns are read.
    rows.unshift({ ...rows[0]!, day: "2026-11-19", source: "backfill", transports: null, refusals: null, revisions: { "2099-01-01": 1 } });
    const file = path.join(dir, "census.csv");
    fs.writeFileSync(file, censusCsv(rows));
    const read = execFileSync(
      PYTHON,
      ["-c", "import csv, json, sys; r = list(csv.DictReader(open(sys.argv[1], newline=''))); print(json.dumps(r))", file],
      { encoding: "utf8" },
    );
    const parsed = JSON.parse(read) as Record<string, string>[];
    expect(parsed).toHaveLength(rows.length);
    expect(Object.keys(parsed[0]!)).toEqual(censusCsvColumns(rows));
    rows.forEach((r, i) => {
      const p = parsed[i]!;
      expect(p.day).toBe(r.day);
      expect(Number(p.registry)).toBe(r.registry);
      expect(Number(p["auth:gate_usable_metadata"])).toBe(r.auth.gate_usable_metadata);
      expect(Number(p["overall:failed"])).toBe(r.overall.failed);
      expect(p["transport:sse"]).toBe(r.transports ? String(r.transports.sse) : "");
      expect(p["revision:2099-01-01"]).toBe(String(r.revisions["2099-01-01"] ?? 0));
    });
  });
});

describe("answering a file", () => {
  const f = { size: 1000, mtimeMs: Date.parse("2026-11-20T03:00:00Z") };
  const o = { contentType: "application/gzip", cacheControl: "public, max-age=3600" };
  test.each([
    ["bytes=0-99", { start: 0, end: 99 }],
    ["bytes=900-", { start: 900, end: 999 }],
    ["bytes=-100", { start: 900, end: 999 }],
    ["bytes=990-2000", { start: 990, end: 999 }],
    ["bytes=1000-", "unsatisfiable"],
    ["bytes=5-2", "unsatisfiable"],
    ["bytes=0-1,5-6", null],
    ["items=0-1", null],
  ])("the range %s", (h, want) => expect(parseRange(h, f.size)).toEqual(want));

  test("one ETag; 304 for it, 206 for a range, 416 past the end, the whole file when If-Range names another", () => {
    const whole = fileAnswer(f, {}, o);
    expect(whole.status).toBe(200);
    expect(whole.headers).toMatchObject({ "content-length": "1000", "accept-ranges": "bytes" });
    const etag = whole.headers.etag!;
    expect(fileAnswer(f, { ifNoneMatch: etag }, o).status).toBe(304);
    expect(fileAnswer(f, { ifNoneMatch: `W/${etag}, "x"` }, o).status).toBe(304);
    expect(fileAnswer(f, { ifNoneMatch: '"other"' }, o).status).toBe(200);
    expect(fileAnswer(f, { range: "bytes=10-19" }, o)).toMatchObject({
      status: 206,
      range: { start: 10, end: 19 },
      headers: { "content-range": "bytes 10-19/1000", "content-length": "10" },
    });
    expect(fileAnswer(f, { range: "bytes=5000-" }, o)).toMatchObject({ status: 416, headers: { "content-range": "bytes */1000" } });
    expect(fileAnswer(f, { range: "bytes=10-19", ifRange: '"old"' }, o).status).toBe(200);
    expect(fileAnswer(f, { range: "bytes=10-19", ifRange: etag }, o).status).toBe(206);
    expect(fileAnswer({ ...f, mtimeMs: f.mtimeMs + 1000 }, {}, o).headers.etag).not.toBe(etag);
  });

  test.each([
    ["servers-2026-11-20.jsonl.gz", "2026-11-20"],
    ["servers-2026-02-30.jsonl.gz", "malformed"],
    ["servers-20261120.jsonl.gz", "malformed"],
    ["servers-2026-11-20.jsonl", "malformed"],
    ["census.csv", null],
  ])("the file name %s names %s", (name, want) => expect(serversFileDay(name)).toBe(want));
});
