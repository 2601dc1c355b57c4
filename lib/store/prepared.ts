import { sql, type Placeholder } from "drizzle-orm";
import type { Db } from "../../db/client";

// A round writes the same few statements for every server: built and prepared once per connection, each
// later call skips drizzle's query building and SQLite's prepare.

const statements = new WeakMap<object, Map<string, unknown>>();

/** The statement `build` returns, built once per connection and key. */
export function prepared<T>(db: Db, key: string, build: () => T): T {
  let byKey = statements.get(db.$client);
  if (!byKey) statements.set(db.$client, (byKey = new Map()));
  let s = byKey.get(key) as T | undefined;
  if (s === undefined) byKey.set(key, (s = build()));
  return s;
}

/** A placeholder per field, named `<prefix><field>`, for a values() or set() of a prepared statement. */
export function placeholders<K extends string>(fields: readonly K[], prefix = ""): Record<K, Placeholder> {
  return Object.fromEntries(fields.map((f) => [f, sql.placeholder(`${prefix}${f}`)])) as Record<K, Placeholder>;
}

/** The fields a row sets (undefined ones left to their column defaults), sorted: part of a statement's key, so
 * a new column or an optional field gets its own statement instead of being dropped. */
export function fieldsOf<T extends object>(row: T): (keyof T & string)[] {
  return (Object.keys(row) as (keyof T & string)[]).filter((k) => row[k] !== undefined).sort();
}

/** Values for `placeholders(fields, prefix)`. */
export function prefixed<T extends object>(values: T, prefix: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`${prefix}${k}`, v]));
}
