// npm start [-- -H <host>] [-p <port>]: the production site. The front process (lib/front) answers pages,
// badges and server JSON from memory while their data version is unchanged, and hands everything else to
// the renderer, `next start` (the built .next and the embedded scheduler from instrumentation.ts), which it
// starts in a child process on loopback and starts again when it exits.
import fs from "node:fs";
import path from "node:path";
import { argsOrUsage, readArgs } from "./lib/cli/args";

const USAGE = "usage: npm start [-- -H <host>] [-p <port>]";
function usage(message: string): never {
  console.error(`start: ${message}\n${USAGE}`);
  process.exit(2);
}

const { values, positionals } = argsOrUsage(usage, () =>
  readArgs(process.argv.slice(2), { hostname: { type: "string", short: "H" }, port: { type: "string", short: "p" } }),
);
if (positionals.length) usage(`unknown argument ${positionals[0]}`);
const port = Number(values.port ?? process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) usage("-p needs a TCP port number");
const hostname = typeof values.hostname === "string" ? values.hostname : "0.0.0.0";
const cwd = process.cwd();
if (!fs.existsSync(path.join(cwd, ".next", "BUILD_ID"))) usage("no build in .next: run npm run build first");

async function main(): Promise<void> {
  const { getConfig } = await import("./lib/config");
  const { getDb } = await import("./db/client");
  const { startFront } = await import("./lib/front/front");
  const { startNotifier } = await import("./lib/front/notifier");
  const config = getConfig();
  // Opened (and migrated) before the renderer starts, so two processes never migrate one file at once.
  const db = getDb(config);
  const log = (line: string) => console.error(line);
  const front = await startFront({
    db,
    publicBaseUrl: config.publicBaseUrl,
    limits: config.front,
    metricsToken: config.metricsToken,
    openDataDir: config.openDataDir,
    host: hostname,
    port,
    cwd,
    env: process.env,
    log,
  });
  const notifier = startNotifier({ cwd, env: process.env, siteUrl: `http://localhost:${front.port}`, log });
  // However this process ends, the renderer ends with it (the notifier too: it watches this pid).
  process.once("exit", () => void front.renderer.stop());
  let stopping = false;
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      if (stopping) return;
      stopping = true;
      void Promise.all([front.close(), notifier.stop()]).then(() => process.exit(0));
    });
  }
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  const cache = config.front.cacheBytes > 0 ? `front cache ${Math.round(config.front.cacheBytes / 1024 / 1024)} MB` : "front cache off";
  const status = front.renderer.status();
  console.log(`[site] ready on http://${shown}:${front.port} (${cache}; renderer next start pid ${status.pid})`);
}

main().catch((e: unknown) => {
  console.error(`[site] ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
