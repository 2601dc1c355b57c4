import type { Lang } from "../labels";
import { SUITE_CHANGELOG } from "../changelog";
import { faqPath } from "../paths";
import { FAQ_CHROME_EN, FAQ_EN } from "./en";
import { FAQ_CHROME_ZH, FAQ_ZH } from "./zh";
import type { FaqBook, FaqChromeBook } from "./types";
import type { RuleLink } from "./rules";

export * from "./types";
export { RULE_INDEX, type RuleGroup, type RuleLink } from "./rules";

export const FAQ: Record<Lang, FaqBook> = { en: FAQ_EN, zh: FAQ_ZH };
export const FAQ_CHROME: FaqChromeBook = { en: FAQ_CHROME_EN, zh: FAQ_CHROME_ZH };

/** Rule changes dated after the page first appeared, newest first. */
export function changesSince(firstPublished: string) {
  return SUITE_CHANGELOG.filter((c) => c.date > firstPublished);
}

/** Where the index sends a reader for one rule, in one language. */
export function ruleHref(lang: Lang, rule: RuleLink): string {
  return `${faqPath(lang, rule.slug)}#${rule.anchor}`;
}
