import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { meta } from "../../db/schema";

/** Every key the meta table holds: one name per fact, so a reader and its writer cannot drift apart. */
export const META_KEYS = {
  registryRefreshedAt: "registry_refreshed_at",
  registryLastError: "registry_last_error",
  /** When the last full registry read began (a full read is due again a day later). */
  registryFullReadAt: "registry_full_read_at",
  /** When the last stored registry read began: the next incremental read asks for entries updated since then. */
  registryReadSince: "registry_read_since",
  coverageEvaluatedThrough: "coverage_evaluated_through",
  /** When the alert clock first looked at this database: rounds_stale's reference before any round finished. */
  alertsWatchedSince: "alerts_watched_since",
  crossReadEvaluatedDay: "cross_read_evaluated_day",
  /** The UTC day whose cross-read has been started (once per day). */
  crossReadStartedDay: "cross_read_started_day",
  /** An address or secret was deleted whose old bytes the write-ahead log may still hold (lib/store/subscriptions.ts). */
  erasurePendingSince: "erasure_pending_since",
  /** The last write that proved the database takes writes again after database_unwritable (lib/store/writes.ts). */
  writesCheckedAt: "writes_checked_at",
} as const;
export type MetaKey = (typeof META_KEYS)[keyof typeof META_KEYS];

export function getMeta(db: Db, key: MetaKey): string | null {
  return db.select({ value: meta.value }).from(meta).where(eq(meta.key, key)).get()?.value ?? null;
}

export function setMeta(db: Db, key: MetaKey, value: string): void {
  db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } }).run();
}
