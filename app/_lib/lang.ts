import { isLang } from "@/lib/site/chrome";
import type { Lang } from "@/lib/site/labels";

/** The language of a page under app/[lang]/ (its layout has already answered 404 for any other segment). */
export async function pageLang(params: Promise<{ lang: string }>): Promise<Lang> {
  const { lang } = await params;
  return isLang(lang) ? lang : "en";
}
