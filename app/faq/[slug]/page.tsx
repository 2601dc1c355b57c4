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
    path: faqPath("en", slug),
    title: FAQ.en[slug].title,
    description: FAQ.en[slug].summary,
    lang: "en",
    languages: { en: faqPath("en", slug), zh: faqPath("zh", slug) },
  });
}

export default async function FaqPage({ params }: Params) {
  const { slug } = await params;
  if (!isFaqSlug(slug)) notFound();
  return <FaqArticle lang="en" slug={slug} />;
}
