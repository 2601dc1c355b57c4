// The one host gate of architecture.md §2.5 across processes: two connections to one SQLite file stand for two processes
// (each connection gets its own ledger and holder id, and they meet only through the database).
import { afterEach, describe, expect, test } from "vitest";
import { closeDb, openDb, type Db } from "@/db/client";
import { createHostGate } from "@/lib/rounds/host-gate";
import { SLOT_LINGER_MS } from "@/lib/rounds/host-leases";
import { putRobots } from "@/lib/store/optouts";
import { tempDb } from "../store/helpers";
import { maxOverlap, type Span } from "./spans";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Takes the gate for `host`, holds it `ms`, records the span. */
async function hold(gate: ReturnType<typeof createHostGate>, host: string, who: string, ms: number, spans: Span[]): Promise<void> {
  const release = await gate.acquire(host);
  const start = Date.now();
  await sleep(ms);
  spans.push({ who, start, end: Date.now() });
  release();
}

describe("one gate per host across processes sharing the database", () => {
  let t: ReturnType<typeof tempDb>;
  let other: Db;
  let third: Db | undefined;
  afterEach(() => {
    closeDb(other);
    if (third) closeDb(third);
    third = undefined;
    t.cleanup();
  });
  const setup = () => {
    t = tempDb("gate-");
    other = openDb(t.file);
    return { a: t.db, b: other };
  };

  test("two processes never have two requests to an ordinary host in flight at once, and they take turns", async () => {
    const { a, b } = setup();
    const gateA = createHostGate({ db: a, limitOf: () => 1 });
    const gateB = createHostGate({ db: b, limitOf: () => 1 });
    const spans: Span[] = [];
    const run = async (gate: typeof gateA, who: string) => {
      for (let i = 0; i < 6; i++) await hold(gate, "h.example:443", who, 15, spans);
    };
    await Promise.all([run(gateA, "a"), run(gateB, "b")]);
    expect(spans).toHaveLength(12);
    expect(maxOverlap(spans)).toBe(1);
    // Neither waits for the other to finish everything: B's first request comes before A's last.
    spans.sort((x, y) => x.start - y.start);
    const firstB = spans.findIndex((s) => s.who === "b");
    const lastA = spans.map((s) => s.who).lastIndexOf("a");
    expect(firstB).toBeLessThan(lastA);
    gateA.settle();
    gateB.settle();
    expect(a.$client.prepare("select count(*) as n from host_leases").get()).toEqual({ n: 0 });
  });

  test("a crowded host's limit counts the requests of both processes together", async () => {
    const { a, b } = setup();
    const gateA = createHostGate({ db: a, limitOf: () => 3 });
    const gateB = createHostGate({ db: b, limitOf: () => 3 });
    const spans: Span[] = [];
    await Promise.all(Array.from({ length: 12 }, (_, i) => hold(i % 2 ? gateA : gateB, "crowded.example", i % 2 ? "a" : "b", 25, spans)));
    expect(maxOverlap(spans)).toBeLessThanOrEqual(3);
    expect(maxOverlap(spans)).toBeGreaterThanOrEqual(2);
    expect(new Set(spans.map((s) => s.who))).toEqual(new Set(["a", "b"]));
  });

  test("a Crawl-delay counts from the last request either process sent, even one that has not read robots.txt itself", async () => {
    const { a, b } = setup();
    // A read robots.txt (and stored it); B never did: it learns the delay from the database.
    putRobots(a, {
      host: "slow.example",
      fetchedAt: new Date().toISOString(),
      status: 200,
      body: "User-agent: *\nCrawl-delay: 0.3\n",
      disallowed: false,
      crawlDelaySeconds: 0.3,
    });
    const gateA = createHostGate({ db: a, limitOf: () => 4 });
    gateA.setCrawlDelay("slow.example", 0.3);
    const gateB = createHostGate({ db: b, limitOf: () => 4 });
    const spans: Span[] = [];
    await Promise.all([
      hold(gateA, "slow.example", "a", 10, spans),
      hold(gateB, "slow.example", "b", 10, spans),
      hold(gateA, "slow.example", "a", 10, spans),
      hold(gateB, "slow.example", "b", 10, spans),
    ]);
    spans.sort((x, y) => x.start - y.start);
    for (let i = 1; i < spans.length; i++)
      expect(spans[i]!.start - spans[i - 1]!.end, `gap before request ${i}`).toBeGreaterThanOrEqual(299);
    expect(new Set(spans.map((s) => s.who))).toEqual(new Set(["a", "b"]));
    expect(gateB.crawlDelayMs("slow.example")).toBe(300);
  });

  test("a process waiting for a busy host keeps its place in line: the one that asked first goes first", async () => {
    const { a, b } = setup();
    third = openDb(t.file);
    const [gateA, gateB, gateC] = [a, b, third].map((db) => createHostGate({ db, limitOf: () => 1 }));
    const spans: Span[] = [];
    const busy = hold(gateA!, "line.example", "a", 250, spans);
    await sleep(20);
    const first = hold(gateB!, "line.example", "b", 10, spans);
    await sleep(80);
    const second = hold(gateC!, "line.example", "c", 10, spans);
    await Promise.all([busy, first, second]);
    spans.sort((x, y) => x.start - y.start);
    expect(spans.map((s) => s.who)).toEqual(["a", "b", "c"]);
  });

  test("a slot left by a process that died lapses, and the host is served again", async () => {
    const { a } = setup();
    a.$client
      .prepare("insert into host_leases (host, holder, expires_ms) values (?, ?, ?)")
      .run("gone.example", "dead:1:00000000", Date.now() + 300);
    const gate = createHostGate({ db: a, limitOf: () => 1 });
    const t0 = Date.now();
    const release = await gate.acquire("gone.example");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    release();
  });

  test("a process alone on the database takes its slots without a lease, and writes the last end when it settles", async () => {
    const { a } = setup();
    const gate = createHostGate({ db: a, limitOf: () => 1 });
    const leases = () => a.$client.prepare("select count(*) as n from host_leases").get() as { n: number };
    const r1 = await gate.acquire("warm.example");
    expect(leases().n).toBe(0);
    r1();
    const r2 = await gate.acquire("warm.example");
    expect(leases().n).toBe(0);
    r2();
    await sleep(SLOT_LINGER_MS * 3);
    gate.settle();
    // The end of that request is what a Crawl-delay elsewhere would count from.
    expect(
      (a.$client.prepare("select last_end_ms as t from host_gate where host = ?").get("warm.example") as { t: number }).t,
    ).toBeGreaterThan(Date.now() - 5_000);
  });

  test("sharing the database, a slot is reused for the process's next request without a new lease", async () => {
    const { a, b } = setup();
    const gateA = createHostGate({ db: a, limitOf: () => 1 });
    const gateB = createHostGate({ db: b, limitOf: () => 1 });
    // B on the gate first, so A shares from its first request.
    (await gateB.acquire("other.example"))();
    const leases = () =>
      a.$client.prepare("select count(*) as n, max(id) as id from host_leases where host = 'warm.example'").get() as {
        n: number;
        id: number | null;
      };
    const r1 = await gateA.acquire("warm.example");
    const first = leases();
    expect(first.n).toBe(1);
    r1();
    const r2 = await gateA.acquire("warm.example");
    expect(leases()).toEqual(first);
    r2();
    await sleep(SLOT_LINGER_MS * 3);
    expect(leases().n).toBe(0);
    gateA.settle();
    gateB.settle();
  });
});
