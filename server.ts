// npm start [-- -H <host>] [-p <port>]: the production site. A front process (this one) answers pages,
// badges and server JSON from memory while their data version is unchanged (lib/site/front-cache.ts) and
// hands everything else to the renderer, `next start` (the built .next, proxy.ts and the embedded scheduler
// from instrumentation.ts) in a child process on loopback. PAGE_CACHE_MB=0 turns the memory off; every
// request then goes to the renderer.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import { argsOrUsage, readArgs } from "./lib/cli/args";
import { freePort } from "./lib/cli/ports";

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

const NICE = "/usr/bin/nice";

/** Resolves once something accepts connections on the port; rejects if the renderer exits first. */
async function accepting(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`next start exited (${child.exitCode ?? child.signalCode}) before it listened`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("next start did not listen within 120 s");
}

async function main(): Promise<void> {
  const { isBot } = await import("next/dist/shared/lib/router/utils/is-bot.js");
  const { getConfig } = await import("./lib/config");
  const { getDb } = await import("./db/client");
  const { cachedRoute } = await import("./lib/site/cached-routes");
  const { createFrontCache } = await import("./lib/site/front-cache");
  const { createUpstream, RENDERER_KEEP_ALIVE_MS, RENDERER_NICENESS } = await import("./lib/site/upstream");
  const { createFrontMetrics } = await import("./lib/metrics/front");
  const config = getConfig();
  // Opened (and migrated) before the renderer starts, so two processes never migrate one file at once.
  const db = getDb(config);

  // The renderer: `next start` (pages, routes, proxy.ts, and the embedded scheduler from instrumentation.ts)
  // in a process of its own on loopback. Renders and rounds run there, so they never hold up this process,
  // which answers what has not changed.
  const renderPort = await freePort();
  const nextBin = path.join(process.cwd(), "node_modules", "next", "dist", "bin", "next");
  const args = [nextBin, "start", "-H", "127.0.0.1", "-p", String(renderPort), "--keepAliveTimeout", String(RENDERER_KEEP_ALIVE_MS)];
  // Under nice(1), so every thread of the renderer (GC, the thread pool) runs at the lower priority.
  const niced = fs.existsSync(NICE);
  const renderer = spawn(niced ? NICE : process.execPath, niced ? ["-n", String(RENDERER_NICENESS), process.execPath, ...args] : args, {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The renderer's own banner names its loopback port, which is not the site's address: left out.
  let pending = "";
  renderer.stdout!.setEncoding("utf8");
  renderer.stdout!.on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (!/^\s*- (Local|Network):/.test(line)) process.stdout.write(`${line}\n`);
  });
  if (!niced) console.error(`[site] ${NICE} not found: the renderer runs at the front's priority`);
  // However this process ends, the renderer ends with it.
  process.once("exit", () => renderer.kill("SIGTERM"));
  let stopping = false;
  renderer.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`[site] the renderer (next start) exited (${code ?? signal}); stopping`);
    process.exit(code || 1);
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    renderer.kill("SIGTERM");
    const forced = setTimeout(() => renderer.kill("SIGKILL"), 5_000);
    renderer.once("exit", () => {
      clearTimeout(forced);
      process.exit(0);
    });
    if (renderer.exitCode !== null || renderer.signalCode !== null) process.exit(0);
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, stop);
  await accepting(renderPort, renderer);

  const upstream = createUpstream({ host: "127.0.0.1", port: renderPort });
  const front = createFrontCache({
    maxBytes: config.pageCacheBytes,
    staleMs: 3_000,
    route: (req) => cachedRoute(req, { db, publicBaseUrl: config.publicBaseUrl, isBot }),
  });
  // GET /metrics (with METRICS_TOKEN set): this process's figures and the renderer's, in one answer.
  const metrics = config.metricsToken
    ? createFrontMetrics({
        token: config.metricsToken,
        // The front stops with its renderer (it never starts it again), so there are no restarts to count yet.
        stats: () => ({ ...front.stats(), cacheBytes: front.bytes, rendererRestarts: 0 }),
        renderer: () => ({ host: "127.0.0.1", port: renderPort }),
      })
    : null;
  const server = http.createServer((req, res) => {
    const answered = metrics?.matches(req) ? metrics.handle(req, res) : front.handle(req, res, upstream.pass);
    answered.catch((e: unknown) => {
      console.error(`[site] ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal error\n");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  const bound = (server.address() as net.AddressInfo).port;
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  const cache = config.pageCacheBytes > 0 ? `front cache ${Math.round(config.pageCacheBytes / 1024 / 1024)} MB` : "front cache off";
  console.log(`[site] ready on http://${shown}:${bound} (${cache}; renderer next start on 127.0.0.1:${renderPort}, pid ${renderer.pid})`);
}

main().catch((e: unknown) => {
  console.error(`[site] ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
