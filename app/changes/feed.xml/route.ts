import { toolChangeList } from "@/lib/store/tools";
import { changesAtom } from "@/lib/site/feed";
import { serverExists } from "@/lib/store/servers";
import { siteDb, siteOrigin } from "../../_lib/db";

export const dynamic = "force-dynamic";

// GET /changes/feed.xml → Atom of tool-definition changes; ?server=<registry name> narrows it to one server.
export async function GET(request: Request) {
  const server = new URL(request.url).searchParams.get("server") ?? undefined;
  const db = siteDb();
  if (server !== undefined && !serverExists(db, server)) {
    return new Response("no server by that registry name\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
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
  return new Response(xml, {
    headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "public, max-age=300" },
  });
}
