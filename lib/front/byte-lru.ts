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

interface Node<V> {
  key: string;
  value: V;
  bytes: number;
  /** Neighbours in use order: `older` towards the next to drop. */
  older: Node<V> | null;
  newer: Node<V> | null;
}

export function createByteLru<V>(maxBytes: number): ByteLru<V> {
  // The use order is a linked list beside the map: a read relinks two nodes instead of deleting and
  // re-inserting a map entry, which a hit does on every request.
  const entries = new Map<string, Node<V>>();
  let oldest: Node<V> | null = null;
  let newest: Node<V> | null = null;
  let total = 0;
  const unlink = (n: Node<V>) => {
    if (n.older) n.older.newer = n.newer;
    else oldest = n.newer;
    if (n.newer) n.newer.older = n.older;
    else newest = n.older;
    n.older = n.newer = null;
  };
  const append = (n: Node<V>) => {
    n.older = newest;
    n.newer = null;
    if (newest) newest.newer = n;
    else oldest = n;
    newest = n;
  };
  const drop = (key: string) => {
    const n = entries.get(key);
    if (!n) return;
    total -= n.bytes;
    entries.delete(key);
    unlink(n);
  };
  const evict = () => {
    while (oldest && total > maxBytes) drop(oldest.key);
  };
  return {
    get(key) {
      const n = entries.get(key);
      if (!n) return undefined;
      if (n !== newest) {
        unlink(n);
        append(n);
      }
      return n.value;
    },
    set(key, value, bytes) {
      drop(key);
      if (bytes > maxBytes / 4) return;
      const n: Node<V> = { key, value, bytes, older: null, newer: null };
      entries.set(key, n);
      append(n);
      total += bytes;
      evict();
    },
    grow(key, extra) {
      const n = entries.get(key);
      if (!n) return;
      n.bytes += extra;
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
