// npm run round [-- --max <n>] [--lock-stale-seconds <s>]: one round now, with a progress line.
import { DatabaseUnwritable, unwritableCode } from "../../db/write-watch";
import { getConfig } from "../config";
import { roundDepsFromConfig } from "../rounds/background";
import { dailyCensusRunning } from "../rounds/census";
import { countsLine, startRound } from "../rounds/round";
import { argsOrUsage, readArgs } from "./args";

const USAGE = "usage: npm run round [-- --max <servers>] [--lock-stale-seconds <seconds>] [--no-robots]";

function usage(message: string): never {
  console.error(`round: ${message}\n${USAGE}`);
  process.exit(2);
}

function positiveInt(flag: string, v: unknown): number {
  const n = Number(v);
  if (typeof v !== "string" || !v || !Number.isInteger(n) || n <= 0) usage(`${flag} needs a positive integer`);
  return n;
}

function parse(argv: string[]): { maxServers?: number; lockStaleMs?: number; robots: boolean } {
  const { values, positionals } = argsOrUsage(usage, () =>
    readArgs(
      argv,
      { max: { type: "string" }, "lock-stale-seconds": { type: "string" }, "no-robots": { type: "boolean" } },
      {
        unknown: (a) => `unknown argument ${a}`,
        noValue: (flag) => `${flag} needs a positive integer`,
        valueGiven: (a) => `unknown argument ${a}`,
      },
    ),
  );
  if (positionals.length) usage(`unknown argument ${positionals[0]}`);
  const max = values.max;
  const stale = values["lock-stale-seconds"];
  return {
    maxServers: max === undefined ? undefined : positiveInt("--max", max),
    lockStaleMs: stale === undefined ? undefined : positiveInt("--lock-stale-seconds", stale) * 1000,
    robots: values["no-robots"] !== true,
  };
}

async function main(argv: string[]): Promise<number> {
  const { maxServers, lockStaleMs, robots } = parse(argv);
  const config = getConfig();
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  const r = startRound(
    roundDepsFromConfig(config, {
      trigger: "cli",
      maxServers,
      robots,
      ...(lockStaleMs ? { lockStaleMs } : {}),
      onProgress: (p) => {
        const line = `[rounds] ${p.probed}/${p.due} probed: ${countsLine(p)}`;
        if (tty) process.stderr.write(`\r${line}`);
        else if (Date.now() - lastLine > 2_000 || p.probed === p.due) {
          lastLine = Date.now();
          console.error(line);
        }
      },
      log: (line) => {
        if (tty) process.stderr.write("\n");
        console.log(line);
      },
    }),
  );
  if (!r.started) {
    console.error(`round: ${r.reason}`);
    return 3;
  }
  console.log(`[rounds] round ${r.roundId} started`);
  const summary = await r.done;
  // The day's census and its open-data file follow the round (architecture.md §3): let them finish before the process ends.
  await dailyCensusRunning();
  return summary.status === "done" ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const code = e instanceof DatabaseUnwritable ? null : unwritableCode(e);
    console.error(`round: ${code ? `the database cannot be written (${code}: ${(e as Error).message})` : (e as Error).message}`);
    process.exit(1);
  },
);
