import { expect, test } from "vitest";
import { nextBackoff } from "@/lib/front/renderer";

const LIMITS = { restartMinMs: 1_000, restartMaxMs: 30_000 };

test("a renderer that keeps exiting is started again after 1, 2, 4 … up to 30 s; one that stayed up 30 s starts the wait over", () => {
  const waits: number[] = [];
  let wait = 0;
  for (let i = 0; i < 8; i++) waits.push((wait = nextBackoff(wait, 500, LIMITS)));
  expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  expect(nextBackoff(30_000, 29_999, LIMITS)).toBe(30_000);
  expect(nextBackoff(30_000, 30_000, LIMITS)).toBe(1_000);
  expect(nextBackoff(8_000, 60_000, LIMITS)).toBe(1_000);
});
