// npm start [-- -H <host>] [-p <port>]: the production site. Next.js (the built .next, its proxy and the
// embedded scheduler from instrumentation.ts) behind a front cache that answers pages, badges and server
// JSON from memory while their data version is unchanged (lib/site/front-cache.ts). PAGE_CACHE_MB=0 turns
// the front cache off; every request then goes to Next as under `next start`.
import http from "node:http";
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

async function main(): Promise<void> {
  // Next reads NODE_ENV as it loads, hence the dynamic imports below.
  (process.env as Record<string, string>).NODE_ENV = "production";
  const { default: next } = await import("next");
  const { isBot } = await import("next/dist/shared/lib/router/utils/is-bot.js");
  const { getConfig } = await import("./lib/config");
  const { getDb } = await import("./db/client");
  const { cachedRoute } = await import("./lib/site/cached-routes");
  const { createFrontCache } = await import("./lib/site/front-cache");

  const app = next({ dev: false, dir: process.cwd(), hostname, port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const config = getConfig();
  const db = getDb(config);
  const front = createFrontCache({
    maxBytes: config.pageCacheBytes,
    staleMs: 3_000,
    route: (req) => cachedRoute(req, { db, publicBaseUrl: config.publicBaseUrl, isBot }),
  });
  const server = http.createServer((req, res) => {
    front.handle(req, res, handle).catch((e: unknown) => {
      console.error(`[site] ${req.method} ${req.url}: ${(e as Error).stack ?? String(e)}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("Internal error\n");
    });
  });
  server.on("upgrade", app.getUpgradeHandler());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  const bound = (server.address() as { port: number }).port;
  const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
  const cache = config.pageCacheBytes > 0 ? `front cache ${Math.round(config.pageCacheBytes / 1024 / 1024)} MB` : "front cache off";
  console.log(`[site] ready on http://${shown}:${bound} (${cache})`);
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.once(sig, () => {
      server.close();
      void app.close().finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 3_000).unref();
    });
  }
}

main().catch((e: unknown) => {
  console.error(`[site] ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
