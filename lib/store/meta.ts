import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { meta } from "../../db/schema";

/** Every key the meta table holds: one name per fact, so a reader and its writer cannot drift apart. */
export const META_KEYS = {
  registryRefreshedAt: "registry_refreshed_at",
  registryLastError: "registry_last_error",
  coverageEvaluatedThrough: "coverage_evaluated_through",
} as const;
export type MetaKey = (typeof META_KEYS)[keyof typeof META_KEYS];

export function getMeta(db: Db, key: MetaKey): string | null {
  return db.select({ value: meta.value }).from(meta).where(eq(meta.key, key)).get()?.value ?? null;
}

export function setMeta(db: Db, key: MetaKey, value: string): void {
  db.insert(meta).values({ key, value }).onConflictDoUpdate({ target: meta.key, set: { value } }).run();
}
