import type { Metadata } from "next";
import { censusPath, censusWindowOf } from "@/lib/site/census";
import type { SearchParams } from "@/lib/site/query";
import { CensusView } from "../_components/census/CensusView";
import { pageMetadata } from "../_lib/meta";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<SearchParams> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const window = censusWindowOf(await searchParams);
  return pageMetadata({
    path: censusPath("en", window),
    title: "Census",
    description:
      "Remote MCP servers over time: agreed protocol revisions, modern against legacy, transports, auth outcomes, overall states and the registry's size, day by day.",
    languages: { en: censusPath("en", window), zh: censusPath("zh", window) },
  });
}

export default async function CensusPage({ searchParams }: Props) {
  return <CensusView lang="en" window={censusWindowOf(await searchParams)} />;
}
