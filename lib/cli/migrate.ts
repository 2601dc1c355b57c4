// npm run db:migrate: apply the committed migrations to DATABASE_PATH (the site also does this on start).
import { closeDb, openDb } from "../../db/client";
import { getConfig } from "../config";

const started = Date.now();
const { databasePath } = getConfig();
const db = openDb(databasePath);
const row = db.$client.prepare("select count(*) as n from __drizzle_migrations").get() as { n: number };
closeDb(db);
console.log(`[db] ${databasePath}: ${row.n} migration(s) applied, in ${Date.now() - started} ms`);
