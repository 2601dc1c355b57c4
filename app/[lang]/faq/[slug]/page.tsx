import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FAQ, FAQ_SLUGS, isFaqSlug } from "@/lib/site/faq";
import { FaqArticle } from "@/app/_components/FaqArticle";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";
import { faqPath } from "@/lib/site/paths";

export const dynamicParams = false;

export function generateStaticParams() {
  return FAQ_SLUGS.map((slug) => ({ slug }));
}

type Params = { params: Promise<{ lang: string; slug: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const [{ slug }, lang] = await Promise.all([params, pageLang(params)]);
  if (!isFaqSlug(slug)) return {};
  return pageMetadata({
    path: faqPath("en", slug),
    title: FAQ[lang][slug].title,
    description: FAQ[lang][slug].summary,
    lang,
  });
}

export default async function FaqPage({ params }: Params) {
  const [{ slug }, lang] = await Promise.all([params, pageLang(params)]);
  if (!isFaqSlug(slug)) notFound();
  return <FaqArticle lang={lang} slug={slug} />;
}
