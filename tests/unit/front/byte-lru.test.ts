import { describe, expect, test } from "vitest";
import { createByteLru } from "@/lib/front/byte-lru";

// The front's answers live in this map: a read makes an entry the most recently used, and the least
// recently used ones go first once the bytes pass the budget.

describe("byte LRU", () => {
  test("drops the least recently used entries first, a read counting as a use", () => {
    const lru = createByteLru<string>(100);
    lru.set("a", "A", 25);
    lru.set("b", "B", 25);
    lru.set("c", "C", 25);
    lru.set("d", "D", 25);
    expect(lru.get("a")).toBe("A");
    lru.set("e", "E", 25);
    expect([lru.get("b"), lru.size, lru.bytes]).toEqual([undefined, 4, 100]);
    expect(lru.get("c")).toBe("C");
    lru.set("f", "F", 20);
    // d was the oldest after the reads of a and c.
    expect(["a", "c", "d", "e", "f"].map((k) => lru.get(k))).toEqual(["A", "C", undefined, "E", "F"]);
    expect(lru.bytes).toBe(95);
  });

  test("a new value replaces the old one's bytes; growth evicts; an entry over a quarter of the budget is not kept", () => {
    const lru = createByteLru<number>(100);
    lru.set("a", 1, 20);
    lru.set("b", 2, 20);
    lru.set("a", 3, 10);
    expect([lru.get("a"), lru.size, lru.bytes]).toEqual([3, 2, 30]);
    lru.set("big", 4, 26);
    expect([lru.get("big"), lru.size, lru.bytes]).toEqual([undefined, 2, 30]);
    lru.set("c", 5, 25);
    lru.set("d", 6, 25);
    lru.grow("c", 30);
    // b is the least recently used (a was read after it): it goes, and that is enough.
    expect([lru.get("b"), lru.get("a"), lru.get("c"), lru.get("d"), lru.bytes]).toEqual([undefined, 3, 5, 6, 90]);
    lru.grow("missing", 1000);
    expect(lru.bytes).toBe(90);
    // The only entry left can be evicted by its own growth.
    const one = createByteLru<number>(40);
    one.set("x", 1, 10);
    one.grow("x", 40);
    expect([one.get("x"), one.size, one.bytes]).toEqual([undefined, 0, 0]);
  });
});
