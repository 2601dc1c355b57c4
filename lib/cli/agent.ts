// npm run agent -- --region <id>: a probe agent for one region (architecture.md §8), a thin command over lib/probe. It
// connects to NATS_URL as its own user, answers the region's probes and keeps no state; SIGTERM lets probes in flight
// finish and answer before it exits.
import os from "node:os";
import { getConfig } from "../config";
import { createAddressPolicy, probeServer, probeUserAgent } from "../probe";
import { serveProbes, spacingGate } from "../regions/agent";
import { connectNats } from "../regions/nats";
import { REGION_ID } from "../vocabulary/regions";
import { readArgs, UsageError } from "./args";

const USAGE = `usage: npm run agent -- --region <id>

Answers the site's probes for one region over NATS, with the same probe code as the
site and \`npm run probe\`. Connects to NATS_URL with NATS_USER/NATS_PASSWORD or
NATS_CREDS; the broker lets a region's user read only its own subject
(mcp-status.probe.<id>, queue group mcp-status.agents.<id>) and publish only replies.

  --region <id>   the region this agent probes from (lower case, digits, -)
  -h, --help      show this help

Loopback and private addresses are refused unless PROBE_ALLOW_PRIVATE_NETWORKS=1.
Exit status: 0 after SIGTERM or SIGINT once probes in flight have answered; 2 on bad usage.`;

function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

export function parseAgentArgs(argv: readonly string[]): { region: string } | "help" {
  const { values, positionals, help } = readArgs(argv, { region: { type: "string" }, help: { type: "boolean", short: "h" } });
  if (help) return "help";
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const region = typeof values.region === "string" ? values.region : undefined;
  if (!region) throw new UsageError("missing --region <id>");
  if (!REGION_ID.test(region)) throw new UsageError(`--region ${JSON.stringify(region)} is not a region id (${REGION_ID})`);
  return { region };
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parseAgentArgs>;
  try {
    args = parseAgentArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) usage(e.message);
    throw e;
  }
  if (args === "help") {
    console.log(USAGE);
    return;
  }
  const config = getConfig();
  if (!config.nats) usage("NATS_URL is not set: an agent has nothing to connect to");
  const { region } = args;
  const agent = `${os.hostname()}:${process.pid}`;
  const userAgent = probeUserAgent(config.publicBaseUrl, region);
  // Only the explicit flag: an agent serves no demo fleet, so an unset REGISTRY_URL must not open private ranges.
  const addressPolicy = createAddressPolicy({ allowPrivate: config.nats.allowPrivateNetworks });
  const log = (l: string) => console.log(l);
  const nc = await connectNats({ ...config.nats, name: `mcp-status-agent-${region}`, log });
  const running = serveProbes({
    nc,
    region,
    agent,
    log,
    probe: (req) => {
      const optOuts = new Map(req.optedOutHosts.map((o) => [o.host.toLowerCase(), o.reason]));
      const isOptedOut = (host: string) => optOuts.get(host.toLowerCase()) ?? optOuts.get(host.toLowerCase().replace(/:\d+$/, "")) ?? null;
      return probeServer(
        { url: req.url, transport: req.transport },
        {
          addressPolicy,
          isOptedOut,
          hostGate: spacingGate(new URL(req.url).host, req.crawlDelayMs),
          ...(req.limits ? { limits: req.limits } : {}),
          userAgent,
        },
      );
    },
  });
  // The subscription is at the broker before anyone is told the agent answers.
  await nc.flush();
  console.log(`[agent] region ${region} answering as ${agent} (${userAgent})`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[agent] ${signal}: no new probes; waiting for ${running.inFlight()} in flight`);
    void running.stop().then(() => {
      console.log(`[agent] region ${region} stopped after ${running.served()} probes`);
      process.exit(0);
    });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

if (process.argv[1] && /agent\.ts$/.test(process.argv[1])) {
  main().catch((e: unknown) => {
    console.error(`[agent] ${(e as Error).message}`);
    process.exit(1);
  });
}
