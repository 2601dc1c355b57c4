import type { Metadata } from "next";
import { CARD_SIZE, cardDescription, cardModel } from "@/lib/site/card";
import { cardPath, serverFeedPath, serverPath, serverStatesFeedPath } from "@/lib/site/paths";
import { serverCardFacts } from "@/lib/store/servers/detail";
import { siteDb } from "./db";
import type { Lang } from "@/lib/site/labels";
import { pageMetadata } from "./meta";

/** A server page's metadata: canonical URL, feeds, and its card as the OpenGraph/Twitter image. The image URL
 * names the latest run, so a preview made after a new probe fetches the new card. Null for an unknown name. */
export async function serverPageMetadata(name: string, origin: string, lang: Lang = "en"): Promise<Metadata | null> {
  const facts = serverCardFacts(siteDb(), name);
  if (!facts) return null;
  const card = cardModel(facts);
  return pageMetadata({
    origin,
    path: serverPath(name),
    lang,
    title: name,
    description: cardDescription(card),
    image: {
      url: `${cardPath(name)}?run=${facts.lastRunId ?? 0}`,
      ...CARD_SIZE,
      alt: `${name}: ${card.overallLabel}. ${card.checks.map((c) => `${c.label} ${c.stateLabel}`).join(", ")}.`,
    },
    feeds: [
      { url: serverFeedPath(name), title: `Tool changes: ${name}` },
      { url: serverStatesFeedPath(name), title: `State changes: ${name}` },
    ],
  });
}
