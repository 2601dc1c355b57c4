import type { Metadata } from "next";
import type { SearchParams } from "@/lib/site/query";
import { ManagePage, manageMetadata } from "@/app/_components/ManageSubscriptions";
import { pageLang } from "@/app/_lib/lang";

// GET /zh/subscriptions/<token>: the manage page in Chinese (the English one is app/subscriptions/[token], at the root;
// proxy.ts sends /en/subscriptions/… to the 404). Never cached, never indexed; no Referer leaves the site.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ lang: string; token: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const [lang, { token }] = await Promise.all([pageLang(params), params]);
  return manageMetadata(token, lang);
}

export default async function Page({ params, searchParams }: Params) {
  const [lang, { token }, query] = await Promise.all([pageLang(params), params, searchParams]);
  return <ManagePage token={token} urlLang={lang} query={query} />;
}
