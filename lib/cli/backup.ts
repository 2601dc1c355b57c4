// npm run backup -- <file> [--limit-rate <MB/s>]: an online copy of DATABASE_PATH while the site runs (architecture.md §9).
import { backupDatabase, DbFileError, describeBytes } from "../../db/backup";
import { getConfig } from "../config";
import { argsOrUsage, readArgs } from "./args";

const USAGE = `usage: npm run backup -- <file> [--limit-rate <MB/s>]
  copies the database (DATABASE_PATH) to <file> while the site runs, checks the copy with PRAGMA integrity_check,
  and renames it into place only then; --limit-rate spreads the copy so it takes at most that much disk bandwidth`;

function usage(message: string): never {
  console.error(`backup: ${message}\n${USAGE}`);
  process.exit(2);
}

function parse(argv: string[]): { dest: string; limitBytesPerSecond?: number } {
  const { values, positionals, help } = argsOrUsage(usage, () =>
    readArgs(
      argv,
      { "limit-rate": { type: "string" }, help: { type: "boolean", short: "h" } },
      { noValue: (f) => `${f} needs a rate in MB/s` },
    ),
  );
  if (help) usage("help");
  if (positionals.length === 0) usage("missing the backup file");
  if (positionals.length > 1) usage(`one backup file, got ${positionals.length}: ${positionals.join(" ")}`);
  const rate = values["limit-rate"];
  let limitBytesPerSecond: number | undefined;
  if (rate !== undefined) {
    const n = Number(rate);
    if (typeof rate !== "string" || !Number.isFinite(n) || n < 1) usage("--limit-rate needs a rate of at least 1 (MB/s)");
    limitBytesPerSecond = n * 1024 * 1024;
  }
  return { dest: positionals[0]!, limitBytesPerSecond };
}

async function main(argv: string[]): Promise<void> {
  const { dest, limitBytesPerSecond } = parse(argv);
  const { databasePath } = getConfig();
  const stop = new AbortController();
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => stop.abort(sig));
  let shown = -1;
  try {
    const r = await backupDatabase({
      source: databasePath,
      dest,
      limitBytesPerSecond,
      signal: stop.signal,
      onProgress: ({ copiedBytes, totalBytes }) => {
        const tenth = Math.floor((copiedBytes / Math.max(1, totalBytes)) * 10);
        if (tenth === shown || tenth >= 10) return;
        shown = tenth;
        console.error(`[backup] ${tenth * 10}% of ${describeBytes(totalBytes)} copied`);
      },
    });
    if (r.removedStale.length) console.error(`[backup] removed ${r.removedStale.join(", ")}, left by a backup that was killed`);
    const f = r.facts;
    console.log(
      `[backup] ${databasePath} -> ${r.dest}: ${describeBytes(f.bytes)}, integrity ok, ${f.servers} servers, ${f.runs} runs ` +
        `(latest ${f.latestRunAt ?? "none"}), migration ${f.level.applied} of ${f.level.known}, in ${(r.ms / 1000).toFixed(1)} s`,
    );
  } catch (e) {
    if (!(e instanceof DbFileError)) throw e;
    console.error(`backup: ${e.message}`);
    process.exit(e.problem === "usage" || e.problem === "path" ? 2 : 1);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`backup: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
