// Answers (badges, JSON) computed once per data version and kept in a bounded LRU: a request reads the version
// (one indexed row), and recomputes only when a write changed it.

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

export interface AnswerCache {
  /** The cached answer for `key` when it was computed at `version`, else computes, stores and returns it. */
  get(key: string, version: string, compute: () => Answer): Answer;
  readonly size: number;
}

export function createAnswerCache(maxBytes: number): AnswerCache {
  const entries = new Map<string, { version: string; answer: Answer; bytes: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    bytes -= e.bytes;
    entries.delete(key);
  };
  return {
    get(key, version, compute) {
      const hit = entries.get(key);
      if (hit && hit.version === version) {
        // Re-insert: Map order is the LRU order.
        entries.delete(key);
        entries.set(key, hit);
        return hit.answer;
      }
      drop(key);
      const answer = compute();
      const size = key.length + version.length + answer.body.length + 64;
      entries.set(key, { version, answer, bytes: size });
      bytes += size;
      for (const k of entries.keys()) {
        if (bytes <= maxBytes) break;
        drop(k);
      }
      return answer;
    },
    get size() {
      return entries.size;
    },
  };
}
