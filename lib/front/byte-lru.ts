// A map bounded by the bytes of what it holds, dropping the least recently used entries first: the front's
// answers (lib/front/cache.ts) live in one.

export interface ByteLru<V> {
  /** The value for `key`, now the most recently used; undefined when absent. */
  get(key: string): V | undefined;
  /** Keeps `value` as `bytes` long; a value over a quarter of the budget is not kept (one page must not
   * empty the cache). */
  set(key: string, value: V, bytes: number): void;
  /** `key`'s value grew by `extra` bytes (e.g. a compressed copy was added); evicts to stay in budget. */
  grow(key: string, extra: number): void;
  readonly size: number;
  readonly bytes: number;
}

export function createByteLru<V>(maxBytes: number): ByteLru<V> {
  const entries = new Map<string, { value: V; bytes: number }>();
  let total = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    total -= e.bytes;
    entries.delete(key);
  };
  const evict = () => {
    for (const k of entries.keys()) {
      if (total <= maxBytes) break;
      drop(k);
    }
  };
  return {
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      // Map order is the LRU order.
      entries.delete(key);
      entries.set(key, e);
      return e.value;
    },
    set(key, value, bytes) {
      drop(key);
      if (bytes > maxBytes / 4) return;
      entries.set(key, { value, bytes });
      total += bytes;
      evict();
    },
    grow(key, extra) {
      const e = entries.get(key);
      if (!e) return;
      e.bytes += extra;
      total += extra;
      evict();
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return total;
    },
  };
}
