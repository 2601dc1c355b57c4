// npm run restore -- <file>: checks a backup and moves it into place as DATABASE_PATH, while the site is stopped (architecture.md §9).
import { DbFileError, describeBytes, restoreDatabase } from "../../db/backup";
import { closeDb, openDb } from "../../db/client";
import { getConfig } from "../config";
import { abandonRunningRounds } from "../store/rounds";
import { argsOrUsage, readArgs } from "./args";

const USAGE = `usage: npm run restore -- <file>
  checks <file> (an mcp-status database this version can serve, PRAGMA integrity_check) and moves a copy of it into
  place as the database (DATABASE_PATH); refuses while the site or any other process has that database open`;

function usage(message: string): never {
  console.error(`restore: ${message}\n${USAGE}`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const { positionals, help } = argsOrUsage(usage, () => readArgs(argv, { help: { type: "boolean", short: "h" } }));
  if (help) usage("help");
  if (positionals.length === 0) usage("missing the backup file to restore");
  if (positionals.length > 1) usage(`one backup file, got ${positionals.length}: ${positionals.join(" ")}`);
  const { databasePath } = getConfig();
  const now = new Date();
  let abandoned: number[] = [];
  try {
    const r = await restoreDatabase({
      file: positionals[0]!,
      target: databasePath,
      now,
      // Migrations apply here rather than at the next start, so a copy that cannot be upgraded never goes in place.
      prepare: (copy) => {
        const db = openDb(copy);
        try {
          abandoned = abandonRunningRounds(db, { now, reason: "restored from a backup taken while this round ran" });
        } finally {
          closeDb(db);
        }
      },
    });
    const f = r.facts;
    const upgraded =
      r.levelBefore.applied < f.level.applied ? `, upgraded from migration ${r.levelBefore.applied} to ${f.level.applied}` : "";
    console.log(
      `[restore] ${positionals[0]} -> ${r.target}: ${describeBytes(f.bytes)}, integrity ok, ${f.servers} servers, ${f.runs} runs ` +
        `(latest ${f.latestRunAt ?? "none"})${upgraded}, in ${(r.ms / 1000).toFixed(1)} s`,
    );
    if (abandoned.length) console.log(`[restore] round ${abandoned.join(", ")} was running when the backup was taken: marked abandoned`);
    if (r.previous)
      console.log(`[restore] the database it replaced is kept as ${r.previous}; delete it once the site serves the restored one`);
    console.log("[restore] start the site (npm start) to serve it");
  } catch (e) {
    if (!(e instanceof DbFileError)) throw e;
    console.error(`restore: ${e.message}`);
    process.exit(e.problem === "usage" || e.problem === "path" ? 2 : 1);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`restore: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
