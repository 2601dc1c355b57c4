import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb, type Db } from "@/db/client";

/** A fresh database file in its own temp directory; `cleanup` closes and deletes it. */
export function tempDb(prefix = "mcp-status-"): { db: Db; file: string; dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const file = path.join(dir, "test.db");
  const db = openDb(file);
  return {
    db,
    file,
    dir,
    cleanup: () => {
      try {
        closeDb(db);
      } catch {
        // already closed
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
