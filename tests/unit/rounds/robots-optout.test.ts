import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "@/db/client";
import { servers } from "@/db/schema";
import { createAddressPolicy, DEFAULT_USER_AGENT } from "@/lib/probe";
import { fetchRobots, robotsCrawlDelay, robotsDisallows } from "@/lib/rounds/robots";
import { runRound, type RoundDeps } from "@/lib/rounds/round";
import { listOptOuts } from "@/lib/store/optouts";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { createZooHandler, type LoggedRequest } from "@/lib/demo/zoo";
import { registryRows } from "../../fixtures/loopback-hosts";
import { tempDb } from "../store/helpers";

// robots.txt rules for the probe's token, and the operator's opt-out command.

interface Site {
  server: Server;
  url: string;
  log: LoggedRequest[];
  robotsHits: number;
}

async function site(robots: string | null): Promise<Site> {
  const log: LoggedRequest[] = [];
  const handler = createZooHandler("modern-healthy-paged", { log });
  const s: Site = { server: createServer(), url: "", log, robotsHits: 0 };
  s.server.on("request", (req, res) => {
    if (req.url === "/robots.txt") {
      s.robotsHits++;
      if (robots === null) res.writeHead(404).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end(robots);
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((r) => s.server.listen(0, "127.0.0.1", r));
  s.url = `http://127.0.0.1:${(s.server.address() as AddressInfo).port}/mcp`;
  return s;
}

let t: ReturnType<typeof tempDb>;
let db: Db;
const sites: Record<string, Site> = {};
let clock = Date.parse("2026-11-29T12:00:00.000Z");

const deps = (): RoundDeps => ({
  db,
  addressPolicy: createAddressPolicy({ allowPrivate: true }),
  now: () => new Date(clock),
  log: () => undefined,
  trigger: "test",
});

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  sites.denied = await site("User-agent: *\nAllow: /\n\nUser-agent: mcp-status-probe\nDisallow: /mcp\n");
  sites.otherAgent = await site("User-agent: somebot\nDisallow: /\n");
  sites.otherPath = await site("User-agent: mcp-status-probe\nDisallow: /private\n");
  sites.none = await site(null);
  applyRegistrySnapshot(
    db,
    registryRows(Object.entries(sites).map(([k, s]) => ({ name: `r/${k}`, url: s.url }))),
    new Date(clock).toISOString(),
  );
});

afterAll(async () => {
  await Promise.all(Object.values(sites).map((s) => new Promise((r) => (s.server.closeAllConnections(), s.server.close(r)))));
  t.cleanup();
});

describe("robots.txt", () => {
  test("a Disallow for mcp-status-probe on the server's path opts it out; nothing else is sent", async () => {
    const r = await runRound(deps());
    expect(r).toMatchObject({ due: 4, read: 3, skipped: 1 });
    const d = getServerDetail(db, "r/denied")!;
    expect(Object.values(d.states)).toEqual(Array(5).fill("not_checked"));
    expect(d.checks[0]!.reason).toMatch(/robots\.txt disallows mcp-status-probe/);
    expect(sites.denied!.log.filter((l) => l.path !== "/robots.txt")).toEqual([]);
    expect(sites.denied!.robotsHits).toBe(1);
    expect(Date.parse(d.schedule.nextDueAt!) - clock).toBeGreaterThanOrEqual(24 * 3600_000);
    for (const k of ["otherAgent", "otherPath", "none"]) expect(getServerDetail(db, `r/${k}`)!.states.handshake, k).toBe("verified");
  });

  test("robots.txt is fetched at most once per host per day", async () => {
    db.update(servers).set({ nextDueAt: null }).run();
    clock += 3600_000;
    await runRound(deps());
    expect(Object.values(sites).map((s) => s.robotsHits)).toEqual([1, 1, 1, 1]);
    db.update(servers).set({ nextDueAt: null }).run();
    clock += 24 * 3600_000;
    await runRound(deps());
    expect(Object.values(sites).map((s) => s.robotsHits)).toEqual([2, 2, 2, 2]);
  });

  test("robots.txt is read through the probe's HTTP session: full User-Agent, no redirects, the address policy", async () => {
    const seen: { path: string; ua: string }[] = [];
    const server = createServer((req, res) => {
      seen.push({ path: req.url ?? "", ua: req.headers["user-agent"] ?? "" });
      if (req.url === "/robots.txt") res.writeHead(301, { location: "/elsewhere.txt" }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /\n");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const moved = await fetchRobots(origin, { policy: createAddressPolicy({ allowPrivate: true }), userAgent: DEFAULT_USER_AGENT });
      expect(moved).toMatchObject({ status: 301 });
      expect(seen).toEqual([{ path: "/robots.txt", ua: DEFAULT_USER_AGENT }]);
      const refused = await fetchRobots(origin, { policy: createAddressPolicy({ allowPrivate: false }), userAgent: DEFAULT_USER_AGENT });
      expect(refused.status).toBeNull();
      expect(refused.error).toMatch(/address refused/);
      expect(seen).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  test("only a 2xx robots.txt carries rules", () => {
    const rules = "User-agent: mcp-status-probe\nDisallow: /\n";
    expect(robotsDisallows("https://a.example/mcp", { status: 200, body: rules })).toBe(true);
    expect(robotsDisallows("https://a.example/mcp", { status: 404, body: rules })).toBe(false);
    expect(robotsDisallows("https://a.example/mcp", { status: null, body: null })).toBe(false);
    expect(robotsDisallows("https://a.example/mcp", { status: 200, body: "User-agent: *\nDisallow: /mcp\n" })).toBe(true);
    expect(robotsCrawlDelay("https://a.example/mcp", { status: 200, body: "User-agent: mcp-status-probe\nCrawl-delay: 2.5\n" })).toBe(2.5);
    expect(robotsCrawlDelay("https://a.example/mcp", { status: 200, body: "User-agent: *\nCrawl-delay: 3\n" })).toBe(3);
    expect(robotsCrawlDelay("https://a.example/mcp", { status: 200, body: "User-agent: somebot\nCrawl-delay: 9\n" })).toBeNull();
    expect(robotsCrawlDelay("https://a.example/mcp", { status: 404, body: "User-agent: *\nCrawl-delay: 3\n" })).toBeNull();
  });
});

function optOut(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/opt-out.ts", ...args], {
      env: { ...process.env, DATABASE_PATH: t.file },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

describe("npm run opt-out", () => {
  test("add, list and remove a host; bad usage exits 2", async () => {
    const host = new URL(sites.none!.url).host;
    const [bad1, bad2] = await Promise.all([optOut(["frobnicate"]), optOut(["add", host])]);
    for (const b of [bad1, bad2]) {
      expect(b.code, b.out).toBe(2);
      expect(b.out).toMatch(/usage:/);
    }
    expect(bad2.out).toMatch(/--reason/);

    const add = await optOut(["add", host, "--reason", "Operator asked by email on 2026-11-28"]);
    expect(add.code, add.out).toBe(0);
    expect(add.out).toMatch(/opted out 127\.0\.0\.1:\d+ \(1 server affected\)/);
    expect(listOptOuts(db)).toEqual([
      expect.objectContaining({ host, source: "operator", reason: "Operator asked by email on 2026-11-28" }),
    ]);

    const before = sites.none!.log.length;
    const r = await runRound(deps());
    expect(r).toMatchObject({ due: 1, skipped: 1 });
    expect(sites.none!.log.length).toBe(before);
    const d = getServerDetail(db, "r/none")!;
    expect(d.checks[0]!.reason).toMatch(/asked not to be probed \(Operator asked by email on 2026-11-28\)/);
    expect(d.optOut).toMatchObject({ source: "operator" });

    const list = await optOut(["list"]);
    expect(list.out).toContain(`${host}\toperator\t`);
    const remove = await optOut(["remove", host]);
    expect(remove.code, remove.out).toBe(0);
    expect(listOptOuts(db)).toEqual([]);
    expect(getServerDetail(db, "r/none")!.schedule.nextDueAt).toBeNull();
  }, 90_000);
});
