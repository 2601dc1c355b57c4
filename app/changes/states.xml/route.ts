import { stateChangesAtom } from "@/lib/site/feed";
import { serverIdByName, stateChanges } from "@/lib/store/history";
import { siteDb, siteOrigin } from "../../_lib/db";
import { atomResponse, unknownServerResponse } from "../../_lib/feed-response";

export const dynamic = "force-dynamic";

// GET /changes/states.xml → Atom of check state changes across all servers; ?server=<registry name> for one.
export async function GET(request: Request) {
  const server = new URL(request.url).searchParams.get("server") ?? undefined;
  const db = siteDb();
  const serverId = server === undefined ? undefined : serverIdByName(db, server);
  if (serverId === null) {
    return unknownServerResponse();
  }
  const xml = stateChangesAtom({
    origin: await siteOrigin(),
    selfPath: server ? `/changes/states.xml?server=${encodeURIComponent(server)}` : "/changes/states.xml",
    title: server ? `State changes: ${server} (mcp-status)` : "Check state changes across MCP servers (mcp-status)",
    rows: stateChanges(db, { serverId, limit: 100 }),
    now: new Date(),
  });
  return atomResponse(xml);
}
