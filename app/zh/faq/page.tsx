import type { Metadata } from "next";
import { FAQ_CHROME } from "@/lib/site/faq";
import { FaqIndex } from "@/app/_components/FaqArticle";

export const metadata: Metadata = {
  title: FAQ_CHROME.zh.indexTitle,
  alternates: { languages: { en: "/faq", "zh-Hans": "/zh/faq" } },
};

export default function FaqIndexPage() {
  return <FaqIndex lang="zh" />;
}
