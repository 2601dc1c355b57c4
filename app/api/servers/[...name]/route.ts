import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { createAddressPolicy } from "@/lib/probe";
import { nameFromSegments } from "@/lib/site/paths";
import { originFrom } from "@/lib/site/origin";
import { siteDb } from "../../../_lib/db";
import { getServer } from "../../_lib/handlers";
import { postSubscription } from "../../_lib/subscriptions";
import { ownerRouteDeps } from "../../_lib/owner-deps";
import { postClaim } from "../../_lib/owners";

export const dynamic = "force-dynamic";

// GET /api/servers/<registry name>: names contain "/", hence the catch-all segment. `npm start`'s front keeps
// one answer per server data version (lib/front).
export async function GET(_request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  return getServer(nameFromSegments((await params).name), siteDb());
}

// POST /api/servers/<registry name>/subscriptions (architecture.md §10) and …/claims (§11): the last segment names the collection.
export async function POST(request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const segments = (await params).name;
  const collection = segments.length >= 2 ? segments[segments.length - 1] : undefined;
  if (collection === "claims") return postClaim(request, nameFromSegments(segments.slice(0, -1)), ownerRouteDeps(request));
  if (collection !== "subscriptions")
    return Response.json({ error: "not_found", message: "POST goes to /api/servers/<name>/subscriptions or …/claims." }, { status: 404 });
  const config = getConfig();
  const n = config.notifications;
  return postSubscription(request, nameFromSegments(segments.slice(0, -1)), {
    db: getDb(config),
    policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
    emailOn: n.smtpUrl !== undefined,
    hourlyCap: n.subscribeHourlyCap,
    publicBaseUrl: config.publicBaseUrl,
    siteUrl: originFrom(request.headers, config.publicBaseUrl),
  });
}
