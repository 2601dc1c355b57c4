import Link from "next/link";
import { hintSentence, type Hint } from "@/lib/checks/hints";

/** architecture.md §2.8: what the operator should change, under the reason of a Failed or Observed-risk check. */
export function CheckHint({ hint }: { hint: Hint | null }) {
  if (!hint) return null;
  return (
    <p className="hint" data-hint={hint.code}>
      <strong>What to change:</strong> {hintSentence(hint)} <Link href="/faq/hints">About hints</Link>
    </p>
  );
}
