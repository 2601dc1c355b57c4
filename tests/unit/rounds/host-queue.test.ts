import { describe, expect, test } from "vitest";
import { createHostGate } from "@/lib/rounds/host-gate";
import { createHostQueue } from "@/lib/rounds/host-queue";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `workers` takers over the queue; each item is held `ms`. Returns the hand-out order and the peak per host. */
async function drain(q: ReturnType<typeof createHostQueue<string>>, workers: number, ms = 5) {
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  const seen: string[] = [];
  const worker = async () => {
    for (let t = await q.take(); t; t = await q.take()) {
      const host = t.item[0]!;
      active.set(host, (active.get(host) ?? 0) + 1);
      peak.set(host, Math.max(peak.get(host) ?? 0, active.get(host)!));
      seen.push(t.item);
      await sleep(ms);
      active.set(host, active.get(host)! - 1);
      t.done();
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { seen, peak };
}

describe("host queue", () => {
  test("concurrent workers never hold two servers of an ordinary host, and everything is handed out once", async () => {
    const items = ["a1", "a2", "a3", "a4", "b1", "b2", "c1", "d1", "d2"];
    const q = createHostQueue(items, { hostOf: (s) => s[0]!, limitOf: () => 1 });
    const { seen, peak } = await drain(q, 4);
    expect(Math.max(...peak.values())).toBe(1);
    expect([...seen].sort()).toEqual([...items].sort());
    // The first wave spreads over four hosts instead of queueing on "a".
    expect(
      seen
        .slice(0, 4)
        .map((s) => s[0])
        .sort(),
    ).toEqual(["a", "b", "c", "d"]);
  });

  test("a crowded host listed last still gets its slots in the first batch and never more than its limit", async () => {
    // 30% of the items on host "z", which comes last in the due order; 16 workers, limit 4 for "z".
    const others = Array.from({ length: 70 }, (_, i) => `${"abcdefghijklmn"[i % 14]}${i}`);
    const crowded = Array.from({ length: 30 }, (_, i) => `z${i}`);
    const q = createHostQueue([...others, ...crowded], { hostOf: (s) => s[0]!, limitOf: (h) => (h === "z" ? 4 : 1) });
    const { seen, peak } = await drain(q, 16, 10);
    expect(seen.slice(0, 16).filter((s) => s[0] === "z")).toHaveLength(4);
    expect(peak.get("z")).toBe(4);
    for (const [h, p] of peak) if (h !== "z") expect(p, h).toBe(1);
    expect(seen).toHaveLength(100);
  });

  test("a paused host gets nothing new until its pause ends; other hosts go on meanwhile", async () => {
    const q = createHostQueue(["a1", "a2", "b1", "b2", "b3"], { hostOf: (s) => s[0]!, limitOf: () => 1 });
    const t0 = Date.now();
    const first = await q.take();
    expect(first!.item).toBe("b1");
    q.pause("a", Date.now() + 300);
    first!.done();
    const times: Record<string, number> = {};
    const worker = async () => {
      for (let t = await q.take(); t; t = await q.take()) {
        times[t.item] = Date.now() - t0;
        await sleep(5);
        t.done();
      }
    };
    await Promise.all([worker(), worker()]);
    expect(times.a1).toBeGreaterThanOrEqual(295);
    expect(times.b2).toBeLessThan(100);
    expect(q.leftDue).toEqual([]);
  });

  test("a pause longer than the round waits for leaves the host's items due", async () => {
    const q = createHostQueue(["a1", "a2", "b1"], { hostOf: (s) => s[0]!, limitOf: () => 1, maxPauseWaitMs: 1_000 });
    q.pause("a", Date.now() + 120_000);
    const { seen } = await drain(q, 2);
    expect(seen).toEqual(["b1"]);
    expect(q.leftDue).toEqual(["a1", "a2"]);
  });

  test("stop hands out nothing more and releases waiting workers", async () => {
    const q = createHostQueue(["a1", "a2"], { hostOf: () => "a", limitOf: () => 1 });
    const first = await q.take();
    const waiting = q.take();
    q.stop();
    expect(await waiting).toBeNull();
    first!.done();
    expect(await q.take()).toBeNull();
  });
});

describe("host gate", () => {
  test("holders per host up to its limit, in arrival order; other hosts proceed", async () => {
    const gate = createHostGate({ limitOf: (h) => (h === "crowded.example" ? 2 : 1) });
    const order: string[] = [];
    const hold = async (host: string, tag: string, ms: number) => {
      const release = await gate.acquire(host);
      order.push(`${tag}+`);
      await sleep(ms);
      order.push(`${tag}-`);
      release();
    };
    await Promise.all([
      hold("x.example", "x1", 20),
      hold("X.example", "x2", 5),
      hold("y.example", "y1", 5),
      hold("crowded.example", "c1", 20),
      hold("crowded.example", "c2", 20),
      hold("crowded.example", "c3", 5),
    ]);
    expect(order.indexOf("x2+")).toBeGreaterThan(order.indexOf("x1-"));
    expect(order.indexOf("y1+")).toBeLessThan(order.indexOf("x1-"));
    expect(order.indexOf("c2+")).toBeLessThan(order.indexOf("c1-"));
    expect(order.indexOf("c3+")).toBeGreaterThan(Math.min(order.indexOf("c1-"), order.indexOf("c2-")));
    expect(gate.peaks.get("x.example")).toBe(1);
    expect(gate.peaks.get("crowded.example")).toBe(2);
  });

  test("a Crawl-delay makes a crowded host one request at a time, each the delay after the last one ended", async () => {
    const gate = createHostGate({ limitOf: () => 4 });
    gate.setCrawlDelay("slow.example", 0.2);
    const spans: [number, number][] = [];
    await Promise.all(
      [1, 2, 3].map(async () => {
        const release = await gate.acquire("slow.example");
        const start = performance.now();
        await sleep(10);
        spans.push([start, performance.now()]);
        release();
      }),
    );
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0] - spans[i - 1]![1]).toBeGreaterThanOrEqual(199);
    expect(gate.peaks.get("slow.example")).toBe(1);
  });

  test("a 429, or a 503 with Retry-After, asks for a pause of the host; other answers do not", () => {
    const pauses: [string, number, string][] = [];
    const now = new Date("2026-11-30T12:00:00.000Z");
    const gate = createHostGate({ limitOf: () => 1, now: () => now });
    gate.onPause((h, until, cause) => pauses.push([h, until.getTime() - now.getTime(), cause]));
    gate.answered!("A.example", 200, undefined);
    gate.answered!("a.example", 503, undefined);
    gate.answered!("a.example", 429, "7");
    gate.answered!("b.example", 503, "Mon, 30 Nov 2026 12:00:30 GMT");
    gate.answered!("c.example", 429, undefined);
    expect(pauses).toEqual([
      ["a.example", 7_000, "HTTP 429 with Retry-After 7 s"],
      ["b.example", 30_000, "HTTP 503 with Retry-After 30 s"],
      ["c.example", 60_000, "HTTP 429 without a usable Retry-After"],
    ]);
  });
});
