import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { closeDb, openDb, type Db } from "@/db/client";
import { seedDatabase } from "../../e2e/seed";

/** The e2e seed in a database file of the suite's own: written before its tests, removed after them. */
export function seededDb(prefix: string): { readonly db: Db; readonly file: string } {
  let dir = "";
  let db: Db | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    seedDatabase(path.join(dir, "site.db"));
    db = openDb(path.join(dir, "site.db"));
  });
  afterAll(() => {
    if (db) closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get db() {
      return db!;
    },
    get file() {
      return path.join(dir, "site.db");
    },
  };
}
