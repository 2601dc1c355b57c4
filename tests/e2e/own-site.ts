import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

// The production server (`npm start`) of a spec's own, on its own database file and port, for specs that must change the data
// or the configuration under a running site (the shared e2e server's seed stays as the other specs expect).

export interface OwnSite {
  origin: string;
  child: ChildProcess;
  output: string[];
  /** Stops the process group and waits (at most 5 s) for it to exit. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Deletes the file and its WAL companions, making its folder if needed. */
export function freshDbFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${file}${suffix}`, { force: true });
}

function stopProcessGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
}

/** Starts the production server (`npm start`) with the scheduler off and a non-demo registry, plus `env`; resolves once /api/health answers. */
export async function startOwnSite(dbFile: string, env: Record<string, string> = {}): Promise<OwnSite> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("server.ts"), "-H", "127.0.0.1", "-p", String(port)], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_PATH: dbFile,
      PROBE_SCHEDULE: "",
      REGISTRY_URL: "http://127.0.0.1:9/",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output: string[] = [];
  child.stdout!.on("data", (b: Buffer) => output.push(b.toString()));
  child.stderr!.on("data", (b: Buffer) => output.push(b.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once("exit", () => r())));
    stopProcessGroup(child);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  };
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${output.join("").slice(-1500)}`);
    const ok = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { origin, child, output, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  stopProcessGroup(child);
  throw new Error(`npm start did not answer /api/health within 60 s: ${output.join("").slice(-1500)}`);
}
