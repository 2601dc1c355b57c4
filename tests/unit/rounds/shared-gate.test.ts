// architecture.md §2.5 seen from the server's side: a host that asks for `Crawl-delay: 2` gets no two requests closer than
// 2 s from all of the site's traffic together: a round, then the cross-reader at once in the same process; and a
// round beside a cross-read in another process on the same database file.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createAddressPolicy, DEFAULT_USER_AGENT } from "@/lib/probe";
import { runCrossRead } from "@/lib/rounds/crossread/run";
import { runRound, type RoundDeps } from "@/lib/rounds/round";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { registryRows, startLoopbackHost, zooMount, type LoopbackHost, type SeenRequest } from "../../fixtures/loopback-hosts";
import { tempDb } from "../store/helpers";

const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
const ROBOTS = "User-agent: mcp-status-probe\nCrawl-delay: 2\n";
const CHILD_AGENT = `${DEFAULT_USER_AGENT} (second process)`;

function roundDeps(db: RoundDeps["db"]): RoundDeps {
  return { db, addressPolicy: policy, limits: { deadlineMs: 20_000 }, log: () => undefined, trigger: "test", concurrency: 4 };
}

/** Two servers on one loopback host whose robots.txt sets Crawl-delay: 2, registered in `db`. */
async function crawlDelayHost(db: RoundDeps["db"], address: string): Promise<LoopbackHost> {
  const h = await startLoopbackHost(address, {
    mounts: { "/a": zooMount("gate-401-no-challenge", "/a"), "/b": zooMount("gate-401-no-challenge", "/b") },
    robots: ROBOTS,
  });
  applyRegistrySnapshot(
    db,
    registryRows(["/a", "/b"].map((p) => ({ name: `io.test/${address}${p}`, url: h.url(p) }))),
    new Date().toISOString(),
  );
  return h;
}

function expectGaps(seen: SeenRequest[], minMs: number): void {
  const sorted = [...seen].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const gap = sorted[i]!.start - sorted[i - 1]!.end;
    expect(
      gap,
      `request ${i} (${sorted[i]!.path}, ${sorted[i]!.userAgent === CHILD_AGENT ? "second process" : "this process"}) came ${Math.round(gap)} ms after the one before`,
    ).toBeGreaterThanOrEqual(minMs);
  }
}

describe("one Crawl-delay for all of the site's traffic to a host", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  test("a round and then the cross-reader at once: no two requests closer than 2 s", async () => {
    const t = tempDb("shared-gate-");
    cleanups.push(t.cleanup);
    const h = await crawlDelayHost(t.db, "127.0.0.61");
    cleanups.push(() => h.close());
    const round = await runRound(roundDeps(t.db));
    expect(round).toMatchObject({ status: "done", probed: 2 });
    const afterRound = h.requests.length;
    const cross = await runCrossRead({
      db: t.db,
      day: "2026-12-01",
      sample: 10,
      policy,
      userAgent: DEFAULT_USER_AGENT,
      log: () => undefined,
    });
    expect(cross.sampled).toBe(2);
    expect(h.requests.length).toBeGreaterThan(afterRound);
    expectGaps(h.requests, 2_000);
  }, 90_000);

  test("a round in this process beside a cross-read in another process on the same database: no two requests closer than 2 s", async () => {
    const t = tempDb("shared-gate-2p-");
    cleanups.push(t.cleanup);
    const h = await crawlDelayHost(t.db, "127.0.0.62");
    cleanups.push(() => h.close());
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(process.cwd(), "tests/fixtures/cross-read-child.ts"), t.file, CHILD_AGENT],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    cleanups.push(() => void child.kill());
    // Start the round once the other process has sent its first request, so both are at the host together.
    for (let i = 0; i < 200 && !h.requests.some((r) => r.userAgent === CHILD_AGENT); i++) await new Promise((r) => setTimeout(r, 50));
    const round = await runRound(roundDeps(t.db));
    expect(round).toMatchObject({ status: "done", probed: 2 });
    expect(await exited, out).toBe(0);
    expect(JSON.parse(out.trim().split("\n").pop()!)).toMatchObject({ sampled: 2 });
    const fromChild = h.requests.filter((r) => r.userAgent === CHILD_AGENT);
    const fromRound = h.requests.filter((r) => r.userAgent !== CHILD_AGENT);
    expect(fromChild.length).toBeGreaterThan(0);
    expect(fromRound.length).toBeGreaterThan(0);
    // Their requests interleave: the round did not simply run after the other process was done.
    expect(Math.min(...fromRound.map((r) => r.start))).toBeLessThan(Math.max(...fromChild.map((r) => r.start)));
    expectGaps(h.requests, 2_000);
  }, 120_000);
});
