import { parseIndexQuery, type SearchParams } from "@/lib/site/query";
import { IndexView } from "./_components/IndexView";

// Rendered on every request it reaches; `npm start`'s front keeps one answer per index data version and
// canonical query (lib/front), so most requests never get here.
export const dynamic = "force-dynamic";

export default async function Home({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return <IndexView query={parseIndexQuery(await searchParams)} />;
}
