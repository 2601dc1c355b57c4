import { cardModel } from "@/lib/site/card";
import { nameFromSegments } from "@/lib/site/paths";
import { serverCardFacts } from "@/lib/store/servers/detail";
import { renderCard } from "../../_lib/card-image";
import { siteDb } from "../../_lib/db";
import { unknownServerResponse } from "../../_lib/feed-response";

export const dynamic = "force-dynamic";

// GET /card/<registry name>: the server page's link-preview image (OpenGraph, Twitter), 1200×630. Rendered on
// every request that reaches it: `npm start`'s front keeps one per server and card version (lib/front), and
// requests that arrive while it renders share the render.
export async function GET(_request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const facts = serverCardFacts(siteDb(), name);
  if (!facts) return unknownServerResponse();
  const png = await renderCard(cardModel(facts));
  return new Response(new Uint8Array(png), {
    headers: {
      "content-type": "image/png",
      "content-length": String(png.length),
      "cache-control": "public, max-age=300, stale-while-revalidate=600",
    },
  });
}
