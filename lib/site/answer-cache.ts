// Answers (badges, JSON) computed once per data version and kept in a bounded LRU: a request reads the version
// (one indexed row), and recomputes only when a write changed it.

import { createByteLru } from "./byte-lru";

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
  const entries = createByteLru<{ version: string; answer: Answer }>(maxBytes);
  return {
    get(key, version, compute) {
      const hit = entries.get(key);
      if (hit && hit.version === version) return hit.answer;
      const answer = compute();
      entries.set(key, { version, answer }, key.length + version.length + answer.body.length + 64);
      return answer;
    },
    get size() {
      return entries.size;
    },
  };
}
