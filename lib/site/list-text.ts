// The words of the list pages (the index, changes, incidents, coverage, data, a run) in both languages. Stored text
// (reasons, tool descriptions, server names) is never translated: only our own words are here. The Chinese uses the
// FAQ's terms (lib/site/faq/zh.ts) and the state names of labels.ts; Chinese counts need no plural.
import { OBSERVATION_CODES, type CheckId, type CheckState } from "../vocabulary/checks";
import type { InitializeFirstState } from "../vocabulary/clients";
import type { ServerSort, SortOrder, ToolChangeKind } from "../vocabulary/store";
import { formatCount } from "./format";
import { CHECK_LABELS, SORT_LABELS, SORT_ORDER_WORDS, STATE_LABELS, type Lang } from "./labels";
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

const INCIDENTS_EN = {
  title: (server?: string) => (server ? `Incidents of ${server}` : "Incidents"),
  description: "When remote MCP servers stopped answering a careful client, for how long, and why: recent incidents across all servers.",
  feedTitle: (server?: string) => (server ? `Incidents: ${server}` : "Incidents"),
  lede: "An incident is a stretch of time in which a server's discovery checks (handshake, protocol version, tool list) were Failed: it opens at the probe that found one Failed and closes at the first later probe that reached the server with none Failed. Most recent first.",
  feedLink: (server: boolean) => `Atom feed of ${server ? "this server's" : "all"} incidents`,
  feedAfter: " (an entry when one opens and one when it closes) · ",
  faqLink: "how incidents are recorded",
  serverPage: "the server's page",
  allServers: "all servers",
  /** The unknown-server notice around its <code>name</code>. */
  noServer: ["No server is named ", "; showing incidents of all servers."],
  none: "No incident recorded yet.",
  recorded: (total: number, ongoing: number) =>
    `${formatCount(total)} ${total === 1 ? "incident" : "incidents"} recorded, ${formatCount(ongoing)} ongoing.`,
  pages: "Pages",
  newer: "← Newer",
  older: "Older →",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  // The table.
  server: "Server",
  started: "Started",
  ended: "Ended",
  duration: "Duration",
  openedBy: "Opened by",
  ongoing: "Ongoing",
  opened: "opened ",
  checkFailed: (check: CheckId) => `${CHECK_LABELS.en[check]} ${STATE_LABELS.en.failed}`,
  reasonAfter: ": ",
};

export const INCIDENTS_TEXT: Record<Lang, typeof INCIDENTS_EN> = {
  en: INCIDENTS_EN,
  zh: {
    title: (server?: string) => (server ? `${server} 的故障记录` : "故障记录"),
    description: "远程 MCP 服务端何时不再回应一个谨慎的客户端、持续了多久、原因是什么：所有服务端最近的故障记录。",
    feedTitle: (server?: string) => (server ? `故障记录：${server}` : "故障记录"),
    lede: "一条故障记录是一段时间，其间服务端的发现类检查（握手、协议版本、工具列表）有一项未通过：它开启于发现未通过的那次探测，结束于之后第一次到达服务端、且三项都不是未通过的探测。最新的在前。",
    feedLink: (server: boolean) => (server ? "此服务端故障记录的 Atom 订阅源" : "全部故障记录的 Atom 订阅源"),
    feedAfter: "（开启时一条，结束时再一条）· ",
    faqLink: "故障记录是怎样记下的",
    serverPage: "服务端页面",
    allServers: "全部服务端",
    noServer: ["没有名为 ", " 的服务端；下面显示全部服务端的故障记录。"],
    none: "尚未记录任何故障。",
    recorded: (total: number, ongoing: number) => `已记录 ${formatCount(total)} 条故障，其中 ${formatCount(ongoing)} 条尚未结束。`,
    pages: "分页",
    newer: "← 较新",
    older: "较旧 →",
    pageOf: (page: number, pages: number) => `第 ${page} 页，共 ${pages} 页`,
    server: "服务端",
    started: "开始",
    ended: "结束",
    duration: "持续时间",
    openedBy: "开启原因",
    ongoing: "尚未结束",
    opened: "开启于 ",
    checkFailed: (check: CheckId) => `${CHECK_LABELS.zh[check]}${STATE_LABELS.zh.failed}`,
    reasonAfter: "：",
  },
};

/** A column of census.csv and what it holds; `code` in backticks (app/_components/Inline.tsx). */
type ColumnMeaning = [column: string, meaning: string];

const DATA_EN = {
  title: "Open data",
  description: (licence: string) =>
    `The daily census of remote MCP servers and every server's state per day, as CSV, JSON and JSON Lines, under ${licence}.`,
  lede: (keepDays: number) =>
    `What the site measures, to download and study: one row of counts per UTC day since the census began, and every server's state on each of the last ${keepDays} days. Served as files; nothing is computed per download.`,
  /** The licence notice around the licence's link and its id. */
  licence: [
    "Licence: ",
    " (",
    "). Use it for anything, and say where it came from: \u201cmcp-status census\u201d with a link to this page. The server names, URLs and descriptions in it are the MCP registry's.",
  ],
  downloads: "Downloads",
  file: "File",
  what: "What",
  censusCsv: (days: number) => `The daily rows, one column per count (${counted(days, WORDS.day)}).`,
  censusJson: "The same rows as JSON: `{license, days: [CensusDay]}`.",
  dayFile: (day: string, size: string) => `Every listed server on ${day}, one JSON object per line, gzip (${size}).`,
  size: (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${formatCount(Math.round(bytes / 1024))} KB`),
  noDayFile: "No daily server file yet: the first is written after the first round of a UTC day.",
  dayFiles: (keepDays: number) =>
    `The day files are written once a day, after the day's first round, and kept ${keepDays} days; a day that is not there answers 404, a name whose day is not a date answers 400. They carry an \`ETag\` and answer byte ranges, so a download can resume:`,
  censusH: "census.csv and census.json",
  census:
    "One row per UTC day on which a round finished. It counts every server listed in the registry at the end of that day's first round, each by its latest stored result, so every group of counts adds up to `registry`. A day without a round has no row. Rows are never deleted. Rows with `source` `backfill` were rebuilt afterwards from the probes still stored (kept 30 days): they have no transports and no refusal shapes, and `uncertain` counts servers whose latest stored probe was older than that.",
  column: "Column",
  meaning: "Meaning",
  columns: [
    ["day", "The UTC day, YYYY-MM-DD."],
    ["source", "round (written after that day's first round) or backfill (rebuilt later)."],
    ["as_of", "The moment the counts describe: the end of the day's first round."],
    ["registry", "Servers listed in the registry then."],
    ["probed", "Of those, servers probed at least once."],
    ["uncertain", "Rebuilt days only: servers counted by a probe older than the run retention."],
    ["needs_configuration", "Servers Not checked because every listed remote needs the user's own values."],
    ["era:<era>", "modern (server/discover), legacy (initialize or HTTP+SSE), unknown (no handshake completed), none (never probed)."],
    [
      "transport:<transport>",
      "streamable-http or sse: the transport of the remote the probe uses, for servers with one (not those that need configuration). Empty on rebuilt days.",
    ],
    [
      "auth:<outcome>",
      "open (the handshake completed without a credential), gate_usable_metadata (a credential gate stopped the handshake or the tool list and auth_metadata is Verified), gate_no_usable_metadata (a gate, and auth_metadata is not Verified), not_reached (failed, slowed down, opted out, needs configuration, never probed), unknown (a result that does not say).",
    ],
    [
      "overall:<state>",
      "verified, failed, observed_risk, not_checked, none (never probed), unknown (a rebuilt day's run stored before overall states were).",
    ],
    [
      "not_checked:<cause>",
      "Servers whose overall state is Not checked, by its cause: credential_required, slow_down, opted_out, needs_configuration, …",
    ],
    [
      "refusal:<code>",
      "The refusal code of error_taxonomy, for servers with that result (uncoded: stored before codes were). Empty on rebuilt days.",
    ],
    ["revision:<revision>", "Servers with which that protocol revision was agreed; a column for every revision seen."],
    [
      "observation:<code>",
      "Servers whose latest complete read carries that observation code; no such column until observations are recorded.",
    ],
  ] as ColumnMeaning[],
  /** Today's columns, then the JSON groups; [before the list, before the OpenAPI link, the link, after]. */
  todaysColumns: [
    "Today's columns: ",
    ". In census.json the groups are objects (`eras`, `transports`, `auth`, `overall`, `notCheckedCauses`, `refusals`, `revisions`, `observations`), null where the CSV has empty cells; the schema is `CensusAnswer` in ",
    "the OpenAPI document",
    ".",
  ] as [string, string, string, string],
  serversH: "servers-YYYY-MM-DD.jsonl.gz",
  /** [before the OpenAPI link, the link, after]. */
  servers: [
    "Every server listed in the registry when the file was written, ordered by name, one JSON object per line (the `OpenDataServer` schema of ",
    "the OpenAPI document",
    "):",
  ] as [string, string, string],
  fields: [
    "`name`, `remoteUrl` (the remote the probe reads), `transport`, `era`, `protocolVersion` (the agreed revision);",
    /** [before the rule-changes link, the link, after]. */
    [
      "`checks`: for each of `handshake`, `protocol_version`, `tools_list`, `error_taxonomy`, `auth_metadata`, its `state` and the `suiteVersion` that decided it (",
      "rule changes",
      ");",
    ],
    "`overall` and `overallCause`; `uptime30d` (`ratio`, `up`, `reached` over 30 whole UTC days); `lastProbedAt` and `lastSuccessAt` (the last complete read).",
  ] as [string, [string, string, string], string],
  /** [before the census link, the link, after]. */
  charts: ["The charts drawn from these rows are on ", "the census page", "."],
};

export const DATA_TEXT: Record<Lang, typeof DATA_EN> = {
  en: DATA_EN,
  zh: {
    title: "开放数据",
    description: (licence: string) =>
      `远程 MCP 服务端的每日全站统计，以及每个服务端每天的状态，提供 CSV、JSON 和 JSON Lines 格式，采用 ${licence} 许可。`,
    lede: (keepDays: number) =>
      `本站测得的数据，可下载研究：自全站统计开始以来每个 UTC 日一行计数，以及最近 ${keepDays} 天里每个服务端每天的状态。以文件形式提供；下载时不做任何计算。`,
    licence: [
      "许可：",
      "（",
      "）。可用于任何用途，但请注明出处：「mcp-status census」，并链接到本页。其中的服务端名称、URL 和描述来自 MCP 注册表。",
    ],
    downloads: "下载",
    file: "文件",
    what: "内容",
    censusCsv: (days: number) => `每日的行，每项计数一列（共 ${counted(days, WORDS.day, "zh")}）。`,
    censusJson: "同样的行，JSON 格式：`{license, days: [CensusDay]}`。",
    dayFile: (day: string, size: string) => `${day} 列出的每个服务端，每行一个 JSON 对象，gzip 压缩（${size}）。`,
    size: (bytes: number) => (bytes < 1024 ? `${bytes} 字节` : `${formatCount(Math.round(bytes / 1024))} KB`),
    noDayFile: "还没有每日服务端文件：第一个文件在某个 UTC 日的第一轮探测结束后写入。",
    dayFiles: (keepDays: number) =>
      `每日文件每天写一次，在当天第一轮探测之后，保留 ${keepDays} 天；不存在的日期回应 404，日期不合法的文件名回应 400。这些文件带 \`ETag\`，并支持按字节范围请求，因此下载可以断点续传：`,
    censusH: "census.csv 和 census.json",
    census:
      "每个完成过一轮探测的 UTC 日一行。它统计当天第一轮探测结束时注册表中列出的每个服务端，各按最近一次保存的结果计，所以每组计数加起来都等于 `registry`。没有探测轮次的日子没有这一行。行从不删除。`source` 为 `backfill` 的行是事后根据仍保存着的探测（保留 30 天）重建的：它们没有传输方式和拒绝方式，`uncertain` 统计最近一次保存的探测早于保留期的服务端。",
    column: "列",
    meaning: "含义",
    columns: [
      ["day", "UTC 日期，YYYY-MM-DD。"],
      ["source", "round（当天第一轮探测之后写入）或 backfill（事后重建）。"],
      ["as_of", "计数所描述的时刻：当天第一轮探测结束时。"],
      ["registry", "当时注册表中列出的服务端数。"],
      ["probed", "其中至少探测过一次的服务端数。"],
      ["uncertain", "仅重建的日子：按早于运行记录保留期的探测计入的服务端数。"],
      ["needs_configuration", `因每个列出的远程地址都需要用户自己的值而${STATE_LABELS.zh.not_checked}的服务端数。`],
      ["era:<era>", "modern（server/discover）、legacy（initialize 或 HTTP+SSE）、unknown（没有完成握手）、none（从未探测）。"],
      [
        "transport:<transport>",
        "streamable-http 或 sse：探测器所用远程地址的传输方式，仅统计有这样地址的服务端（不含需要配置的）。重建的日子为空。",
      ],
      [
        "auth:<outcome>",
        `open（不带凭据完成了握手）、gate_usable_metadata（凭据拦截挡住了握手或工具列表，且 auth_metadata 为${STATE_LABELS.zh.verified}）、gate_no_usable_metadata（有凭据拦截，且 auth_metadata 不是${STATE_LABELS.zh.verified}）、not_reached（未通过、被要求放慢、已退出探测、需要配置、从未探测）、unknown（结果说明不了）。`,
      ],
      [
        "overall:<state>",
        "verified、failed、observed_risk、not_checked、none（从未探测）、unknown（重建日子里在保存总体状态之前存下的运行）。",
      ],
      [
        "not_checked:<cause>",
        `总体状态为${STATE_LABELS.zh.not_checked}的服务端，按原因计：credential_required、slow_down、opted_out、needs_configuration……`,
      ],
      ["refusal:<code>", "error_taxonomy 的拒绝代码，仅统计有该结果的服务端（uncoded：在有代码之前保存的）。重建的日子为空。"],
      ["revision:<revision>", "与之商定了该协议版本的服务端数；出现过的每个版本各一列。"],
      ["observation:<code>", "最近一次完整读取带有该观察代码的服务端数；在记录到观察之前没有这样的列。"],
    ],
    todaysColumns: [
      "今天的列：",
      "。在 census.json 中，各组是对象（`eras`、`transports`、`auth`、`overall`、`notCheckedCauses`、`refusals`、`revisions`、`observations`），CSV 中为空的单元格在这里是 null；其结构是",
      "OpenAPI 文档",
      "中的 `CensusAnswer`。",
    ],
    serversH: "servers-YYYY-MM-DD.jsonl.gz",
    servers: ["写入文件时注册表中列出的每个服务端，按名称排序，每行一个 JSON 对象（", "OpenAPI 文档", "中的 `OpenDataServer` 结构）："],
    fields: [
      "`name`、`remoteUrl`（探测器读取的远程地址）、`transport`、`era`、`protocolVersion`（商定的协议版本）；",
      [
        "`checks`：`handshake`、`protocol_version`、`tools_list`、`error_taxonomy`、`auth_metadata` 各自的 `state`，以及判定它的 `suiteVersion`（",
        "规则变更",
        "）；",
      ],
      "`overall` 和 `overallCause`；`uptime30d`（30 个完整 UTC 日内的 `ratio`、`up`、`reached`）；`lastProbedAt` 和 `lastSuccessAt`（最近一次完整读取）。",
    ],
    charts: ["根据这些行绘制的图表在", "全站统计页面", "上。"],
  },
};

const RUN_EN = {
  noSuchRun: "No such run",
  title: (id: number, server: string) => `Run ${id} of ${server}`,
  description: (server: string) => `One probe of ${server}: its timings, requests and, while kept, every exchange.`,
  crumb: (id: number) => ` / run ${id}`,
  h1: (server: string, at: string) => `Probe of ${server} at ${at}`,
  started: "Started",
  took: (duration: string) => `, took ${duration}`,
  era: "Era · revision",
  requests: "Requests",
  requestsSent: (sent: number, ok: number, read: boolean) =>
    `${sent} sent, ${ok} answered 2xx${read ? "; the tool list was read completely" : ""}`,
  handshakeTime: "Handshake time",
  toolsListTime: "Tool-list time",
  notMeasured: "not measured (no answer)",
  suiteVersion: "Suite version",
  exchanges: "Exchanges",
  nothingSent: "Nothing was sent in this run.",
  notKept: "The exchanges of this run were not kept (only the latest run and runs that changed a state keep theirs).",
  /** Said once above the exchanges on a Chinese page: they are the wire's own words. */
  exchangesAsRecorded: "",
};

export const RUN_TEXT: Record<Lang, typeof RUN_EN> = {
  en: RUN_EN,
  zh: {
    noSuchRun: "没有这次探测",
    title: (id: number, server: string) => `${server} 的探测记录 ${id}`,
    description: (server: string) => `对 ${server} 的一次探测：耗时、请求，以及（保留期内的）每次交互。`,
    crumb: (id: number) => ` / 探测记录 ${id}`,
    h1: (server: string, at: string) => `${at} 对 ${server} 的探测`,
    started: "开始时间",
    took: (duration: string) => `，耗时 ${duration}`,
    era: "握手方式 · 协议版本",
    requests: "请求",
    requestsSent: (sent: number, ok: number, read: boolean) =>
      `发出 ${sent} 次，${ok} 次得到 2xx 应答${read ? "；完整读取了工具列表" : ""}`,
    handshakeTime: "握手耗时",
    toolsListTime: "工具列表耗时",
    notMeasured: "未测得（没有应答）",
    suiteVersion: "套件版本",
    exchanges: "HTTP 交互",
    nothingSent: "这次探测没有发出任何请求。",
    notKept: "这次探测的交互没有保留（只有最近一次探测和改变了状态的探测会保留）。",
    exchangesAsRecorded: "下面是原样记录的请求和应答。",
  },
};
