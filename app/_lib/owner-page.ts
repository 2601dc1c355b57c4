import { headers } from "next/headers";
import { getConfig } from "@/lib/config";
import { clientAddress } from "@/lib/mcp/rate-limit";
import { ownerDepsFromConfig } from "@/lib/rounds/owners/wiring";
import type { Lang } from "@/lib/site/labels";
import { originFrom } from "@/lib/site/origin";

/** The owners' deps for a page render, and the client address its token lookups are counted under. */
export async function ownerPageDeps() {
  const h = await headers();
  const config = getConfig();
  return { deps: ownerDepsFromConfig(config, { siteUrl: originFrom(h, config.publicBaseUrl) }), client: clientAddress(h) };
}

export const langOf = (l: string): Lang => (l === "zh" ? "zh" : "en");
