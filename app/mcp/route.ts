import { getConfig } from "@/lib/config";
import { createMcpEndpoint } from "@/lib/mcp/endpoint";
import { siteDb } from "../_lib/db";

export const dynamic = "force-dynamic";

// /mcp: the site as a remote MCP server (architecture.md §4), both eras, read-only. One endpoint (and so one rate
// limiter) per process.
let endpoint: ((request: Request) => Promise<Response>) | undefined;

function handle(request: Request): Promise<Response> {
  endpoint ??= createMcpEndpoint({ db: siteDb(), publicBaseUrl: getConfig().publicBaseUrl });
  return endpoint(request);
}

export { handle as GET, handle as POST, handle as DELETE };
