// npm run nats-config -- --regions a,b,c: writes a nats-server configuration with one user for the site and one per
// region (architecture.md §8), and the NATS_USER/NATS_PASSWORD lines each process needs.
import fs from "node:fs";
import { agentUser, natsServerConfig, SITE_USER } from "../regions/nats-config";
import { readArgs, UsageError } from "./args";

const USAGE = `usage: npm run --silent nats-config -- --regions <a,b,c> [--listen <host:port>] [--out <file>]
                                   [--tls-cert <file> --tls-key <file> [--tls-ca <file>]]

Writes a nats-server configuration for probing from several regions: the user "site"
may publish to mcp-status.probe.> and read its inbox; each region's user "agent-<id>"
may subscribe only to mcp-status.probe.<id> and publish only replies. Passwords are
generated; the environment lines for the site and each region's agents are printed
on stderr (keep them secret). Without --out the configuration goes to stdout.

  --regions <list>   comma-separated region ids (lower case, digits, -)
  --listen <addr>    where the broker listens (default 0.0.0.0:4222)
  --tls-cert, --tls-key, --tls-ca   TLS files (use TLS in production)
  -h, --help         show this help`;

export function parseNatsConfigArgs(argv: readonly string[]) {
  const { values, positionals, help } = readArgs(argv, {
    regions: { type: "string" },
    listen: { type: "string" },
    out: { type: "string" },
    "tls-cert": { type: "string" },
    "tls-key": { type: "string" },
    "tls-ca": { type: "string" },
    help: { type: "boolean", short: "h" },
  });
  if (help) return "help" as const;
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const regions = String(values.regions ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  if (regions.length === 0) throw new UsageError("missing --regions <a,b,c>");
  const cert = values["tls-cert"] as string | undefined;
  const key = values["tls-key"] as string | undefined;
  if (Boolean(cert) !== Boolean(key)) throw new UsageError("--tls-cert and --tls-key go together");
  return {
    regions,
    listen: String(values.listen ?? "0.0.0.0:4222"),
    out: values.out as string | undefined,
    tls: cert && key ? { certFile: cert, keyFile: key, ...(values["tls-ca"] ? { caFile: String(values["tls-ca"]) } : {}) } : undefined,
  };
}

function main(): void {
  let args: ReturnType<typeof parseNatsConfigArgs>;
  try {
    args = parseNatsConfigArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw e;
  }
  if (args === "help") {
    console.log(USAGE);
    return;
  }
  let out: ReturnType<typeof natsServerConfig>;
  try {
    out = natsServerConfig({ regions: args.regions, listen: args.listen, ...(args.tls ? { tls: args.tls } : {}) });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.out) fs.writeFileSync(args.out, out.text, { mode: 0o600 });
  else process.stdout.write(out.text);
  const scheme = args.tls ? "tls" : "nats";
  // A broker listening on one address is reached there; one listening on every address, at a name only the operator knows.
  const [, host = "", port = "4222"] = /^(.*):(\d+)$/.exec(args.listen) ?? [];
  const broker = `${scheme}://${host && host !== "0.0.0.0" && host !== "::" && host !== "[::]" ? host : "<broker>"}:${port}`;
  console.error(
    `# the site:\nNATS_URL=${broker} NATS_USER=${SITE_USER} NATS_PASSWORD=${out.users[SITE_USER]} PROBE_REGIONS=${args.regions.join(",")}`,
  );
  for (const r of args.regions) {
    console.error(
      `# agents of region ${r} (npm run agent -- --region ${r}):\nNATS_URL=${broker} NATS_USER=${agentUser(r)} NATS_PASSWORD=${out.users[agentUser(r)]}`,
    );
  }
}

if (process.argv[1] && /nats-config\.ts$/.test(process.argv[1])) main();
