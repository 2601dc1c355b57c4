import { toolChangeList } from "@/lib/store/tools";
import { changesAtom } from "@/lib/site/feed";
import { serverExists } from "@/lib/store/servers/detail";
import { siteDb, siteOrigin } from "../../_lib/db";
import { atomResponse, unknownServerResponse } from "../../_lib/feed-response";

export const dynamic = "force-dynamic";

// GET /changes/feed.xml → Atom of tool-definition changes; ?server=<registry name> narrows it to one server.
export async function GET(request: Request) {
  const server = new URL(request.url).searchParams.get("server") ?? undefined;
  const db = siteDb();
  if (server !== undefined && !serverExists(db, server)) {
    return unknownServerResponse();
  }
  const { rows } = toolChangeList(db, { serverName: server, limit: 100 });
  const selfPath = server ? `/changes/feed.xml?server=${encodeURIComponent(server)}` : "/changes/feed.xml";
  const xml = changesAtom({
    origin: await siteOrigin(),
    selfPath,
    title: server ? `Tool changes: ${server} (mcp-status)` : "Tool-definition changes across MCP servers (mcp-status)",
    rows,
    now: new Date(),
  });
  return atomResponse(xml);
}
