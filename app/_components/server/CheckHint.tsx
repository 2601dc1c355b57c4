import Link from "next/link";
import type { Hint } from "@/lib/checks/hints";
import { hintSentenceIn } from "@/lib/site/hint-text";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SERVER_TEXT } from "@/lib/site/server-text";

/** architecture.md §2.8: what the operator should change, under the reason of a Failed or Observed-risk check, worded in
 * the page's language from the stored code and facts (so never marked as stored English). */
export function CheckHint({ hint, lang = "en" }: { hint: Hint | null; lang?: Lang }) {
  if (!hint) return null;
  const t = SERVER_TEXT[lang];
  return (
    <p className="hint" data-hint={hint.code}>
      <strong>{t.whatToChange}</strong> <span className="hint-sentence">{hintSentenceIn(lang, hint)}</span>{" "}
      <Link href={faqPath(lang, "hints")}>{t.aboutHints}</Link>
    </p>
  );
}
