import type { Metadata } from "next";
import { censusPath, censusWindowOf } from "@/lib/site/census";
import type { SearchParams } from "@/lib/site/query";
import { CensusView } from "@/app/_components/census/CensusView";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<SearchParams> };

const WORDS = {
  en: {
    title: "Census",
    description:
      "Remote MCP servers over time: agreed protocol revisions, modern against legacy, transports, auth outcomes, overall states and the registry's size, day by day.",
  },
  zh: {
    title: "全站统计",
    description: "远程 MCP 服务端随时间的变化：商定的协议版本、新旧握手、传输方式、鉴权情况、总体状态和注册表规模，逐日记录。",
  },
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const [lang, window] = await Promise.all([pageLang(params), searchParams.then(censusWindowOf)]);
  return pageMetadata({ path: censusPath("en", window), ...WORDS[lang], lang });
}

export default async function CensusPage({ params, searchParams }: Props) {
  const [lang, window] = await Promise.all([pageLang(params), searchParams.then(censusWindowOf)]);
  return <CensusView lang={lang} window={window} />;
}
