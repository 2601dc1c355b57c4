import type { Metadata } from "next";
import { FAQ_CHROME } from "@/lib/site/faq";
import { FaqIndex } from "@/app/_components/FaqArticle";
import { pageMetadata } from "@/app/_lib/meta";
import { faqPath } from "@/lib/site/paths";

export const generateMetadata = (): Promise<Metadata> =>
  pageMetadata({
    path: faqPath("zh"),
    title: FAQ_CHROME.zh.indexTitle,
    description: FAQ_CHROME.zh.indexLede,
    lang: "zh",
    languages: { en: faqPath("en"), zh: faqPath("zh") },
  });

export default function FaqIndexPage() {
  return <FaqIndex lang="zh" />;
}
