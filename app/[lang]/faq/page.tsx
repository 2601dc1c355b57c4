import type { Metadata } from "next";
import { FAQ_CHROME } from "@/lib/site/faq";
import { FaqIndex } from "@/app/_components/FaqArticle";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";
import { faqPath } from "@/lib/site/paths";

type Params = { params: Promise<{ lang: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const lang = await pageLang(params);
  return pageMetadata({
    path: faqPath("en"),
    title: FAQ_CHROME[lang].indexTitle,
    description: FAQ_CHROME[lang].indexLede,
    lang,
  });
}

export default async function FaqIndexPage({ params }: Params) {
  return <FaqIndex lang={await pageLang(params)} />;
}
