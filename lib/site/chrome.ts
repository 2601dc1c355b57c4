import type { Lang } from "./labels";

// The words around every page (skip link, navigation, footer) in both languages, and where the other
// language's version of a page lives. One page tree serves both (app/[lang]/): English at the root, as
// every English URL always was (next.config.mjs rewrites it to /en/…), Chinese under /zh.

export const LANGS = ["en", "zh"] as const satisfies readonly Lang[];
export const isLang = (v: string): v is Lang => (LANGS as readonly string[]).includes(v);
export const HTML_LANG: Record<Lang, string> = { en: "en", zh: "zh-Hans" };

/** A site path ("/", "/faq/x", "/?q=a") in `lang`: English paths as they are, Chinese ones under /zh. */
export function localePath(lang: Lang, path: string): string {
  if (lang === "en") return path;
  if (path === "/") return "/zh";
  return path.startsWith("/?") || path.startsWith("/#") ? `/zh${path.slice(1)}` : `/zh${path}`;
}

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
      { href: "/zh", label: "服务端列表" },
      { href: "/zh/changes", label: "工具变更" },
      { href: "/zh/incidents", label: "故障记录" },
      { href: "/zh/coverage", label: "覆盖数" },
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

/** The same page in the other language: /zh/x ↔ /x (every page exists in both). */
export function otherLanguagePath(pathname: string): string {
  return langOfPath(pathname) === "zh" ? pathname.slice(3) || "/" : localePath("zh", pathname.replace(/^\/en(?=\/|$)/, "") || "/");
}
