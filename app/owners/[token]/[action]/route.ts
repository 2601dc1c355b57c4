import { after } from "next/server";
import { getConfig } from "@/lib/config";
import { clientAddress } from "@/lib/mcp/rate-limit";
import { createAddressPolicy } from "@/lib/probe";
import { roundDepsFromConfig } from "@/lib/rounds/background";
import { subscribe } from "@/lib/rounds/notify/subscribe";
import { ownerByToken } from "@/lib/rounds/owners/claims";
import { setConfiguration } from "@/lib/rounds/owners/configure";
import { startReprobeRound } from "@/lib/rounds/reprobe";
import { originFrom } from "@/lib/site/origin";
import { ownerPagePath, serverPath } from "@/lib/site/paths";
import { crossSitePost } from "@/lib/site/reprobe-form";
import { deleteSecrets, giveUpClaim } from "@/lib/store/owners";
import { requestReprobe } from "@/lib/store/reprobe";
import { ownerRouteDeps } from "../../../api/_lib/owner-deps";
import { ownerSecretPage } from "../../../api/_lib/owners";
import { ownOrigins } from "../../../api/_lib/reprobe";

export const dynamic = "force-dynamic";

const ACTIONS = ["configure", "remove", "probe", "subscribe", "give-up"] as const;

const seeOther = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
const plain = (status: number, text: string) =>
  new Response(`${text}\n`, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });

// POST /owners/<token>/<action>: the manage page's forms (architecture.md §11), each answered with a 303 back to the page (or to
// the server page once the claim is given up). Cross-site posts are refused; no answer carries a value.
export async function POST(request: Request, { params }: { params: Promise<{ token: string; action: string }> }) {
  const { token, action } = await params;
  if (!(ACTIONS as readonly string[]).includes(action)) return plain(404, "No such action.");
  const deps = ownerRouteDeps(request);
  const cross = crossSitePost(request.headers, ownOrigins(request, deps.publicBaseUrl));
  if (cross) return plain(403, `Refused: only this site's own pages may post here (${cross}).`);
  const claim = ownerByToken(deps, token, clientAddress(request.headers));
  if ("ok" in claim) return plain(claim.error === "rate_limited" ? 429 : 404, claim.message);
  let fields = new FormData();
  try {
    fields = await request.formData();
  } catch {
    // Buttons without fields may send an empty body.
  }
  const page = (q: Record<string, string>) => seeOther(`${ownerPagePath(token)}?${new URLSearchParams(q)}`);
  const now = new Date();
  const config = getConfig();
  switch (action as (typeof ACTIONS)[number]) {
    case "configure": {
      if (!deps.keys) return page({ error: "owners_disabled" });
      const headers: Record<string, string> = {};
      const variables: Record<string, string> = {};
      for (const [k, v] of fields) {
        if (typeof v !== "string" || v === "") continue;
        if (k.startsWith("header:")) headers[k.slice(7)] = v;
        else if (k.startsWith("variable:")) variables[k.slice(9)] = v;
      }
      const a = setConfiguration(deps.db, deps.keys, claim, { headers, variables }, now);
      return page(a.ok ? { done: "configured" } : { error: a.error });
    }
    case "remove":
      deleteSecrets(deps.db, claim.id);
      return page({ done: "removed" });
    case "give-up":
      giveUpClaim(deps.db, claim.id, now);
      return seeOther(`${claim.lang === "zh" ? "/zh" : ""}${serverPath(claim.server)}`);
    case "probe": {
      const a = requestReprobe(deps.db, claim.server, now, { minMinutes: config.reprobeMinMinutes, hourlyCap: config.reprobeHourlyCap });
      if (!a.queued) return page({ error: "rate_limited" });
      const r = startReprobeRound(roundDepsFromConfig(config), a.serverId);
      if (r.started) after(r.done);
      return page({ done: "probe_queued" });
    }
    case "subscribe": {
      const address = String(fields.get("address") ?? "").trim();
      const isEmail = address.includes("@") && !address.includes("://");
      const a = await subscribe(
        {
          db: deps.db,
          policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
          emailOn: config.notifications.smtpUrl !== undefined,
          hourlyCap: config.notifications.subscribeHourlyCap,
          siteUrl: originFrom(request.headers, config.publicBaseUrl),
        },
        {
          server: claim.server,
          ...(isEmail ? { email: address } : { webhook: address }),
          client: clientAddress(request.headers),
          lang: claim.lang === "zh" ? "zh" : "en",
          claimId: claim.id,
        },
      );
      if (!a.ok) return plain(400, a.message);
      // A signed webhook's secret is answered once, here, as the JSON API's 201 does; Slack and Discord URLs have none.
      if (a.status === "active" && a.secret) return ownerSecretPage(claim.lang === "zh" ? "zh" : "en", claim.server, a.secret, token);
      return page({ done: a.status === "confirmation_sent" ? "confirmation_sent" : "subscribed" });
    }
  }
}
