import { langOfPath } from "./chrome";
import type { Lang } from "./labels";

// What a 404 page says, by the section the missing path is in and the path's language.

export type NotFoundSection = "server" | "faq" | "run" | "page";

export interface NotFoundWords {
  title: string;
  lede: string;
  detail: string | null;
  search: string;
  searchButton: string;
  links: { key: "index" | "faq"; label: string }[];
}

/** The section and language of a path that answered 404: the path asked for, or where proxy.ts sent it
 * (lib/site/page-routes.ts notFoundTarget), which is what the server render sees. */
export function notFoundOf(pathname: string): { lang: Lang; section: NotFoundSection } {
  const lang = langOfPath(pathname);
  const rest = lang === "zh" ? pathname.slice(3) : pathname.replace(/^\/en(?=\/|$)/, "");
  const section: NotFoundSection = /^\/servers(\/|$)/.test(rest)
    ? "server"
    : rest.startsWith("/faq/")
      ? "faq"
      : /^\/runs(\/|$)/.test(rest)
        ? "run"
        : "page";
  return { lang, section };
}

const LINKS = {
  en: [
    { key: "index", label: "All servers" },
    { key: "faq", label: "Questions and answers" },
  ],
  zh: [
    { key: "index", label: "全部服务端" },
    { key: "faq", label: "常见问题" },
  ],
} as const satisfies Record<Lang, NotFoundWords["links"]>;

export const NOT_FOUND_WORDS: Record<Lang, Record<NotFoundSection, NotFoundWords>> = {
  en: {
    server: {
      title: "No such server",
      lede: "We know no server by this registry name.",
      detail:
        "Registry names look like io.github.owner/server-name and are case-sensitive. A server keeps its page after it leaves the registry, so a missing page usually means a typo or a name the registry never listed.",
      search: "Search servers by name",
      searchButton: "Search",
      links: LINKS.en,
    },
    faq: {
      title: "No such question",
      lede: "There is no FAQ page at this address. The list of questions has every page we wrote.",
      detail: null,
      search: "Search servers by name",
      searchButton: "Search",
      links: LINKS.en,
    },
    run: {
      title: "No such run",
      lede: "There is no probe run with this number. Runs are kept for 30 days; a server's page links to the ones still kept.",
      detail: null,
      search: "Search servers by name",
      searchButton: "Search",
      links: LINKS.en,
    },
    page: {
      title: "Not found",
      lede: "There is no page at this address.",
      detail: null,
      search: "Search servers by name",
      searchButton: "Search",
      links: LINKS.en,
    },
  },
  zh: {
    server: {
      title: "没有这个服务端",
      lede: "我们不知道用这个注册表名称的服务端。",
      detail:
        "注册表名称形如 io.github.owner/server-name，区分大小写。服务端离开注册表后仍保留页面，所以找不到页面多半是名称打错了，或者注册表从未列出过它。",
      search: "按名称搜索服务端",
      searchButton: "搜索",
      links: LINKS.zh,
    },
    faq: {
      title: "没有这个问题",
      lede: "这个地址上没有常见问题页面。问题列表里有我们写的全部页面。",
      detail: null,
      search: "按名称搜索服务端",
      searchButton: "搜索",
      links: LINKS.zh,
    },
    run: {
      title: "没有这次探测",
      lede: "没有这个编号的探测记录。探测记录保留 30 天；服务端页面链接着仍保留的记录。",
      detail: null,
      search: "按名称搜索服务端",
      searchButton: "搜索",
      links: LINKS.zh,
    },
    page: {
      title: "找不到页面",
      lede: "这个地址上没有页面。",
      detail: null,
      search: "按名称搜索服务端",
      searchButton: "搜索",
      links: LINKS.zh,
    },
  },
};
