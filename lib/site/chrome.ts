import type { Lang } from "./labels";

// The words around every page (skip link, navigation, footer) in both languages, and where the other
// language's version of a page lives. /zh/ pages are Chinese from <html lang> to the footer.

export const HTML_LANG: Record<Lang, string> = { en: "en", zh: "zh-Hans" };

export interface ChromeLink {
  href: string;
  label: string;
  /** Set when the link leads to a page in the other language. */
  hrefLang?: string;
}

export interface SiteChrome {
  skip: string;
  navLabel: string;
  nav: ChromeLink[];
  /** The other language's name, written in that language, and a hidden phrase saying what the link does. */
  otherLanguage: string;
  otherLanguageHint: string;
  footerLinks: ChromeLink[];
  suite: (version: string) => string;
  disclaimer: string;
}

export const SITE_CHROME: Record<Lang, SiteChrome> = {
  en: {
    skip: "Skip to content",
    navLabel: "Site",
    nav: [
      { href: "/", label: "Servers" },
      { href: "/changes", label: "Changes" },
      { href: "/incidents", label: "Incidents" },
      { href: "/coverage", label: "Coverage" },
      { href: "/census", label: "Census" },
      { href: "/faq", label: "FAQ" },
    ],
    otherLanguage: "中文",
    otherLanguageHint: "Chinese version",
    footerLinks: [
      { href: "/faq/changelog", label: "rule changes" },
      { href: "/faq/observed-unsigned", label: "what a verdict here means" },
      { href: "/faq/opting-out", label: "opt out of probing" },
    ],
    suite: (v) => `Check suite ${v}`,
    disclaimer: "Observations of what an anonymous client sees, with the evidence. Not a certification and not a security audit.",
  },
  zh: {
    skip: "跳到正文",
    navLabel: "站点导航",
    nav: [
      { href: "/", label: "服务端列表", hrefLang: "en" },
      { href: "/changes", label: "工具变更", hrefLang: "en" },
      { href: "/incidents", label: "故障记录", hrefLang: "en" },
      { href: "/coverage", label: "覆盖数", hrefLang: "en" },
      { href: "/zh/census", label: "全站统计" },
      { href: "/zh/faq", label: "常见问题" },
    ],
    otherLanguage: "English",
    otherLanguageHint: "英文版",
    footerLinks: [
      { href: "/zh/faq/changelog", label: "规则变更记录" },
      { href: "/zh/faq/observed-unsigned", label: "这里的状态是什么意思" },
      { href: "/zh/faq/opting-out", label: "让探测器不再访问" },
    ],
    suite: (v) => `检查套件 ${v}`,
    disclaimer: "这里记录的是匿名客户端实际看到的情况，并附上证据；它既不是认证，也不是安全审计。",
  },
};

/** Which language a path is in: everything under /zh/ is Chinese. */
export const langOfPath = (pathname: string): Lang => (pathname === "/zh" || pathname.startsWith("/zh/") ? "zh" : "en");

/** The same page in the other language: /zh/faq/x ↔ /faq/x, /zh/census ↔ /census; English pages without a Chinese version lead
 * to the Chinese FAQ. */
export function otherLanguagePath(pathname: string): string {
  if (langOfPath(pathname) === "zh") return pathname.slice(3) || "/";
  return pathname === "/faq" || pathname.startsWith("/faq/") || pathname === "/census" ? `/zh${pathname}` : "/zh/faq";
}
