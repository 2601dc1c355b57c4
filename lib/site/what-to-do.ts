import type { CheckId, CheckState, NoFallbackRule, NotCheckedCause, RefusalCode } from "../vocabulary/checks";
import { notCheckedAnchor } from "./faq/headline";
import type { FaqSlug } from "./faq/types";
import { faqPath } from "./paths";

// Where the FAQ says what to do about one verdict: the row for its Not checked kind, refusal code or no-fallback
// rule when the judge stored one, else the outcomes table of its check. Read from stored codes only.

export interface VerdictCodes {
  state: CheckState;
  notCheckedCause?: NotCheckedCause | null;
  noFallback?: NoFallbackRule | null;
  code?: RefusalCode | null;
}

const CHECK_PAGE: Record<CheckId, { slug: FaqSlug; anchor: string }> = {
  handshake: { slug: "handshake", anchor: "deciding-answer" },
  protocol_version: { slug: "protocol-version", anchor: "outcomes" },
  tools_list: { slug: "tools-list", anchor: "outcomes" },
  error_taxonomy: { slug: "refusals", anchor: "answers" },
  auth_metadata: { slug: "auth-metadata", anchor: "outcomes" },
};

const NO_FALLBACK_ROW: Record<NoFallbackRule, { slug: FaqSlug; anchor: string }> = {
  modern_declined: { slug: "handshake", anchor: "declined" },
  discover_server_error: { slug: "handshake", anchor: "transfer-failures" },
  discover_redirect: { slug: "handshake", anchor: "transfer-failures" },
  newer_revisions_only: { slug: "protocol-version", anchor: "newer-only" },
};

const REFUSAL_ROW: Record<RefusalCode, string | null> = {
  jsonrpc_invalid_params: "jsonrpc-error",
  jsonrpc_other_code: "jsonrpc-error",
  pre_dispatch_refusal: "pre-dispatch",
  is_error_result: "is-error",
  malformed_html: "malformed",
  malformed_no_jsonrpc: "malformed",
  malformed_empty: "malformed",
  malformed_other: "malformed",
  no_answer: "malformed",
  malformed_success: "success",
  // Not checked codes: the kind's own row answers.
  withheld: null,
  slow_down: null,
  deadline: null,
  not_probed: null,
};

/** The FAQ page and anchor for one verdict (English unless asked). */
export function whatToDoHref(check: CheckId, v: VerdictCodes, lang: "en" | "zh" = "en"): string {
  const at = (slug: FaqSlug, anchor: string) => `${faqPath(lang, slug)}#${anchor}`;
  if (v.state === "not_checked" && v.notCheckedCause) return at("observed-unsigned", notCheckedAnchor(v.notCheckedCause));
  if (v.state === "not_checked") return at("observed-unsigned", "not-checked");
  if (v.noFallback && (check === "handshake" || check === "protocol_version" || check === "tools_list")) {
    const row = NO_FALLBACK_ROW[v.noFallback];
    return at(row.slug, row.anchor);
  }
  if (check === "error_taxonomy" && v.code && REFUSAL_ROW[v.code]) return at("refusals", REFUSAL_ROW[v.code]!);
  const page = CHECK_PAGE[check];
  return at(page.slug, page.anchor);
}
