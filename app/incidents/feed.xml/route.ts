import { incidentsAtom } from "@/lib/site/feed";
import { incidentsFeedPath } from "@/lib/site/paths";
import { incidentEvents } from "@/lib/store/incidents";
import { serverExists } from "@/lib/store/servers/detail";
import { siteDb, siteOrigin } from "../../_lib/db";
import { atomResponse, unknownServerResponse } from "../../_lib/feed-response";

export const dynamic = "force-dynamic";

// GET /incidents/feed.xml → Atom of incident openings and closings; ?server=<registry name> for one server.
export async function GET(request: Request) {
  const server = new URL(request.url).searchParams.get("server") ?? undefined;
  const db = siteDb();
  if (server !== undefined && !serverExists(db, server)) {
    return unknownServerResponse();
  }
  const xml = incidentsAtom({
    origin: await siteOrigin(),
    selfPath: incidentsFeedPath(server),
    title: server ? `Incidents: ${server} (mcp-status)` : "Incidents across MCP servers (mcp-status)",
    events: incidentEvents(db, { server, limit: 100 }),
    now: new Date(),
  });
  return atomResponse(xml);
}
