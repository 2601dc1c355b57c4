import { describe, expect, test } from "vitest";
import { createHostGate } from "@/lib/rounds/host-gate";
import { createHostQueue } from "@/lib/rounds/host-queue";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("host queue", () => {
  test("concurrent workers never hold two servers of one host, and everything is handed out once", async () => {
    const items = ["a1", "a2", "a3", "a4", "b1", "b2", "c1", "d1", "d2"];
    const q = createHostQueue(items, (s) => s[0]!);
    const active = new Set<string>();
    const seen: string[] = [];
    let clash = 0;
    const worker = async () => {
      for (let t = await q.take(); t; t = await q.take()) {
        const host = t.item[0]!;
        if (active.has(host)) clash++;
        active.add(host);
        seen.push(t.item);
        await sleep(5);
        active.delete(host);
        t.done();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(clash).toBe(0);
    expect([...seen].sort()).toEqual([...items].sort());
    // The first wave spreads over four hosts instead of queueing on "a".
    expect(seen.slice(0, 4).map((s) => s[0]).sort()).toEqual(["a", "b", "c", "d"]);
  });

  test("stop hands out nothing more and releases waiting workers", async () => {
    const q = createHostQueue(["a1", "a2"], () => "a");
    const first = await q.take();
    const waiting = q.take();
    q.stop();
    expect(await waiting).toBeNull();
    first!.done();
    expect(await q.take()).toBeNull();
  });
});

describe("host gate", () => {
  test("one holder per host at a time, in arrival order; other hosts proceed", async () => {
    const gate = createHostGate();
    const order: string[] = [];
    const hold = async (host: string, tag: string, ms: number) => {
      const release = await gate.acquire(host);
      order.push(`${tag}+`);
      await sleep(ms);
      order.push(`${tag}-`);
      release();
    };
    await Promise.all([hold("x.example", "x1", 20), hold("X.example", "x2", 5), hold("y.example", "y1", 5)]);
    expect(order.indexOf("x2+")).toBeGreaterThan(order.indexOf("x1-"));
    expect(order.indexOf("y1+")).toBeLessThan(order.indexOf("x1-"));
    expect(gate.busyHosts).toBe(0);
  });
});
