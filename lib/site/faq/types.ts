import type { Lang } from "../labels";

/** Page order on the index: first what a reader from a badge needs, then one page per check, then operations. */
export const FAQ_SLUGS = [
  "observed-unsigned",
  "handshake",
  "clients",
  "protocol-version",
  "tools-list",
  "refusals",
  "withheld-call",
  "credential-gate",
  "auth-metadata",
  "which-servers",
  "hints",
  "tool-observations",
  "schedule",
  "uptime",
  "incidents",
  "self-test",
  "ask-over-mcp",
  "json-and-badges",
  "owners",
  "opting-out",
  "coverage",
  "own-network",
  "regions",
  "operating",
  "changelog",
] as const;
export type FaqSlug = (typeof FAQ_SLUGS)[number];

/** Inline text may hold `code` spans, **strong** and [links](/path); nothing else is interpreted. */
export type Inline = string;

/** A table row; one with an id is a link target of its own (a rule the index points at). */
export type Row = Inline[] | { id: string; cells: Inline[] };

export type Block =
  | { h2: Inline; id: string }
  | { h3: Inline; id: string }
  | { p: Inline }
  | { ul: Inline[] }
  | { ol: Inline[] }
  | { table: { caption: Inline; head: Inline[]; rows: Row[] } }
  /** A command or file to copy. */
  | { code: string; label: string }
  /** A verbatim quotation of wire traffic (a header, a body). The seed-overlap test leaves exactly these out. */
  | { wire: string; label: string }
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
  pagesHeading: string;
  rulesHeading: string;
  rulesLede: string;
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

export function rowId(row: Row): string | undefined {
  return Array.isArray(row) ? undefined : row.id;
}

export function rowCells(row: Row): Inline[] {
  return Array.isArray(row) ? row : row.cells;
}

/** Every link target on a page: section headings and table rows with an id. */
export function anchorsOf(page: FaqPage): string[] {
  const out: string[] = [];
  for (const b of page.body) {
    if ("h2" in b) out.push(b.id);
    else if ("h3" in b) out.push(b.id);
    else if ("table" in b) for (const r of b.table.rows) if (rowId(r)) out.push(rowId(r)!);
  }
  return out;
}
