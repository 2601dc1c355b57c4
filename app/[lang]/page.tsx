import { indexHref, parseIndexQuery, type SearchParams } from "@/lib/site/query";
import type { Metadata } from "next";
import { IndexView } from "@/app/_components/IndexView";
import { pageLang } from "@/app/_lib/lang";
import { indexMetadata } from "@/app/_lib/meta";

// Rendered on every request it reaches; `npm start`'s front keeps one answer per index data version and
// canonical query (lib/front), so most requests never get here.
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  return indexMetadata(indexHref(parseIndexQuery(await searchParams)), await pageLang(params));
}

export default async function Home({ params, searchParams }: Props) {
  return <IndexView query={parseIndexQuery(await searchParams)} lang={await pageLang(params)} />;
}
