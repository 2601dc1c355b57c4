// Probe one MCP server with the site's own code and print the report: the self-test the FAQ offers.
import { buildReport, judge, type ProbeReport } from "../checks";
import { CHECK_IDS } from "../vocabulary/checks";
import { CHECK_LABELS, STATE_LABELS } from "../site/labels";
import { reachSentence } from "../site/reach";
import { TRANSPORTS, type Transport } from "../probe/protocol";
import { createAddressPolicy, probeServer } from "../probe";
import { readArgs, UsageError } from "./args";

const USAGE = `usage: npm run --silent probe -- <url> [--transport streamable-http|sse] [--legacy] [--json] [--opt-out <host>]...
       [--header-required <name>]...

Probes one remote MCP server the way mcp-status does and prints the five checks
(handshake, protocol_version, tools_list, error_taxonomy, auth_metadata) with the
HTTP exchanges behind them, and the observations on its tool definitions
(hidden characters, narrow phrases, spec facts: architecture.md §2.9).

  --transport <t>   streamable-http (default) or sse (the 2024-11-05 HTTP+SSE transport)
  --legacy          start with initialize and never send server/discover, as a 2025-era
                    client does (the legacy path of a server that speaks both eras)
  --json            print only the JSON report on stdout
  --opt-out <host>  treat <host> as having asked not to be probed (repeatable)
  --header-required <name>
                    probe as the site does a server whose registry entry marks this header
                    required: anonymously, never sending it, judged by the reach rule of
                    suite 0.15.0 (repeatable)
  -h, --help        show this help

Loopback and private addresses are refused (no request is sent) unless
PROBE_ALLOW_PRIVATE_NETWORKS=1 is set. Exit status: 0 when the probe ran, whatever
the verdicts; 2 on bad usage.`;

export interface CliArgs {
  url: string;
  transport: Transport;
  json: boolean;
  optOut: string[];
  legacy: boolean;
  /** Header names the registry would list as required: reported, never sent. */
  headerRequired: string[];
}

/** An HTTP field name (RFC 9110 token), as a registry entry should give it. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,60}$/;

const OPTIONS = {
  transport: { type: "string" },
  json: { type: "boolean" },
  legacy: { type: "boolean" },
  "opt-out": { type: "string", multiple: true },
  "header-required": { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

/** Parses argv (without node and script); throws UsageError with a message fit for stderr. */
export function parseArgs(argv: readonly string[]): CliArgs | "help" {
  const { values, positionals, help } = readArgs(argv, OPTIONS);
  if (help) return "help";
  const t = String(values.transport ?? "streamable-http");
  if (!(TRANSPORTS as readonly string[]).includes(t)) throw new UsageError(`unknown transport "${t}" (use ${TRANSPORTS.join(" or ")})`);
  const optOut = ((values["opt-out"] as string[] | undefined) ?? []).map((h) => h.trim().toLowerCase());
  if (optOut.includes("")) throw new UsageError("--opt-out needs a host");
  const headerRequired = (values["header-required"] as string[] | undefined) ?? [];
  const badHeader = headerRequired.find((h) => !HEADER_NAME.test(h));
  if (badHeader !== undefined)
    throw new UsageError(`--header-required needs an HTTP header name (got ${JSON.stringify(badHeader.slice(0, 80))})`);
  if (positionals.length > 1) throw new UsageError(`only one URL may be given (got ${positionals[0]} and ${positionals[1]})`);
  const url = positionals[0];
  const transport = t as Transport;
  const json = values.json === true;
  const legacy = values.legacy === true;
  if (url === undefined) throw new UsageError("missing <url>");
  if (legacy && transport === "sse")
    throw new UsageError("--legacy is for streamable-http: the sse transport has no server/discover to leave out");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new UsageError(`only http and https URLs can be probed (got ${parsed.protocol})`);
  return { url: parsed.toString(), transport, json, optOut, legacy, headerRequired };
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
    if (c.hint) lines.push(`  ${pad("", 33)}What to change: ${c.hint}`);
  }
  // architecture.md §2.10: one line per kind of client, beside the checks.
  lines.push("", "Clients:");
  lines.push(`  ${pad("initialize first", 18)}${pad(report.clients.initializeFirst.state, 15)}${report.clients.initializeFirst.reason}`);
  lines.push(`  ${pad("discover first", 18)}${pad(report.clients.discoverFirst.state, 15)}${report.clients.discoverFirst.reason}`);
  // architecture.md §2.6 (0.15.0): what reaching it without the headers named by --header-required found.
  const configuration = reachSentence(report.configuration, "en");
  if (configuration) lines.push("", `Configuration: ${configuration}`);
  const cert = report.certificate;
  if (cert) {
    const state = cert.rejected ? `not accepted (${cert.rejected})` : "accepted";
    lines.push("", `certificate: ${cert.subject ?? cert.host}, issued by ${cert.issuer ?? "?"}, expires ${cert.validTo ?? "?"}, ${state}`);
  }
  if (report.checks.tools_list.state === "verified" || report.observations.length) {
    lines.push("");
    lines.push(
      report.observations.length
        ? `Observations on the tool definitions (facts, not verdicts; they change no state: ${report.observations.length}):`
        : "Observations on the tool definitions: none",
    );
    for (const o of report.observations) lines.push(`  ${o.code}: ${o.sentence}`);
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
    { url: args.url, transport: args.transport, ...(args.headerRequired.length ? { configHeaders: args.headerRequired } : {}) },
    {
      addressPolicy: createAddressPolicy({ allowPrivate }),
      isOptedOut: (host) => (optOut.has(host.toLowerCase()) ? "opted out on the command line" : null),
      legacyOnly: args.legacy,
    },
  );
  const report = buildReport(obs, judge(obs));
  // A refused address is a probe that ran (every check Not checked, as on the site), so exit 0; say how to allow it.
  if (obs.blocked?.kind === "address_policy") {
    process.stderr.write(
      `probe: ${obs.blocked.detail}; nothing was sent. Set PROBE_ALLOW_PRIVATE_NETWORKS=1 to probe private and loopback addresses.\n`,
    );
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
