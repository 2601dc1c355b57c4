// npm run round [-- --max <n>] [--lock-stale-seconds <s>]: one round now, with a progress line.
import { getConfig } from "../config";
import { roundDepsFromConfig } from "../rounds/background";
import { countsLine, startRound } from "../rounds/round";

const USAGE = "usage: npm run round [-- --max <servers>] [--lock-stale-seconds <seconds>] [--no-robots]";

function usage(message: string): never {
  console.error(`round: ${message}\n${USAGE}`);
  process.exit(2);
}

function positiveInt(flag: string, v: string | undefined): number {
  const n = Number(v);
  if (!v || !Number.isInteger(n) || n <= 0) usage(`${flag} needs a positive integer`);
  return n;
}

async function main(argv: string[]): Promise<number> {
  let maxServers: number | undefined;
  let lockStaleMs: number | undefined;
  let robots = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--max") maxServers = positiveInt(a, argv[++i]);
    else if (a === "--lock-stale-seconds") lockStaleMs = positiveInt(a, argv[++i]) * 1000;
    else if (a === "--no-robots") robots = false;
    else usage(`unknown argument ${a}`);
  }
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
  return summary.status === "done" ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`round: ${(e as Error).message}`);
    process.exit(1);
  },
);
