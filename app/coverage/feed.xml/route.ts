import { alertsAtom } from "@/lib/site/alerts-feed";
import { recentAlertEvents } from "@/lib/store/alerts";
import { siteDb, siteOrigin } from "../../_lib/db";
import { atomResponse } from "../../_lib/feed-response";

export const dynamic = "force-dynamic";

// GET /coverage/feed.xml → Atom of alert openings and resolutions (coverage_drop, rounds_stale, cross_read, probe_network).
export async function GET() {
  const xml = alertsAtom({ origin: await siteOrigin(), events: recentAlertEvents(siteDb(), 50), now: new Date() });
  return atomResponse(xml, 60);
}
