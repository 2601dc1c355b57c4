import type { Lang } from "./labels";

// Counted words in both languages through Intl.PluralRules, so "1 requests" cannot happen and a language with other
// plural categories needs only its forms added. `#` in a form stands for the number, written for that language.

/** The forms of one counted word: `other` always, `one` where the language has it (English), e.g.
 * `{ en: { one: "# request", other: "# requests" }, zh: { other: "# 次请求" } }`. */
export type CountedWord = Record<Lang, Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }>;

const LOCALES: Record<Lang, string> = { en: "en-US", zh: "zh-CN" };
const rules = new Map<Lang, Intl.PluralRules>();
const numbers = new Map<Lang, Intl.NumberFormat>();

function cached<T>(m: Map<Lang, T>, lang: Lang, make: (locale: string) => T): T {
  let v = m.get(lang);
  if (!v) m.set(lang, (v = make(LOCALES[lang])));
  return v;
}

/** "1 request", "3 requests", "1,200 requests"; "3 次请求" in Chinese. */
export function counted(n: number, word: CountedWord, lang: Lang = "en"): string {
  const forms = word[lang];
  const category = cached(rules, lang, (l) => new Intl.PluralRules(l)).select(n);
  const form = forms[category] ?? forms.other;
  return form.replace("#", cached(numbers, lang, (l) => new Intl.NumberFormat(l)).format(n));
}

/** The counted words the site uses, in one place. */
export const WORDS = {
  request: { en: { one: "# request", other: "# requests" }, zh: { other: "# 次请求" } },
  failedProbeInARow: { en: { one: "# failed probe", other: "# failed probes in a row" }, zh: { other: "连续 # 次探测失败" } },
  server: { en: { one: "# server", other: "# servers" }, zh: { other: "# 个服务端" } },
  tool: { en: { one: "# tool", other: "# tools" }, zh: { other: "# 个工具" } },
  page: { en: { one: "# page", other: "# pages" }, zh: { other: "# 页" } },
  probe: { en: { one: "# probe", other: "# probes" }, zh: { other: "# 次探测" } },
  day: { en: { one: "# day", other: "# days" }, zh: { other: "# 天" } },
  fieldPath: { en: { one: "# field path", other: "# field paths" }, zh: { other: "# 个字段路径" } },
  serverMatch: { en: { one: "# server matches", other: "# servers match" }, zh: { other: "# 个服务端符合条件" } },
  minute: { en: { one: "# minute", other: "# minutes" }, zh: { other: "# 分钟" } },
  time: { en: { one: "# time", other: "# times" }, zh: { other: "# 次" } },
  failureInARow: { en: { one: "# failure in a row", other: "# failures in a row" }, zh: { other: "连续 # 次失败" } },
  difference: { en: { one: "# difference", other: "# differences" }, zh: { other: "# 处差异" } },
  failedWrite: { en: { one: "# failed write", other: "# failed writes" }, zh: { other: "# 次写入失败" } },
  result: { en: { one: "# result", other: "# results" }, zh: { other: "# 个结果" } },
  observation: { en: { one: "# observation", other: "# observations" }, zh: { other: "# 条观察" } },
} as const satisfies Record<string, CountedWord>;
