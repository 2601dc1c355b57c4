import Link from "next/link";
import { hintSentence, type Hint } from "@/lib/checks/hints";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SERVER_TEXT } from "@/lib/site/server-text";
import { Stored } from "../Stored";

/** architecture.md §2.8: what the operator should change, under the reason of a Failed or Observed-risk check. */
export function CheckHint({ hint, lang = "en" }: { hint: Hint | null; lang?: Lang }) {
  if (!hint) return null;
  const t = SERVER_TEXT[lang];
  return (
    <p className="hint" data-hint={hint.code}>
      <strong>{t.whatToChange}</strong> <Stored lang={lang}>{hintSentence(hint)}</Stored>{" "}
      <Link href={faqPath(lang, "hints")}>{t.aboutHints}</Link>
    </p>
  );
}
