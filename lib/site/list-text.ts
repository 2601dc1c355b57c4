// The words of the list pages (the index, changes, incidents, coverage, data, a run) in both languages. Stored text
// (reasons, tool descriptions, server names) is never translated: only our own words are here. The Chinese uses the
// FAQ's terms (lib/site/faq/zh.ts) and the state names of labels.ts; Chinese counts need no plural.
import { OBSERVATION_CODES, type CheckState } from "../vocabulary/checks";
import type { InitializeFirstState } from "../vocabulary/clients";
import type { ServerSort, SortOrder, ToolChangeKind } from "../vocabulary/store";
import { formatCount } from "./format";
import { SORT_LABELS, SORT_ORDER_WORDS, STATE_LABELS, type Lang } from "./labels";
import { counted, WORDS } from "./plural";
import { UNKNOWN_OBSERVATION_FILTER } from "./query";

const ZH_SORT_LABELS: Record<ServerSort, string> = { name: "名称", overall: "总体状态", last_probed: "上次探测时间" };
const ZH_SORT_ORDER_WORDS: Record<ServerSort, Record<SortOrder, string>> = {
  name: { asc: "A 到 Z", desc: "Z 到 A" },
  overall: { asc: "最差的在前", desc: "最好的在前" },
  last_probed: { asc: "最早的在前", desc: "最新的在前" },
};

const INDEX_EN = {
  h1: "Remote MCP servers, as a careful client sees them",
  lede: "Every remote server in the official MCP registry, probed anonymously. Each check is Verified, Failed, Observed risk or Not checked, always with a one-sentence reason and the HTTP exchanges behind it.",
  verdictLink: "What a verdict here is, and is not.",
  /** The demo notice around its two `REGISTRY_URL` codes. */
  demo: [
    "Demo mode: no ",
    " is set, so these servers are the built-in fixture fleet on loopback, each behaving one way on purpose, probed by the real probe. Set ",
    " to read a real registry.",
  ],
  summaryH: (n: number) => `Summary: ${counted(n, WORDS.server)} in the registry`,
  stateCount: (n: number, state: CheckState) => `${formatCount(n)} ${STATE_LABELS.en[state]}`,
  summaryKind: "(overall; per check)",
  scrollNote: "Six columns: scroll the table sideways for every check →",
  summaryRegion: "Summary by state and check",
  summaryCaption: "Servers per state, overall and per check; each number links to that filter",
  state: "State",
  overall: "Overall",
  overallCount: (state: CheckState, n: number) => `Overall ${STATE_LABELS.en[state]}: ${counted(n, WORDS.server)}`,
  checkCount: (check: string, state: CheckState, n: number) => `${check} ${STATE_LABELS.en[state]}: ${counted(n, WORDS.server)}`,
  formLabel: "Search and filter servers",
  nameContains: "Name contains",
  sortBy: "Sort by",
  /** The sort's choices, short enough for a quarter of the panel: the column headers say the rest. */
  sortChoices: { name: "Name, A to Z", overall: "Worst first", last_probed: "Newest probe" } as Record<ServerSort, string>,
  anyState: "Any state",
  moreFilters: "Filter by check, observation or client, or include servers that left the registry",
  observation: "Observation",
  observationAny: "any or none",
  observationSome: "at least one",
  observationHelp: "Facts about the tool definitions of the latest complete read, never verdicts.",
  initializeFirst: "Initialize-first clients",
  any: "Any",
  /** The clients filter's choices (architecture.md §2.10), worded as what the list then holds. */
  initializeFirstChoices: { yes: "can connect", no: "cannot connect", unknown: "not known" } as Record<InitializeFirstState, string>,
  includeLeft: "Include servers that left the registry",
  submit: "Show servers",
  clear: "Clear",
  unknownObservation: UNKNOWN_OBSERVATION_FILTER,
  serversH: "Servers",
  noMatch: "No server matches.",
  showing: (total: number, filtered: boolean, from: number, to: number, sort: ServerSort, order: SortOrder) =>
    `${counted(total, filtered ? WORDS.serverMatch : WORDS.server)}; showing ${formatCount(from)}–${formatCount(to)}, ${SORT_LABELS[sort].toLowerCase()} ${SORT_ORDER_WORDS[sort][order]}.`,
  pages: "Pages",
  previous: "← Previous",
  next: "Next →",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  stamp: "this list is rendered again when a round finishes.",
  // The table.
  server: "Server",
  lastProbed: "Last probed",
  lastProbedHead: "Last probed · 90 days",
  /** A soft hyphen: the word is wider than its narrow column. */
  observationsHead: "Obser\u00advations",
  observations: "Observations",
  none: "none",
  observationsAfterCount: " observations",
  sortHint: (sort: ServerSort, order: SortOrder) => ` (sort ${SORT_ORDER_WORDS[sort][order]})`,
  noRequestSent: (cause: string) => `no request sent (${cause})`,
  notYet: "not yet",
  leftRegistry: (at: string) => `Left the registry ${at}`,
};

export const INDEX_TEXT: Record<Lang, typeof INDEX_EN> = {
  en: INDEX_EN,
  zh: {
    h1: "远程 MCP 服务端：一个谨慎的客户端看到的样子",
    lede: "官方 MCP 注册表中的每个远程服务端都以匿名方式探测。每项检查的结果是已通过、未通过、观察到风险或未检查，并且总附有一句话的原因，以及背后的 HTTP 交互。",
    verdictLink: "这里的状态意味着什么，又不意味着什么。",
    demo: [
      "演示模式：没有设置",
      "，所以这些服务端是内置在本机回环地址上的测试服务端，每个都有意表现出一种行为，由真正的探测器探测。设置",
      "即可读取真实的注册表。",
    ],
    summaryH: (n: number) => `概况：注册表中共有${counted(n, WORDS.server, "zh")}`,
    stateCount: (n: number, state: CheckState) => `${STATE_LABELS.zh[state]} ${formatCount(n)}`,
    summaryKind: "（总体；按检查）",
    scrollNote: "共六列：横向滚动表格可看到每项检查 →",
    summaryRegion: "按状态和检查统计的概况",
    summaryCaption: "每种状态下的服务端数，分总体和各项检查；每个数字都链接到对应的筛选",
    state: "状态",
    overall: "总体",
    overallCount: (state: CheckState, n: number) => `总体${STATE_LABELS.zh[state]}：${counted(n, WORDS.server, "zh")}`,
    checkCount: (check: string, state: CheckState, n: number) => `${check}${STATE_LABELS.zh[state]}：${counted(n, WORDS.server, "zh")}`,
    formLabel: "搜索和筛选服务端",
    nameContains: "名称包含",
    sortBy: "排序",
    sortChoices: { name: "名称，A 到 Z", overall: "最差的在前", last_probed: "最新探测在前" } as Record<ServerSort, string>,
    anyState: "任意状态",
    moreFilters: "按检查、观察或客户端筛选，或包括已离开注册表的服务端",
    observation: "观察",
    observationAny: "有无均可",
    observationSome: "至少一条",
    observationHelp: "关于最近一次完整读取中工具定义的事实，从来不是判定。",
    initializeFirst: "先发 initialize 的客户端",
    any: "任意",
    initializeFirstChoices: { yes: "能连接", no: "不能连接", unknown: "尚无结论" } as Record<InitializeFirstState, string>,
    includeLeft: "包括已离开注册表的服务端",
    submit: "显示服务端",
    clear: "清除",
    unknownObservation: `这不是观察代码，所以列表没有按观察筛选。请选择其中一个代码（${OBSERVATION_CODES.join("、")}）或「any」。`,
    serversH: "服务端",
    noMatch: "没有符合条件的服务端。",
    showing: (total: number, filtered: boolean, from: number, to: number, sort: ServerSort, order: SortOrder) =>
      `${counted(total, filtered ? WORDS.serverMatch : WORDS.server, "zh")}；显示第 ${formatCount(from)}–${formatCount(to)} 个，按${ZH_SORT_LABELS[sort]}排列，${ZH_SORT_ORDER_WORDS[sort][order]}。`,
    pages: "分页",
    previous: "← 上一页",
    next: "下一页 →",
    pageOf: (page: number, pages: number) => `第 ${page} 页，共 ${pages} 页`,
    stamp: "每轮探测结束后，此列表会重新生成。",
    server: "服务端",
    lastProbed: "上次探测",
    lastProbedHead: "上次探测 · 90 天",
    observationsHead: "观察",
    observations: "观察",
    none: "无",
    observationsAfterCount: " 条观察",
    sortHint: (sort: ServerSort, order: SortOrder) => `（按${ZH_SORT_LABELS[sort]}排序，${ZH_SORT_ORDER_WORDS[sort][order]}）`,
    noRequestSent: (cause: string) => `未发送请求（${cause}）`,
    notYet: "尚未探测",
    leftRegistry: (at: string) => `已于 ${at} 离开注册表`,
  },
};

/** "Page rendered … UTC; <note>" of every rendered page. */
export const RENDER_STAMP_TEXT: Record<Lang, [string, string]> = { en: ["Page rendered ", "; "], zh: ["页面生成于 ", "；"] };

const CHANGES_EN = {
  title: "Tool-definition changes",
  description: "Every change to a remote MCP server's tool definitions, field by field, newest first.",
  lede: "Every time a server's complete tool list differs from the last one we read, the difference is kept field by field. Newest first.",
  /** The feeds line: [feed link, between, states-feed link, after]. */
  feedLink: "Atom feed of all changes",
  feedBetween: " · each server page has its own feed too. Check results changing state (any check, any server) have ",
  statesFeedLink: "a feed of their own",
  feedAfter: ".",
  none: "No change recorded yet.",
  recorded: (n: number) => `${formatCount(n)} changes recorded.`,
  when: "When",
  server: "Server",
  tool: "Tool",
  change: "Change",
  field: "Field",
  beforeAfter: "Before → after",
  sameVersion: (v: string) => ` while serverInfo.version stayed ${v}`,
  wholeTool: "whole tool",
  /** The stored kind, as the English page always showed it. */
  kinds: { added: "added", removed: "removed", changed: "changed" } as Record<ToolChangeKind, string>,
  pages: "Pages",
  newer: "← Newer",
  older: "Older →",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
};

export const CHANGES_TEXT: Record<Lang, typeof CHANGES_EN> = {
  en: CHANGES_EN,
  zh: {
    title: "工具定义变更",
    description: "远程 MCP 服务端工具定义的每一次变更，逐字段列出，最新的在前。",
    lede: "每当一个服务端的完整工具列表与我们上次读到的不同，差异就会逐字段保存下来。最新的在前。",
    feedLink: "全部变更的 Atom 订阅源",
    feedBetween: " · 每个服务端页面也有自己的订阅源。检查结果的状态变化（任意检查、任意服务端）另有",
    statesFeedLink: "单独的订阅源",
    feedAfter: "。",
    none: "尚未记录任何变更。",
    recorded: (n: number) => `已记录 ${formatCount(n)} 处变更。`,
    when: "时间",
    server: "服务端",
    tool: "工具",
    change: "变更",
    field: "字段",
    beforeAfter: "变更前 → 变更后",
    sameVersion: (v: string) => `，而 serverInfo.version 仍为 ${v}`,
    wholeTool: "整个工具",
    kinds: { added: "新增", removed: "删除", changed: "修改" },
    pages: "分页",
    newer: "← 较新",
    older: "较旧 →",
    pageOf: (page: number, pages: number) => `第 ${page} 页，共 ${pages} 页`,
  },
};
