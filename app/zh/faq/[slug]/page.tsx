import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FAQ, FAQ_SLUGS, isFaqSlug } from "@/lib/site/faq";
import { FaqArticle } from "@/app/_components/FaqArticle";
import { pageMetadata } from "@/app/_lib/meta";
import { faqPath } from "@/lib/site/paths";

export const dynamicParams = false;

export function generateStaticParams() {
  return FAQ_SLUGS.map((slug) => ({ slug }));
}

type Params = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { slug } = await params;
  if (!isFaqSlug(slug)) return {};
  return pageMetadata({
    path: faqPath("zh", slug),
    title: FAQ.zh[slug].title,
    description: FAQ.zh[slug].summary,
    lang: "zh",
    languages: { en: faqPath("en", slug), zh: faqPath("zh", slug) },
  });
}

export default async function FaqPage({ params }: Params) {
  const { slug } = await params;
  if (!isFaqSlug(slug)) notFound();
  return <FaqArticle lang="zh" slug={slug} />;
}
