import { setImmediate as turn } from "node:timers/promises";
import type { Db } from "../../db/client";
import { censusRebuildCandidates, censusSnapshot, hasCensusDay, insertCensusDay, rebuildCensusDay } from "../store/census";
import { utcDay } from "./coverage";
import { pruneServersFiles, writeServersFile, type ServersFileWritten } from "./open-data";
import { DAY } from "./schedule";

// The census over time (architecture.md §3), once per UTC day after the day's first full round: the day's row of
// aggregates (never pruned), rows rebuilt for earlier days that have none while their runs are still stored, and the
// day's open-data file. Each step is idempotent, so a restart or a second round the same day changes nothing.

/** Runs older than this may be pruned (the round's maintenance): a rebuilt day can only trust runs newer than it. */
export const RUN_RETENTION_MS = 30 * DAY;

export interface DailyCensusDeps {
  db: Db;
  now: () => Date;
  log: (line: string) => void;
  /** The round the counts follow. */
  roundId: number | null;
  /** Where the daily open-data file goes (OPEN_DATA_DIR); undefined writes none. */
  openDataDir?: string;
}

export interface DailyCensusSummary {
  day: string;
  /** The day's row was written by this call (false: it existed). */
  wrote: boolean;
  /** Earlier days rebuilt from stored runs by this call. */
  rebuilt: string[];
  file: ServersFileWritten | null;
}

/** The day's census row, then rebuilt earlier days, then the open-data file. The row is computed synchronously, in one
 * read of the latest results; each rebuilt day and each page of the file yields to other work. */
export async function recordDailyCensus(deps: DailyCensusDeps): Promise<DailyCensusSummary> {
  const { db, log } = deps;
  const at = deps.now();
  const day = utcDay(at);
  let wrote = false;
  if (!hasCensusDay(db, day)) {
    const t0 = performance.now();
    const counts = censusSnapshot(db);
    wrote = insertCensusDay(db, {
      ...counts,
      day,
      source: "round",
      asOf: at.toISOString(),
      writtenAt: at.toISOString(),
      roundId: deps.roundId,
    });
    if (wrote) log(`[census] ${day}: ${counts.registry} servers counted in ${Math.round(performance.now() - t0)} ms`);
  }
  const rebuilt: string[] = [];
  const retainedFrom = new Date(at.getTime() - RUN_RETENTION_MS).toISOString();
  for (const c of censusRebuildCandidates(db, retainedFrom, day)) {
    await turn();
    const counts = rebuildCensusDay(db, c.asOf, retainedFrom);
    if (
      insertCensusDay(db, {
        ...counts,
        day: c.day,
        source: "backfill",
        asOf: c.asOf,
        writtenAt: deps.now().toISOString(),
        roundId: c.roundId,
      })
    )
      rebuilt.push(c.day);
  }
  if (rebuilt.length > 0)
    log(`[census] rebuilt ${rebuilt.length} earlier days from stored runs: ${rebuilt[0]} to ${rebuilt[rebuilt.length - 1]}`);
  let file: ServersFileWritten | null = null;
  if (deps.openDataDir) {
    file = await writeServersFile(db, deps.openDataDir, day, at);
    if (file) log(`[census] ${file.file}: ${file.servers} servers, ${file.bytes} bytes in ${file.ms} ms`);
    pruneServersFiles(deps.openDataDir, day);
  }
  return { day, wrote, rebuilt, file };
}

let running: Promise<DailyCensusSummary | null> | null = null;

/** The daily step this process is running, if any (the CLI waits for it before it exits). */
export const dailyCensusRunning = () => running;

/** The daily step after a round that finished well, unless the one started after an earlier round still runs (its rebuilt
 * days and file cover this one too). Never throws: a failure is logged and the next round tries again. */
export function afterRound(deps: DailyCensusDeps): Promise<DailyCensusSummary | null> {
  running ??= recordDailyCensus(deps)
    .catch((e: unknown) => {
      deps.log(`[census] failed: ${(e as Error).message}`);
      return null;
    })
    .finally(() => (running = null));
  return running;
}
