import type { ReactNode } from "react";
import type { Lang } from "@/lib/site/labels";

/** Text as it was recorded (check reasons, evidence, the registry's words): English. On an English page it is plain
 * text; on another language's page it is marked lang="en", so readers and screen readers know. */
export function Stored({ lang, children }: { lang: Lang; children: ReactNode }) {
  return lang === "en" ? <>{children}</> : <span lang="en">{children}</span>;
}
