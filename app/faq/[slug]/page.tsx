import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FAQ, FAQ_SLUGS, isFaqSlug } from "@/lib/site/faq";
import { FaqArticle } from "@/app/_components/FaqArticle";

export const dynamicParams = false;

export function generateStaticParams() {
  return FAQ_SLUGS.map((slug) => ({ slug }));
}

type Params = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { slug } = await params;
  if (!isFaqSlug(slug)) return {};
  return {
    title: FAQ.en[slug].title,
    description: FAQ.en[slug].summary,
    alternates: { languages: { en: `/faq/${slug}`, "zh-Hans": `/zh/faq/${slug}` } },
  };
}

export default async function FaqPage({ params }: Params) {
  const { slug } = await params;
  if (!isFaqSlug(slug)) notFound();
  return <FaqArticle lang="en" slug={slug} />;
}
