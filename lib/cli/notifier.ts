// The sender of subscribers' messages as a process of its own (architecture.md §10): `npm start` starts it beside the renderer,
// so a slow, huge or redirecting webhook, or ten thousand of them, never holds a round or a render. It ends when its parent
// (the front) is gone, even one killed with -9; a restarted one takes up the outbox where the last left it.
import { getConfig } from "../config";
import { senderFromConfig } from "../rounds/background";
import { argsOrUsage, readArgs } from "./args";

const USAGE = "usage: tsx lib/cli/notifier.ts --site-url <url> [--parent <pid>]";
function usage(message: string): never {
  console.error(`notifier: ${message}\n${USAGE}`);
  process.exit(2);
}

const { values } = argsOrUsage(usage, () =>
  readArgs(process.argv.slice(2), { "site-url": { type: "string" }, parent: { type: "string" } }),
);
const siteUrl = typeof values["site-url"] === "string" ? values["site-url"] : usage("--site-url is needed");
const parent = Number(values.parent ?? 0);
if (parent) setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();

const config = getConfig();
const sender = senderFromConfig(config, { siteUrl, log: (line) => console.log(line) });
console.log(
  `[notify] sender started: email ${config.notifications.smtpUrl ? "on" : "off"}, polling every ${config.notifications.pollMs} ms`,
);
for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void sender.stop().then(() => process.exit(0)));
// Keeps the process up between passes (the sender's own timers do not hold it).
setInterval(() => undefined, 60_000);
