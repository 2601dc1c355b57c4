import type { Lang } from "../labels";

export const FAQ_SLUGS = ["refusals", "observed-unsigned", "withheld-call", "opting-out", "coverage", "changelog"] as const;
export type FaqSlug = (typeof FAQ_SLUGS)[number];

/** Inline text may hold `code` spans and [links](/path); nothing else is interpreted. */
export type Inline = string;

export type Block =
  | { h2: Inline; id?: string }
  | { p: Inline }
  | { ul: Inline[] }
  | { ol: Inline[] }
  | { table: { head: Inline[]; rows: Inline[][] } }
  | { code: string; label: string }
  /** The suite changelog, rendered from SUITE_CHANGELOG. */
  | { changelog: true };

export interface FaqPage {
  title: string;
  /** One line for the index. */
  summary: string;
  /** When the page first appeared (YYYY-MM-DD); rule changes after it are listed on the page. */
  firstPublished: string;
  body: Block[];
}

export type FaqBook = Record<FaqSlug, FaqPage>;

export interface FaqChrome {
  indexTitle: string;
  indexLede: string;
  otherLanguage: string;
  otherLanguageLabel: string;
  changesSince: (date: string) => string;
  noChangesSince: (date: string) => string;
  unversioned: string;
  suite: (v: string) => string;
  currentSuite: (v: string) => string;
  backToIndex: string;
}

export type FaqChromeBook = Record<Lang, FaqChrome>;

export function isFaqSlug(s: string): s is FaqSlug {
  return (FAQ_SLUGS as readonly string[]).includes(s);
}
