// Probe one MCP server with the site's own code and print the report: the self-test the FAQ offers.
import { buildReport, judge, type ProbeReport } from "../checks";
import { CHECK_IDS } from "../checks/vocabulary";
import { CHECK_LABELS, STATE_LABELS } from "../site/labels";
import { TRANSPORTS, type Transport } from "../probe/protocol";
import { createAddressPolicy, probeServer } from "../probe";

const USAGE = `usage: npm run --silent probe -- <url> [--transport streamable-http|sse] [--json] [--opt-out <host>]...

Probes one remote MCP server the way mcp-status does and prints the five checks
(handshake, protocol_version, tools_list, error_taxonomy, auth_metadata) with the
HTTP exchanges behind them.

  --transport <t>   streamable-http (default) or sse (the 2024-11-05 HTTP+SSE transport)
  --json            print only the JSON report on stdout
  --opt-out <host>  treat <host> as having asked not to be probed (repeatable)
  -h, --help        show this help

Loopback and private addresses are refused (no request is sent) unless
PROBE_ALLOW_PRIVATE_NETWORKS=1 is set. Exit status: 0 when the probe ran, whatever
the verdicts; 2 on bad usage.`;

export interface CliArgs {
  url: string;
  transport: Transport;
  json: boolean;
  optOut: string[];
}

export class UsageError extends Error {}

/** Parses argv (without node and script); throws UsageError with a message fit for stderr. */
export function parseArgs(argv: readonly string[]): CliArgs | "help" {
  let url: string | undefined;
  let transport: Transport = "streamable-http";
  let json = false;
  const optOut: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.startsWith("--") ? raw.indexOf("=") : -1;
    const flag = eq === -1 ? raw : raw.slice(0, eq);
    const value = (): string => {
      if (eq !== -1) return raw.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "-h":
      case "--help":
        return "help";
      case "--json":
        if (eq !== -1) throw new UsageError("--json takes no value");
        json = true;
        break;
      case "--transport": {
        const t = value();
        if (!(TRANSPORTS as readonly string[]).includes(t)) throw new UsageError(`unknown transport "${t}" (use ${TRANSPORTS.join(" or ")})`);
        transport = t as Transport;
        break;
      }
      case "--opt-out": {
        const host = value().trim().toLowerCase();
        if (!host) throw new UsageError("--opt-out needs a host");
        optOut.push(host);
        break;
      }
      default:
        if (raw.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
        if (url !== undefined) throw new UsageError(`only one URL may be given (got ${url} and ${raw})`);
        url = raw;
    }
  }
  if (url === undefined) throw new UsageError("missing <url>");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`only http and https URLs can be probed (got ${parsed.protocol})`);
  return { url: parsed.toString(), transport, json, optOut };
}

function pad(s: string, n: number): string {
  return s.length >= n ? `${s} ` : s + " ".repeat(n - s.length);
}

export function renderHuman(report: ProbeReport, transport: Transport): string {
  const lines: string[] = [];
  lines.push(`mcp-status probe ${report.suite}: ${report.url} (${transport})`);
  lines.push(`era: ${report.era}   protocol version: ${report.protocolVersion ?? "none agreed"}`);
  lines.push("");
  for (const id of CHECK_IDS) {
    const c = report.checks[id];
    lines.push(`  ${pad(CHECK_LABELS.en[id], 18)}${pad(STATE_LABELS.en[c.state], 15)}${c.reason}`);
  }
  lines.push("");
  lines.push(report.exchanges.length ? "Exchanges:" : "Exchanges: none (nothing was sent)");
  for (const e of report.exchanges) {
    const status = e.status !== undefined ? String(e.status) : `no answer (${e.error ?? "?"})`;
    lines.push(`  #${e.seq} ${e.phase}: ${e.method} ${e.url} -> ${status} in ${e.durationMs} ms`);
    for (const h of ["mcp-protocol-version", "mcp-method", "mcp-name", "mcp-session-id"]) {
      if (e.requestHeaders[h]) lines.push(`      > ${h}: ${e.requestHeaders[h]}`);
    }
    if (e.requestBody) lines.push(`      > ${oneLine(e.requestBody, 200)}`);
    for (const [k, v] of Object.entries(e.responseHeaders)) {
      if (k !== "date" && k !== "content-length") lines.push(`      < ${k}: ${oneLine(v, 200)}`);
    }
    if (e.bodyExcerpt) lines.push(`      < ${oneLine(e.bodyExcerpt, 300)}${e.truncated ? " [truncated]" : ""}`);
    if (e.sseAnswer) lines.push(`      < (answer event) ${oneLine(e.sseAnswer, 300)}`);
    if (e.error && e.status !== undefined) lines.push(`      ! ${e.error}`);
  }
  return lines.join("\n");
}

function oneLine(s: string, n: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

async function main(): Promise<number> {
  let args: CliArgs | "help";
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`probe: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (args === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const flag = process.env.PROBE_ALLOW_PRIVATE_NETWORKS?.toLowerCase();
  const allowPrivate = flag === "1" || flag === "true";
  const optOut = new Set(args.optOut);
  const obs = await probeServer(
    { url: args.url, transport: args.transport },
    {
      addressPolicy: createAddressPolicy({ allowPrivate }),
      isOptedOut: (host) => (optOut.has(host.toLowerCase()) ? "opted out on the command line" : null),
    },
  );
  const report = buildReport(obs, judge(obs));
  // A refused address is a probe that ran (every check Not checked, as on the site), so exit 0; say how to allow it.
  if (obs.blocked?.kind === "address_policy") {
    process.stderr.write(`probe: ${obs.blocked.detail}; nothing was sent. Set PROBE_ALLOW_PRIVATE_NETWORKS=1 to probe private and loopback addresses.\n`);
  }
  process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderHuman(report, args.transport)}\n`);
  return 0;
}

// Only when run as a script, so tests can import parseArgs.
if (process.argv[1] && /lib[\\/]cli[\\/]probe\.ts$/.test(process.argv[1])) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`probe: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
