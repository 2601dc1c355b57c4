import { McpServer } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { SUITE_VERSION } from "../probe/protocol";
import {
  getServerStatusInput,
  recentChangesInput,
  recentChangesOutput,
  searchServersInput,
  searchServersOutput,
  serverStatusOutput,
} from "./schemas";
import { recentChangesText, searchServersText, serverStatusText } from "./text";
import { getServerStatus, recentChanges, searchServers, type Answer, type ToolContext } from "./tools";

// The site as an MCP server: one McpServer per request (the SDK's stateless serving), three read-only tools.

export const MCP_TOOL_NAMES = ["get_server_status", "search_servers", "recent_changes"] as const;

/** The tool list never changes while the site runs: clients and shared caches may keep it an hour. */
const LIST_CACHE = { ttlMs: 3_600_000, cacheScope: "public" } as const;

const INSTRUCTIONS = [
  "mcp-status probes every remote MCP server in the official registry and records five checks per server",
  "(handshake, protocol_version, tools_list, error_taxonomy, auth_metadata) as Verified, Failed, Observed risk or Not checked, each with a reason.",
  "Use search_servers to find a server's registry name, get_server_status before connecting a server, and recent_changes to see what changed lately.",
  "Every tool only reads; nothing here probes a server or changes anything.",
].join(" ");

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A tool answer as the SDK returns it: structured content and its summary, or a tool error. */
function toResult<T extends Record<string, unknown>>(answer: Answer<T>, text: (data: T) => string) {
  if (!answer.ok) return { content: [{ type: "text" as const, text: answer.error }], isError: true };
  return { content: [{ type: "text" as const, text: text(answer.data) }], structuredContent: answer.data };
}

export function buildMcpServer(context: () => ToolContext): McpServer {
  const server = new McpServer(
    { name: "mcp-status", title: "mcp-status: is this MCP server working?", version: SUITE_VERSION },
    {
      instructions: INSTRUCTIONS,
      // The tool list is fixed while the site runs: no list-changed notifications will ever come.
      capabilities: { tools: { listChanged: false } },
      cacheHints: { "tools/list": LIST_CACHE, "server/discover": LIST_CACHE },
    },
  );
  server.registerTool(
    "get_server_status",
    {
      title: "Status of one MCP server",
      description:
        "The latest mcp-status report for one remote MCP server, by its registry name: the overall state, the five checks with state, reason and hint, when it was last probed and last read completely, uptime, and a link to its page.",
      inputSchema: getServerStatusInput,
      outputSchema: serverStatusOutput,
      annotations: { title: "Status of one MCP server", ...readOnly },
    },
    (input: z.output<typeof getServerStatusInput>) => toResult(getServerStatus(context(), input), serverStatusText),
  );
  server.registerTool(
    "search_servers",
    {
      title: "Search MCP servers",
      description:
        "Find remote MCP servers by part of their registry name or title, optionally only those whose checks are in given states (e.g. tools_list: failed), a page at a time.",
      inputSchema: searchServersInput,
      outputSchema: searchServersOutput,
      annotations: { title: "Search MCP servers", ...readOnly },
    },
    (input: z.output<typeof searchServersInput>) =>
      toResult(searchServers(context(), input), (data) => searchServersText(data, input.query)),
  );
  server.registerTool(
    "recent_changes",
    {
      title: "Recent changes",
      description:
        "Check state changes (e.g. a server's tools_list turning Failed) and tool-definition changes (tools added, removed or changed) since a time, across all servers or for one.",
      inputSchema: recentChangesInput,
      outputSchema: recentChangesOutput,
      annotations: { title: "Recent changes", ...readOnly },
    },
    (input: z.output<typeof recentChangesInput>) => toResult(recentChanges(context(), input), recentChangesText),
  );
  return server;
}
