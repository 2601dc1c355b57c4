import { DEFAULT_LIMITS } from "../../probe/types";
import { MODERN_REVISION, RESERVED_TOOL_NAME, SUITE_VERSION } from "../../probe/protocol";

// Facts the FAQ states in both languages; kept here so the two texts cannot drift apart.
export const ROBOTS_TOKEN = "mcp-status-probe";
/** Equal to lib/probe's DEFAULT_USER_AGENT (a unit test holds them together without pulling the probe into pages). */
export const USER_AGENT_EXAMPLE = `${ROBOTS_TOKEN}/${SUITE_VERSION} (+https://mcp-status.dev/faq/opting-out)`;
export const OPT_OUT_COMMAND = `npm run opt-out -- add <host> --reason "…"`;
export const PROBE_COMMAND = "npm run --silent probe -- <url>";
export const MODERN_REFUSAL_CODES = ["-32020", "-32021", "-32022"] as const;

/** The probe's own limits, in the units the pages quote. */
export const LIMITS = {
  pageCap: DEFAULT_LIMITS.maxPages,
  deadlineSeconds: DEFAULT_LIMITS.deadlineMs / 1000,
  requestSeconds: DEFAULT_LIMITS.headersTimeoutMs / 1000,
};

export const ROBOTS_EXAMPLE = `User-agent: ${ROBOTS_TOKEN}
Disallow: /`;

export const ROBOTS_PATH_EXAMPLE = `User-agent: ${ROBOTS_TOKEN}
Disallow: /mcp
Crawl-delay: 5`;

export const OPT_OUT_COMMANDS = `npm run opt-out -- add mcp.example.com --reason "asked by the operator on 2026-11-02"
npm run opt-out -- list
npm run opt-out -- remove mcp.example.com`;

export const FRESH_CLONE = `git clone <repository URL of mcp-status> mcp-status
cd mcp-status
npm ci
npm run --silent probe -- https://mcp.example.com/mcp`;

export const SELF_TEST_CLI = `# the report as text; exit code 0 whenever the probe ran
npm run --silent probe -- https://mcp.example.com/mcp
# JSON: {url, suite, era, protocolVersion, checks, exchanges}
npm run --silent probe -- https://mcp.example.com/mcp --json
# an endpoint of the 2024-11-05 HTTP+SSE transport
npm run --silent probe -- https://mcp.example.com/sse --transport sse
# the legacy path of a server that speaks both eras: initialize, no server/discover
npm run --silent probe -- https://mcp.example.com/mcp --legacy
# a server on your own machine (private and loopback addresses are refused otherwise)
PROBE_ALLOW_PRIVATE_NETWORKS=1 npm run --silent probe -- http://127.0.0.1:3000/mcp`;

export const SELF_TEST_CURL = `# 1. the modern handshake, exactly as the probe opens
curl -sS -i https://mcp.example.com/mcp \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  -H 'MCP-Protocol-Version: ${MODERN_REVISION}' \\
  -H 'Mcp-Method: server/discover' \\
  --data-raw '{"jsonrpc":"2.0","id":"discover-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"${MODERN_REVISION}","io.modelcontextprotocol/clientInfo":{"name":"self-test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}'

# 2. if that was a 4xx without -32020/-32021/-32022, or a 2xx that is not a discover result:
curl -sS -i https://mcp.example.com/mcp \\
  -H 'Content-Type: application/json' \\
  -H 'Accept: application/json, text/event-stream' \\
  --data-raw '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"self-test","version":"1"}}}'`;

/** The one body the FAQ quotes from a real server: a legacy Python SDK declining server/discover. */
export const LEGACY_DECLINE_BODY = /* wire */ `HTTP/1.1 400 Bad Request
content-type: application/json

{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Unsupported protocol version: 2026-07-28. Supported versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"}}`;

export const RESERVED_CALL = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${RESERVED_TOOL_NAME}","arguments":{}}}`;

export const GOOD_REFUSAL = `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: ${RESERVED_TOOL_NAME}"}}`;

export const METADATA_EXAMPLE = `GET https://mcp.example.com/.well-known/oauth-protected-resource/mcp

{
  "resource": "https://mcp.example.com/mcp",
  "authorization_servers": ["https://auth.example.com"],
  "scopes_supported": ["tools:read", "tools:call"]
}`;

/** Structurally valid WWW-Authenticate values (RFC 9110 §11.6.1), as they appear on the wire. */
export const VALID_CHALLENGES = [
  `WWW-Authenticate: Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="tools:read"`,
  `WWW-Authenticate: Bearer`,
  `WWW-Authenticate: bearer realm=example, error=invalid_token`,
  `WWW-Authenticate: Basic realm="staff, contractors", Bearer resource_metadata="https://mcp.example.com/prm"`,
  `WWW-Authenticate: Bearer realm="say \\"hi\\""`,
  `WWW-Authenticate: Negotiate YIIFzwYGKwYBBQUCoIIFwzCCBb+gMDAu==`,
] as const;

/** Present but not a challenge; each with what a parser trips on. */
export const INVALID_CHALLENGES = [
  [`WWW-Authenticate: Bearer realm="mcp`, "the quoted string never ends"],
  [`WWW-Authenticate: Bearer realm=my server`, "a value with a space must be quoted"],
  [`WWW-Authenticate: {"error":"unauthorized"}`, "a JSON body is not a scheme"],
  [`WWW-Authenticate: Bearer realm=a, realm=b`, "the same parameter twice in one challenge"],
  [`WWW-Authenticate: Bearer =x`, "a parameter without a name"],
  [`WWW-Authenticate: "Bearer" realm=x`, "the scheme must be a bare token"],
] as const;

export const WEBHOOK_EXAMPLE = `{
  "text": "mcp-status alert rounds_stale (…) opened: no round has finished for 120 minutes.",
  "alert": { "kind": "rounds_stale", "state": "open", "since": "2026-11-30T10:05:00Z", "message": "…" }
}`;

/** The refusal of the TS SDK v2 app helpers' localhost-only Host allowlist, as a probe from outside gets it. */
export const INVALID_HOST_BODY = `HTTP/1.1 403 Forbidden
Content-Type: application/json

{"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Host: mcp.example.com"},"id":null}`;

/** A -32023 answer in the shape of the draft proposal (SEP-3304). */
export const RATE_LIMITED_BODY = `HTTP/1.1 429 Too Many Requests
Content-Type: application/json

{"jsonrpc":"2.0","id":1,"error":{"code":-32023,"message":"Rate limited","data":{"retryAfterMs":90000}}}`;

/** Days before expiry under which the server page warns about the certificate (lib/site/certificate.ts). */
export { CERTIFICATE_WARN_DAYS } from "../certificate";

/** How an MCP client adds this site's own endpoint (most clients take this shape; some name the key "servers"). */
export const MCP_CLIENT_CONFIG = `{
  "mcpServers": {
    "mcp-status": {
      "type": "http",
      "url": "https://status.example/mcp"
    }
  }
}`;
