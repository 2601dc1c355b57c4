import type { Exchange } from "../probe/types";

/** POSIX single-quoting: safe for any byte string in sh, bash and zsh (no expansion inside '…'). */
export function shellQuote(value: string): string {
  if (value !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

// curl computes these itself; copying them would only make the command wrong.
const SKIPPED_HEADERS = new Set(["host", "content-length", "connection", "transfer-encoding", "accept-encoding"]);

/** A curl command that sends the same request the probe sent: no redirects followed, headers shown. */
export function curlCommand(exchange: Pick<Exchange, "method" | "url" | "requestHeaders" | "requestBody" | "phase">): string {
  const parts = ["curl", "-sS", "-i", "--max-time", "30"];
  if (exchange.phase === "sse_stream" || exchange.method === "GET") parts.push("-N");
  if (exchange.method !== "GET" || exchange.requestBody !== undefined) parts.push("-X", exchange.method);
  const headers = Object.entries(exchange.requestHeaders ?? {})
    .filter(([k]) => !SKIPPED_HEADERS.has(k.toLowerCase()))
    .sort(([a], [b]) => a.localeCompare(b));
  for (const [k, v] of headers) parts.push("-H", shellQuote(`${k}: ${v}`));
  if (exchange.requestBody !== undefined) parts.push("--data-raw", shellQuote(exchange.requestBody));
  // --url keeps a value that starts with "-" from being read as an option.
  parts.push("--url", shellQuote(exchange.url));
  return parts.join(" ");
}
