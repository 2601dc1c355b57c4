// npm run demo [-- --port <n>] [--no-build]: build the site, start it on loopback with the built-in demo
// fleet, wait for the first round and print the URL to open. Ctrl+C stops everything.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { argsOrUsage, readArgs } from "./args";

const USAGE = "usage: npm run demo [-- --port <n>] [--no-build]";
function usage(message: string): never {
  console.error(`demo: ${message}\n${USAGE}`);
  process.exit(2);
}
const NEEDS_PORT = "--port needs a TCP port number";
const { values, positionals } = argsOrUsage(usage, () =>
  readArgs(
    process.argv.slice(2),
    { port: { type: "string" }, "no-build": { type: "boolean" } },
    { unknown: (a) => `unknown argument ${a}`, noValue: () => NEEDS_PORT, valueGiven: (a) => `unknown argument ${a}` },
  ),
);
if (positionals.length) usage(`unknown argument ${positionals[0]}`);
const port = Number(values.port ?? process.env.PORT ?? 3000);
const build = values["no-build"] !== true;
if (!Number.isInteger(port) || port <= 0 || port > 65535) usage(NEEDS_PORT);

const nextBin = "node_modules/.bin/next";
if (build || !existsSync(".next/BUILD_ID")) {
  console.log("[demo] building the site (next build)…");
  const b = spawnSync(nextBin, ["build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

const env: NodeJS.ProcessEnv = { ...process.env, MCP_STATUS_DEMO: "1", NEXT_TELEMETRY_DISABLED: "1" };
delete env.REGISTRY_URL;
// The production server (`npm start`): Next.js behind the front cache.
const child = spawn(process.execPath, ["--import", "tsx", "server.ts", "-H", "127.0.0.1", "-p", String(port)], {
  stdio: ["ignore", "pipe", "inherit"],
  env,
});
const url = `http://127.0.0.1:${port}`;
let announced = false;
child.stdout.setEncoding("utf8");
child.stdout.on("data", (chunk: string) => {
  process.stdout.write(chunk);
  if (!announced && chunk.includes("[demo] first round")) {
    announced = true;
    console.log(`\n[demo] open ${url} (Ctrl+C to stop)\n`);
  }
});
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
