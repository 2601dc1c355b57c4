import { indexHref, parseIndexQuery, type SearchParams } from "@/lib/site/query";
import type { Metadata } from "next";
import { IndexView } from "./_components/IndexView";
import { indexMetadata } from "./_lib/meta";

// Requests for "/" are rewritten by proxy.ts to the cached /index-cache/<version> route; this stays as the
// uncached form of the same page.
export const dynamic = "force-dynamic";

export async function generateMetadata({ searchParams }: { searchParams: Promise<SearchParams> }): Promise<Metadata> {
  return indexMetadata(indexHref(parseIndexQuery(await searchParams)));
}

export default async function Home({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <IndexView query={parseIndexQuery(await searchParams)} />;
}
