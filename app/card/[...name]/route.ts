import { createByteLru } from "@/lib/site/byte-lru";
import { cardModel } from "@/lib/site/card";
import { nameFromSegments } from "@/lib/site/paths";
import { serverCardFacts } from "@/lib/store/servers";
import { cardVersion } from "@/lib/store/versions";
import { renderCard } from "../../_lib/card-image";
import { siteDb } from "../../_lib/db";

export const dynamic = "force-dynamic";

// One PNG per server and data version; requests that arrive while it renders share the render.
const cache = createByteLru<{ version: string; png: Promise<Buffer> }>(32 * 1024 * 1024);

// GET /card/<registry name>: the server page's link-preview image (OpenGraph, Twitter), 1200×630.
export async function GET(_request: Request, { params }: { params: Promise<{ name: string[] }> }) {
  const name = nameFromSegments((await params).name);
  const db = siteDb();
  const version = cardVersion(db, name);
  if (version === null) return new Response("no server by that registry name\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  let hit = cache.get(name);
  if (!hit || hit.version !== version) {
    const facts = serverCardFacts(db, name)!;
    const entry = { version, png: renderCard(cardModel(facts)) };
    // A failed render is not kept: the next request tries again.
    entry.png.catch(() => (entry.version = ""));
    cache.set(name, entry, 64 * 1024);
    hit = entry;
  }
  const png = await hit.png;
  return new Response(new Uint8Array(png), {
    headers: { "content-type": "image/png", "content-length": String(png.length), "cache-control": "public, max-age=300, stale-while-revalidate=600" },
  });
}
