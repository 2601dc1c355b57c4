"use client";

import { useEffect, useState } from "react";
import { formatUtc } from "@/lib/site/format";
import { formatRelativeIn } from "@/lib/site/format-zh";
import type { Lang } from "@/lib/site/labels";

/** A time shown as UTC in the cached HTML and as "3 h ago" once the browser runs, so cached pages never
 * carry a relative time that was true only when they were rendered. */
export function Ago({ iso, withUtc = false, lang: given }: { iso: string; withUtc?: boolean; lang?: Lang }) {
  const [relative, setRelative] = useState<string | null>(null);
  // Without a `lang` (a table shared by pages in both languages), the document's own language decides.
  const [lang, setLang] = useState<Lang>(given ?? "en");
  useEffect(() => {
    const l: Lang = given ?? (document.documentElement.lang.startsWith("zh") ? "zh" : "en");
    setLang(l);
    setRelative(formatRelativeIn(l, iso, new Date()));
  }, [iso, given]);
  const utc = formatUtc(iso);
  return (
    <time dateTime={iso} title={utc}>
      {relative === null ? utc : withUtc ? (lang === "en" ? `${utc} (${relative})` : `${utc}（${relative}）`) : relative}
    </time>
  );
}
