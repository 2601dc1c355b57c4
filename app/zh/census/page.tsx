import type { Metadata } from "next";
import { censusPath, censusWindowOf } from "@/lib/site/census";
import type { SearchParams } from "@/lib/site/query";
import { CensusView } from "../../_components/census/CensusView";
import { pageMetadata } from "../../_lib/meta";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<SearchParams> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const window = censusWindowOf(await searchParams);
  return pageMetadata({
    path: censusPath("zh", window),
    title: "全站统计",
    description: "远程 MCP 服务端随时间的变化：商定的协议版本、新旧握手、传输方式、鉴权情况、总体状态和注册表规模，逐日记录。",
    lang: "zh",
    languages: { en: censusPath("en", window), zh: censusPath("zh", window) },
  });
}

export default async function ZhCensusPage({ searchParams }: Props) {
  return <CensusView lang="zh" window={censusWindowOf(await searchParams)} />;
}
