import { indexHref, parseIndexQuery, type SearchParams } from "@/lib/site/query";
import type { Metadata } from "next";
import { IndexView } from "./_components/IndexView";
import { indexMetadata } from "./_lib/meta";

// Rendered on every request it reaches; `npm start`'s front keeps one answer per index data version and
// canonical query (lib/front), so most requests never get here.
export const dynamic = "force-dynamic";

export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  return indexMetadata(indexHref(parseIndexQuery(await searchParams)));
}

export default async function Home({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <IndexView query={parseIndexQuery(await searchParams)} />;
}
