import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setImmediate as turn } from "node:timers/promises";
import zlib from "node:zlib";
import type { Db } from "../../db/client";
import { serversFileDay, serversFileName } from "../site/paths";
import { openDataServers } from "../store/open-data";
import { addDays } from "./coverage";

// The daily open-data file (architecture.md §3): `servers-YYYY-MM-DD.jsonl.gz` in the open-data folder, one JSON object per
// listed server and line, written once a day after the census row and kept 30 days. Written to a temporary name and
// renamed, so a reader (the front serves the folder) never sees half a file.

export const SERVERS_FILE_KEEP_DAYS = 30;

export interface ServersFileWritten {
  file: string;
  servers: number;
  bytes: number;
  ms: number;
}

/** Writes the day's file unless it exists; yields to other work between pages of servers. */
export async function writeServersFile(db: Db, dir: string, day: string, now: Date): Promise<ServersFileWritten | null> {
  const file = path.join(dir, serversFileName(day));
  if (fs.existsSync(file)) return null;
  fs.mkdirSync(dir, { recursive: true });
  const t0 = performance.now();
  const tmp = path.join(dir, `.${serversFileName(day)}.${process.pid}.tmp`);
  let servers = 0;
  async function* lines() {
    for (const page of openDataServers(db, now)) {
      servers += page.length;
      yield page.map((s) => JSON.stringify(s)).join("\n") + "\n";
      await turn();
    }
  }
  try {
    await pipeline(Readable.from(lines()), zlib.createGzip(), fs.createWriteStream(tmp));
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return { file, servers, bytes: fs.statSync(file).size, ms: Math.round(performance.now() - t0) };
}

/** Deletes the day files older than the last SERVERS_FILE_KEEP_DAYS days up to `today`; returns their names. */
export function pruneServersFiles(dir: string, today: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const oldest = addDays(today, -(SERVERS_FILE_KEEP_DAYS - 1));
  const removed: string[] = [];
  for (const name of fs.readdirSync(dir)) {
    const day = serversFileDay(name);
    if (day === null || day === "malformed" || day >= oldest) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** The day files in the folder, newest first, with their sizes. */
export function listServersFiles(dir: string): { day: string; name: string; bytes: number }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((name) => ({ name, day: serversFileDay(name) }))
    .filter((f): f is { name: string; day: string } => f.day !== null && f.day !== "malformed")
    .map((f) => ({ ...f, bytes: fs.statSync(path.join(dir, f.name)).size }))
    .sort((a, b) => (a.day < b.day ? 1 : -1));
}
