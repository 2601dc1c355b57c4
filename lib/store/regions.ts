import { asc, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { regionStates } from "../../db/schema";
import { parseJson } from "./runs";

// architecture.md §8: each region's health as the site last judged it.

/** Why a region is down, as stored (the same facts lib/regions/health.ts keeps). */
export type StoredDownCause = { kind: "host_share"; failed: number; hosts: number } | { kind: "silent"; sinceMs: number };

export interface StoredRegionState {
  id: string;
  up: boolean;
  lastAnswerAt: string | null;
  hostShare: number | null;
  hostsTried: number;
  down: StoredDownCause | null;
  downSince: string | null;
  updatedAt: string;
}

export function storedRegionStates(db: Db): StoredRegionState[] {
  return db
    .select()
    .from(regionStates)
    .orderBy(asc(regionStates.id))
    .all()
    .map((r) => ({ ...r, down: parseJson<StoredDownCause | null>(r.down, null) }));
}

export function saveRegionStates(db: Db, states: readonly Omit<StoredRegionState, "updatedAt">[], at: string): void {
  for (const s of states) {
    const row = { ...s, down: s.down ? JSON.stringify(s.down) : null, updatedAt: at };
    db.insert(regionStates)
      .values(row)
      .onConflictDoUpdate({
        target: regionStates.id,
        set: {
          up: sql`excluded.up`,
          lastAnswerAt: sql`excluded.last_answer_at`,
          hostShare: sql`excluded.host_share`,
          hostsTried: sql`excluded.hosts_tried`,
          down: sql`excluded.down`,
          downSince: sql`excluded.down_since`,
          updatedAt: sql`excluded.updated_at`,
        },
      })
      .run();
  }
}
