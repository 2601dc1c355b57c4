// The host gate of architecture.md §2.5 when one process has its database to itself: slots are counted in memory, and
// a second, real process that arrives takes none before the first has handed its slots and last ends over.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createHostGate, type RoundHostGate } from "@/lib/rounds/host-gate";
import { ALONE_AFTER_MS, SLOT_TTL_MS } from "@/lib/rounds/host-leases";
import { putRobots } from "@/lib/store/optouts";
import type { ChildReply, ChildRequest, ChildSpan } from "../../fixtures/gate-child";
import { countStatements } from "../../fixtures/statements";
import { tempDb } from "../store/helpers";
import { maxOverlap } from "./spans";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DELAY_MS = 300;

/** `workers` requests at once to `host`, `perWorker` each in a row, each holding its slot `holdMs`. */
async function requests(gate: RoundHostGate, host: string, workers: number, perWorker: number, holdMs: number, into: ChildSpan[]) {
  await Promise.all(
    Array.from({ length: workers }, async () => {
      for (let i = 0; i < perWorker; i++) {
        const release = await gate.acquire(host);
        const start = Date.now();
        await sleep(holdMs);
        into.push({ who: "parent", host, start, end: Date.now() });
        release();
      }
    }),
  );
}

/** A real second process on the database file (tests/fixtures/gate-child.ts). */
class Child {
  private next = 1;
  readonly proc: ChildProcess;
  readonly exited: Promise<number | null>;
  constructor(file: string) {
    this.proc = fork(path.join(process.cwd(), "tests/fixtures/gate-child.ts"), [file], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.exited = new Promise((resolve) => this.proc.once("exit", (code) => resolve(code)));
  }
  ready(): Promise<unknown> {
    return this.reply((m) => (m as { type: string }).type === "ready");
  }
  send<T extends ChildReply["type"]>(cmd: ChildRequest, type: T): Promise<Extract<ChildReply, { type: T }>> {
    const id = this.next++;
    const answer = this.reply((m) => (m as ChildReply).type === type && (m as ChildReply).id === id);
    this.proc.send({ ...cmd, id });
    return answer as Promise<Extract<ChildReply, { type: T }>>;
  }
  private reply(match: (m: unknown) => boolean): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: unknown) => {
        if (!match(m)) return;
        this.proc.off("message", onMessage);
        resolve(m);
      };
      this.proc.on("message", onMessage);
      void this.exited.then((code) => reject(new Error(`the child exited (${code}) before answering`)));
    });
  }
}

describe("the host gate keeps its slots in memory while no other process shares the database", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0).reverse()) c();
  });
  const setup = () => {
    const t = tempDb("gate-memory-");
    cleanups.push(t.cleanup);
    return t;
  };
  const child = (file: string) => {
    const c = new Child(file);
    cleanups.push(() => void c.proc.kill("SIGKILL"));
    return c;
  };
  const counted = () => {
    const c = countStatements();
    cleanups.push(c.stop);
    return c;
  };

  test("alone on its database, the gate runs close to no SQLite statement per request and writes no lease", async () => {
    const t = setup();
    const gate = createHostGate({ db: t.db, limitOf: () => 2 });
    const counter = counted();
    const spans: ChildSpan[] = [];
    const leases = () => (t.db.$client.prepare("select count(*) as n from host_leases").get() as { n: number }).n;
    const before = counter.statements();
    // While the requests run, the lease table is looked at five times (five statements of the test's own).
    let leasesSeen = 0;
    const looks = (async () => {
      for (let i = 0; i < 5; i++) {
        await sleep(5);
        leasesSeen += leases();
      }
    })();
    await Promise.all([...Array.from({ length: 20 }, (_, h) => requests(gate, `h${h}.example`, 3, 100, 0, spans)), looks]);
    const used = counter.statements() - before - 5;
    expect(spans).toHaveLength(20 * 3 * 100);
    expect(leasesSeen).toBe(0);
    // One transaction to join, one read of each host's stored pace, one poll per 50 ms: nowhere near one per request.
    expect(used / spans.length).toBeLessThan(0.05);
    for (let h = 0; h < 20; h++) expect(maxOverlap(spans.filter((s) => s.host === `h${h}.example`))).toBeLessThanOrEqual(2);
    gate.settle();
    // Settled with nothing in flight, it leaves the gate and writes the last ends a Crawl-delay elsewhere counts from.
    expect(t.db.$client.prepare("select count(*) as n from host_gate_holders").get()).toEqual({ n: 0 });
    expect(t.db.$client.prepare("select count(*) as n from host_gate where last_end_ms > ?").get(Date.now() - 10_000)).toEqual({ n: 20 });
  });

  test("a second process arriving while the first holds slots never exceeds the host's bound over both, and a Crawl-delay spaces requests across the hand-over", async () => {
    const t = setup();
    putRobots(t.db, {
      host: "slow.example",
      fetchedAt: new Date().toISOString(),
      status: 200,
      body: "User-agent: *\nCrawl-delay: 0.3\n",
      disallowed: false,
      crawlDelaySeconds: DELAY_MS / 1000,
    });
    const gate = createHostGate({ db: t.db, limitOf: (host) => (host.startsWith("crowded") ? 2 : 1) });
    gate.setCrawlDelay("slow.example", DELAY_MS / 1000);
    const other = child(t.file);
    await other.ready();
    const spans: ChildSpan[] = [];
    const mine = Promise.all([requests(gate, "crowded.example", 3, 40, 30, spans), requests(gate, "slow.example", 1, 6, 20, spans)]);
    await sleep(250);
    // So far alone: its slots are in memory, none in the lease table, and its row says so.
    expect(spans.length).toBeGreaterThan(4);
    expect(t.db.$client.prepare("select count(*) as n from host_leases").get()).toEqual({ n: 0 });
    expect(t.db.$client.prepare("select shared from host_gate_holders").all()).toEqual([{ shared: 0 }]);
    // Arrives while this process holds both crowded slots and has just sent to the slow host.
    const theirs = Promise.all([
      other.send({ op: "requests", host: "crowded.example", workers: 3, perWorker: 10, holdMs: 30 }, "done"),
      other.send({ op: "requests", host: "slow.example", workers: 1, perWorker: 4, holdMs: 20 }, "done"),
    ]);
    const [, replies] = await Promise.all([mine, theirs]);
    const all = [...spans, ...replies.flatMap((r) => r.spans)];
    const crowded = all.filter((s) => s.host === "crowded.example");
    expect(crowded.filter((s) => s.who === "child")).toHaveLength(30);
    expect(maxOverlap(crowded)).toBeLessThanOrEqual(2);
    // The child did not just wait for this process to finish: its first request came before this one's last.
    expect(Math.min(...crowded.filter((s) => s.who === "child").map((s) => s.start))).toBeLessThan(
      Math.max(...crowded.filter((s) => s.who === "parent").map((s) => s.start)),
    );
    const slow = all.filter((s) => s.host === "slow.example").sort((a, b) => a.start - b.start);
    expect(new Set(slow.map((s) => s.who))).toEqual(new Set(["parent", "child"]));
    for (let i = 1; i < slow.length; i++)
      expect(slow[i]!.start - slow[i - 1]!.end, `gap before ${slow[i]!.who}'s request ${i}`).toBeGreaterThanOrEqual(DELAY_MS - 1);
    gate.settle();
  }, 60_000);

  test(
    "a process killed with SIGKILL while it kept a slot in memory: the one that arrives waits for its row to lapse, then gets the host",
    async () => {
      const t = setup();
      const other = child(t.file);
      await other.ready();
      await other.send({ op: "hold", host: "k.example" }, "held");
      const row = t.db.$client.prepare("select shared, expires_ms as expires from host_gate_holders").get() as {
        shared: number;
        expires: number;
      };
      expect(row.shared).toBe(0);
      expect(t.db.$client.prepare("select count(*) as n from host_leases").get()).toEqual({ n: 0 });
      other.proc.kill("SIGKILL");
      await other.exited;
      const gate = createHostGate({ db: t.db, limitOf: () => 1 });
      const t0 = Date.now();
      const release = await gate.acquire("k.example");
      const at = Date.now();
      release();
      gate.settle();
      expect(at).toBeGreaterThanOrEqual(row.expires);
      expect(at - t0).toBeLessThanOrEqual(SLOT_TTL_MS + 1_000);
    },
    SLOT_TTL_MS + 30_000,
  );

  test("once the other process has left, the gate goes back to memory", async () => {
    const t = setup();
    const gate = createHostGate({ db: t.db, limitOf: () => 1 });
    const counter = counted();
    const other = child(t.file);
    await other.ready();
    const spans: ChildSpan[] = [];
    // Both on the gate: this process keeps a request going on one host so it stays on it throughout.
    const keep = requests(gate, "keep.example", 1, 1, ALONE_AFTER_MS + 2_000, spans);
    const [, theirs] = await Promise.all([
      requests(gate, "both.example", 1, 10, 10, spans),
      other.send({ op: "requests", host: "both.example", workers: 1, perWorker: 10, holdMs: 10 }, "done"),
    ]);
    expect(maxOverlap([...spans.filter((s) => s.host === "both.example"), ...theirs.spans])).toBe(1);
    const holders = () => t.db.$client.prepare("select shared from host_gate_holders order by shared").all() as { shared: number }[];
    expect(holders()).toEqual([{ shared: 1 }, { shared: 1 }]);
    other.proc.send({ op: "exit" });
    expect(await other.exited).toBe(0);
    expect(holders()).toEqual([{ shared: 1 }]);
    const left = Date.now();
    while (holders()[0]?.shared !== 0 && Date.now() - left < 10_000) await sleep(20);
    expect(holders()).toEqual([{ shared: 0 }]);
    expect(Date.now() - left).toBeGreaterThanOrEqual(ALONE_AFTER_MS);
    const before = counter.statements();
    const after: ChildSpan[] = [];
    await Promise.all(Array.from({ length: 10 }, (_, h) => requests(gate, `alone${h}.example`, 1, 100, 0, after)));
    expect((counter.statements() - before) / after.length).toBeLessThan(0.05);
    await keep;
    gate.settle();
  }, 30_000);
});
