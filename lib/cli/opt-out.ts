// npm run opt-out -- add <host> --reason "…" | list | remove <host>
import { getDb } from "../../db/client";
import { getConfig } from "../config";
import { addOptOut, listOptOuts, normaliseHost, removeOptOut } from "../store/optouts";
import { makeHostDue } from "../store/servers/round";
import { argsOrUsage, readArgs } from "./args";
import { counted, WORDS } from "../site/plural";

const USAGE = `usage:
  npm run opt-out -- add <host> --reason "why"   stop probing a host (host name or host:port)
  npm run opt-out -- list                        show opted-out hosts
  npm run opt-out -- remove <host>               probe the host again from the next round`;

function usage(message: string): never {
  console.error(`opt-out: ${message}\n${USAGE}`);
  process.exit(2);
}

function main(argv: string[]): void {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h") usage(command ? "help" : "missing command");
  const db = getDb(getConfig());
  const now = new Date().toISOString();

  if (command === "list") {
    if (rest.length) usage(`list takes no arguments (got ${rest.join(" ")})`);
    const rows = listOptOuts(db);
    if (!rows.length) console.log("no opted-out hosts");
    for (const r of rows) console.log(`${r.host}\t${r.source}\t${r.since}\t${r.reason}`);
    return;
  }

  if (command === "add") {
    const { values, positionals } = argsOrUsage(usage, () => readArgs(rest, { reason: { type: "string" } }));
    if (positionals.length > 1) usage(`unexpected argument ${positionals[1]}`);
    const hostArg = positionals[0];
    const reason = values.reason as string | undefined;
    if (!hostArg) usage("add needs a host");
    const host = normaliseHost(hostArg);
    if (!host) usage(`${JSON.stringify(hostArg)} is not a host name`);
    if (!reason?.trim()) usage('add needs --reason "…" (shown on every affected server page)');
    addOptOut(db, { host, reason: reason.trim(), source: "operator", since: now });
    // Due at once, so the next round replaces their verdicts with Not checked without sending anything.
    const n = makeHostDue(db, host, "host opted out; verdicts replaced in the next round");
    console.log(`opted out ${host} (${counted(n, WORDS.server)} affected): ${reason.trim()}`);
    return;
  }

  if (command === "remove") {
    if (rest.length !== 1) usage("remove needs exactly one host");
    const host = normaliseHost(rest[0]!);
    if (!host) usage(`${JSON.stringify(rest[0])} is not a host name`);
    if (!removeOptOut(db, host)) {
      console.error(`opt-out: ${host} is not opted out`);
      process.exit(1);
    }
    const n = makeHostDue(db, host, "opt-out removed; probed in the next round");
    console.log(`removed the opt-out for ${host}; ${counted(n, WORDS.server)} due in the next round`);
    return;
  }

  usage(`unknown command ${JSON.stringify(command)}`);
}

main(process.argv.slice(2));
