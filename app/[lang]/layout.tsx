import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { isLang, LANGS } from "@/lib/site/chrome";

// The locale segment: every page lives once under app/[lang]/ and renders in "en" (the site's root URLs,
// rewritten here by next.config.mjs) or "zh" (/zh/…). Any other first segment is no page of ours.

export function generateStaticParams() {
  return LANGS.map((lang) => ({ lang }));
}

export default async function LangLayout({ children, params }: { children: ReactNode; params: Promise<{ lang: string }> }) {
  if (!isLang((await params).lang)) notFound();
  return children;
}
