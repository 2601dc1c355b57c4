import { SUITE_VERSION } from "../../probe/protocol";

// Facts the FAQ states in both languages; kept here so the two texts cannot drift apart.
export const ROBOTS_TOKEN = "mcp-status-probe";
/** Equal to lib/probe's DEFAULT_USER_AGENT (a unit test holds them together without pulling the probe into pages). */
export const USER_AGENT_EXAMPLE = `${ROBOTS_TOKEN}/${SUITE_VERSION} (+https://mcp-status.dev/faq/opting-out)`;
export const OPT_OUT_COMMAND = `npm run opt-out -- add <host> --reason "…"`;
export const PROBE_COMMAND = "npm run --silent probe -- <url>";
export const MODERN_REFUSAL_CODES = ["-32020", "-32021", "-32022"] as const;

export const ROBOTS_EXAMPLE = `User-agent: ${ROBOTS_TOKEN}
Disallow: /`;

export const SELF_TEST_CLI = `# the same code the site runs, from a checkout of this project
npm run --silent probe -- https://mcp.example.com/mcp
# machine-readable: {url, suite, era, protocolVersion, checks, exchanges}
npm run --silent probe -- https://mcp.example.com/mcp --json
# a 2024-11-05 HTTP+SSE endpoint
npm run --silent probe -- https://mcp.example.com/sse --transport sse`;

export const SELF_TEST_CURL = `# 1. the modern handshake, exactly as the probe opens
curl -sS -i https://mcp.example.com/mcp \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -H 'MCP-Protocol-Version: 2026-07-28' \\
  -H 'Mcp-Method: server/discover' \\
  --data-raw '{"jsonrpc":"2.0","id":"discover-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"self-test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}'

# 2. if that was a 4xx without -32020/-32021/-32022, or a 2xx that is not a discover result:
curl -sS -i https://mcp.example.com/mcp \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  --data-raw '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"self-test","version":"1"}}}'`;
