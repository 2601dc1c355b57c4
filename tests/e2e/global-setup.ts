import fs from "node:fs";
import Database from "better-sqlite3";
import { E2E_DB, SCREENSHOT_DIR } from "./env";
import { SEED } from "./seed";

// The webServer command seeds the database before `npm start` (Playwright starts web servers before
// global setup). Here we only check that the seed is what the specs expect, so a failure reads clearly.
export default function globalSetup(): void {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const db = new Database(E2E_DB, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("select count(*) as n from servers where name = ?").get(SEED.allStates) as { n: number };
    if (row.n !== 1) throw new Error(`e2e database ${E2E_DB} is not seeded`);
  } finally {
    db.close();
  }
}
