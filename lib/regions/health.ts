// architecture.md §8: which regions are up. The site keeps, per region, the share of distinct hosts whose latest probe
// from that region failed at the network level (architecture.md §2.7's host share, one per region) and when the region
// last answered. A region whose share trips, or that answers nothing for a while, is down: it gets no primaries, its
// failures count for nothing, and it still gets a few copies of probes so its recovery is seen.

/** What tunes the book; tests shorten the times and lower the counts. */
export interface RegionHealthOptions {
  /** A region that answered no probe for this long is down. Default 5 min. */
  silenceMs: number;
  /** The share counts once this many distinct hosts were probed from the region… Default 20. */
  minHosts: number;
  /** …and trips above this share… Default 0.5. */
  shareLimit: number;
  /** …when it is also above this many times the lowest share of the other regions that are up. Default 3. */
  othersFactor: number;
  /** The share is taken over this many latest distinct hosts. Default 50. */
  recentHosts: number;
  /** A down region is up again after this many reads in a row (its handshake completed). Default 2. */
  recoveryReads: number;
  /** Copies of probes a down region gets per minute. Default 6. */
  recoveryPerMinute: number;
}

export const REGION_HEALTH: RegionHealthOptions = {
  silenceMs: 5 * 60_000,
  minHosts: 20,
  shareLimit: 0.5,
  othersFactor: 3,
  recentHosts: 50,
  recoveryReads: 2,
  recoveryPerMinute: 6,
};

/** Why a region is down, as facts; lib/site and the alert word them. */
export type DownCause = { kind: "host_share"; failed: number; hosts: number } | { kind: "silent"; sinceMs: number };

export interface RegionState {
  id: string;
  up: boolean;
  lastAnswerAt: string | null;
  /** Share of the latest distinct hosts that failed at the network level from this region; null before any answer. */
  hostShare: number | null;
  hostsTried: number;
  down: DownCause | null;
  /** Since when the region is down (ISO), null while up. */
  downSince: string | null;
}

export interface RegionBook {
  readonly regions: readonly string[];
  /** A probe was sent to `region`: the region is silent once none is answered for silenceMs. */
  asked(region: string): void;
  /** A valid answer from `region` about `host`: whether it failed at the network level and whether the handshake completed.
   * With `host` null the answer only shows the region is alive (its server says nothing about the region's network). */
  answered(region: string, host: string | null, o: { networkFailed: boolean; read: boolean }): void;
  /** Re-judges silence (a region that stopped answering); cheap, called before each dispatch decision. */
  tick(): void;
  isUp(region: string): boolean;
  up(): string[];
  /** The primary for a server in a round: rotates over the regions that are up, by server and by round. */
  primaryFor(key: string, round: number): string | null;
  /** Up to `n` regions that are up, other than those given, in a stable order starting after the first given. */
  othersThan(exclude: readonly string[], n: number): string[];
  /** Down regions whose budget of copies allows one now; the budget is spent by the call. */
  takeRecoveryCopies(): string[];
  /** Regions that are down now: the recovery clock asks each of them again between rounds. */
  down(): string[];
  /** What another process stored about a region since this book last wrote it (a round of `npm run round`): the region's
   * up or down and its last answer are taken over, without `changed`, since that process opened or resolved the alert. */
  adopt(stored: readonly Pick<RegionState, "id" | "lastAnswerAt" | "down" | "downSince">[]): void;
  states(): RegionState[];
}

export interface RegionBookDeps {
  regions: readonly string[];
  now: () => Date;
  options?: Partial<RegionHealthOptions>;
  /** What the site stored at the end of its last round, so a restart keeps a down region down until it reads again. */
  stored?: readonly Pick<RegionState, "id" | "lastAnswerAt" | "down" | "downSince">[];
  /** A region went down or came back (the round opens or resolves region_down). */
  changed?: (state: RegionState) => void;
}

interface Book {
  id: string;
  lastAnswerMs: number | null;
  /** Latest outcome per host, oldest first, at most recentHosts. */
  recent: Map<string, boolean>;
  hostsTried: Set<string>;
  down: DownCause | null;
  downSinceMs: number | null;
  readsInARow: number;
  copyTimes: number[];
  /** When the first probe not answered since the last answer was sent; null when every probe sent was answered. */
  pendingSinceMs: number | null;
}

/** A stable 32-bit hash of a server's name, so its primary depends on the name and the round only. */
export function nameHash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function createRegionBook(deps: RegionBookDeps): RegionBook {
  const o = { ...REGION_HEALTH, ...deps.options };
  const books = new Map<string, Book>(
    deps.regions.map((id) => [
      id,
      {
        id,
        lastAnswerMs: null,
        recent: new Map(),
        hostsTried: new Set(),
        down: null,
        downSinceMs: null,
        readsInARow: 0,
        copyTimes: [],
        pendingSinceMs: null,
      },
    ]),
  );

  for (const s of deps.stored ?? []) {
    const b = books.get(s.id);
    if (!b) continue;
    b.lastAnswerMs = s.lastAnswerAt ? Date.parse(s.lastAnswerAt) : null;
    b.down = s.down;
    b.downSinceMs = s.down && s.downSince ? Date.parse(s.downSince) : null;
  }

  const shareOf = (b: Book): number | null => {
    if (b.recent.size === 0) return null;
    let failed = 0;
    for (const f of b.recent.values()) if (f) failed++;
    return failed / b.recent.size;
  };

  const state = (b: Book): RegionState => ({
    id: b.id,
    up: b.down === null,
    lastAnswerAt: b.lastAnswerMs === null ? null : new Date(b.lastAnswerMs).toISOString(),
    hostShare: shareOf(b),
    hostsTried: b.hostsTried.size,
    down: b.down,
    downSince: b.downSinceMs === null ? null : new Date(b.downSinceMs).toISOString(),
  });

  const goDown = (b: Book, cause: DownCause) => {
    b.down = cause;
    b.downSinceMs = deps.now().getTime();
    b.readsInARow = 0;
    deps.changed?.(state(b));
  };

  const comeBack = (b: Book) => {
    b.down = null;
    b.downSinceMs = null;
    b.recent.clear();
    b.readsInARow = 0;
    deps.changed?.(state(b));
  };

  const upBooks = () => [...books.values()].filter((b) => b.down === null);

  const judgeShare = (b: Book) => {
    const share = shareOf(b);
    if (share === null || b.recent.size < o.minHosts || share <= o.shareLimit) return;
    const others = upBooks()
      .filter((x) => x !== b)
      .map(shareOf)
      .filter((s): s is number => s !== null);
    const lowest = others.length > 0 ? Math.min(...others) : 0;
    if (share <= o.othersFactor * lowest) return;
    let failed = 0;
    for (const f of b.recent.values()) if (f) failed++;
    goDown(b, { kind: "host_share", failed, hosts: b.recent.size });
  };

  const book: RegionBook = {
    regions: deps.regions,
    asked(region) {
      const b = books.get(region);
      if (b && b.pendingSinceMs === null) b.pendingSinceMs = deps.now().getTime();
    },
    answered(region, host, a) {
      const b = books.get(region);
      if (!b) return;
      b.lastAnswerMs = deps.now().getTime();
      b.pendingSinceMs = null;
      if (host === null) return;
      const key = host.toLowerCase();
      b.recent.delete(key);
      b.recent.set(key, a.networkFailed);
      b.hostsTried.add(key);
      while (b.recent.size > o.recentHosts) b.recent.delete(b.recent.keys().next().value!);
      if (b.down) {
        b.readsInARow = a.read ? b.readsInARow + 1 : 0;
        if (b.readsInARow >= o.recoveryReads) comeBack(b);
        return;
      }
      judgeShare(b);
    },
    tick() {
      const nowMs = deps.now().getTime();
      for (const b of books.values()) {
        if (b.down || b.pendingSinceMs === null) continue;
        if (nowMs - b.pendingSinceMs >= o.silenceMs) goDown(b, { kind: "silent", sinceMs: b.lastAnswerMs ?? b.pendingSinceMs });
      }
    },
    isUp: (region) => books.get(region)?.down === null,
    up: () => upBooks().map((b) => b.id),
    primaryFor(key, round) {
      const up = book.up();
      if (up.length === 0) return null;
      return up[(nameHash(key) + round) % up.length]!;
    },
    othersThan(exclude, n) {
      const all = deps.regions;
      const start = exclude.length > 0 ? Math.max(0, all.indexOf(exclude[0]!)) : 0;
      const out: string[] = [];
      for (let i = 1; i <= all.length && out.length < n; i++) {
        const id = all[(start + i) % all.length]!;
        if (!exclude.includes(id) && book.isUp(id)) out.push(id);
      }
      return out;
    },
    takeRecoveryCopies() {
      const nowMs = deps.now().getTime();
      const out: string[] = [];
      for (const b of books.values()) {
        if (!b.down) continue;
        b.copyTimes = b.copyTimes.filter((t) => nowMs - t < 60_000);
        if (b.copyTimes.length >= o.recoveryPerMinute) continue;
        b.copyTimes.push(nowMs);
        out.push(b.id);
      }
      return out;
    },
    down: () => [...books.values()].filter((b) => b.down !== null).map((b) => b.id),
    adopt(stored) {
      for (const s of stored) {
        const b = books.get(s.id);
        if (!b) continue;
        const at = s.lastAnswerAt ? Date.parse(s.lastAnswerAt) : null;
        if (at !== null && (b.lastAnswerMs === null || at > b.lastAnswerMs)) b.lastAnswerMs = at;
        if (s.down && !b.down) {
          b.down = s.down;
          b.downSinceMs = s.downSince ? Date.parse(s.downSince) : deps.now().getTime();
        } else if (!s.down && b.down) {
          b.down = null;
          b.downSinceMs = null;
          b.recent.clear();
        } else continue;
        b.readsInARow = 0;
        b.pendingSinceMs = null;
      }
    },
    states: () => [...books.values()].map(state),
  };
  return book;
}
