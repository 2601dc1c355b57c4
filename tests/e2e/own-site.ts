import fs from "node:fs";
import path from "node:path";
import { freePort } from "../../lib/cli/ports";
import { startNext } from "../fixtures/next-server";

// The production server (`npm start`) of a spec's own, on its own database file and port, for specs that must change the data
// or the configuration under a running site (the shared e2e server's seed stays as the other specs expect).

export interface OwnSite {
  origin: string;
  /** Stops the process group and waits for it to exit. */
  stop(): Promise<void>;
}

/** Deletes the file and its WAL companions, making its folder if needed. */
export function freshDbFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
}

/** Starts the site with the scheduler off and a non-demo registry, plus `env`; resolves once /api/health answers. */
export async function startOwnSite(dbFile: string, env: Record<string, string> = {}): Promise<OwnSite> {
  const site = await startNext({ dbPath: dbFile, port: await freePort(), env });
  return { origin: site.origin, stop: site.stop };
}
