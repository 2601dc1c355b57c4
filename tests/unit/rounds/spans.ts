// When requests through the host gate started and ended, and how many were in flight at once at most.

export type Span = { who: string; start: number; end: number };

/** The most spans open at one instant (one that ends as another starts does not overlap it). */
export function maxOverlap(spans: readonly Span[]): number {
  const edges = spans.flatMap((s) => [
    [s.start, 1],
    [s.end, -1],
  ]) as [number, number][];
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let n = 0;
  let peak = 0;
  for (const [, d] of edges) peak = Math.max(peak, (n += d));
  return peak;
}
