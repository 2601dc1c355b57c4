import { parseIndexQuery, type SearchParams } from "@/lib/site/query";
import { IndexView } from "./_components/IndexView";

// Requests for "/" are rewritten by proxy.ts to the cached /index-cache/<version> route; this stays as the
// uncached form of the same page.
export const dynamic = "force-dynamic";

export default async function Home({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <IndexView query={parseIndexQuery(await searchParams)} />;
}
