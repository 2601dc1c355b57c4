// The words of the list pages (the index, changes, incidents, coverage, data, a run) in both languages. Stored text
// (reasons, tool descriptions, server names) is never translated: only our own words are here. The Chinese uses the
// FAQ's terms (lib/site/faq/zh.ts) and the state names of labels.ts; Chinese counts need no plural.
import { OBSERVATION_CODES, type CheckId, type CheckState } from "../vocabulary/checks";
import type { InitializeFirstState } from "../vocabulary/clients";
import type { AlertKind, CrossReadExplanation, CrossReadOutcome, ServerSort, SortOrder, ToolChangeKind } from "../vocabulary/store";
import { MODERN_REVISION } from "../probe/protocol";
import { explanationClause } from "./cross-read";
import { formatCount } from "./format";
import { ALERT_KIND_LABELS, CHECK_LABELS, CROSS_READ_LABELS, SORT_LABELS, SORT_ORDER_WORDS, STATE_LABELS, type Lang } from "./labels";
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

const ZH_ALERT_KIND_LABELS: Record<AlertKind, string> = {
  coverage_drop: "覆盖数下降",
  rounds_stale: "探测轮次停滞",
  cross_read: "交叉读取器结果不一致",
  probe_network: "探测器自身的网络故障",
  region_down: "某个探测地区停摆",
  database_unwritable: "数据库无法写入",
  notifications_failing: "通知发送滞后",
};

const ZH_CROSS_READ_LABELS: Record<CrossReadOutcome, string> = {
  agreed: "一致",
  disagreed: "不一致",
  only_probe: "只有探测器读到",
  only_cross_reader: "只有交叉读取器读到",
  neither: "双方都没读到",
};

/** explanationClause (lib/site/cross-read.ts) in Chinese, from the same codes. */
function zhExplanationClause(rule: CrossReadExplanation, code: number | null): string {
  switch (rule) {
    case "modern_declined":
      return `新版客户端在这里会失败，因为 server/discover 被拒绝${code !== null ? `（${code}）` : ""}`;
    case "discover_server_error":
      return `新版客户端在这里会失败，因为 server/discover 回应了 ${code !== null ? `HTTP ${code}` : "5xx"}`;
    case "discover_redirect":
      return `新版客户端在这里会停下，因为 server/discover 回应了 ${code !== null ? `HTTP ${code}` : "重定向"}，而探测器不跟随重定向`;
    case "newer_revisions_only":
      return `${MODERN_REVISION} 的客户端在这里会失败，因为 server/discover 只提供了更新的协议版本`;
    case "slow_down":
      return "服务端要求放慢，所以探测器没有读取它";
    case "opted_out":
      return "它的主机要求不被探测，所以探测器不向它发送任何请求";
    case "initialize_refused":
      return `先发 initialize 的客户端连不上这里：服务端对 initialize 回应了 ${code !== null ? (code < 0 ? code : `HTTP ${code}`) : "拒绝"}`;
  }
}

const EXPLAINED_BLIND = {
  en: { one: "# server read only by the cross-reader is explained", other: "# servers read only by the cross-reader are explained" },
  zh: { other: "另有 # 个只有交叉读取器读到的服务端可由探测器规则解释" },
} as const;

const COVERAGE_EN = {
  title: "Coverage",
  description:
    "How many remote MCP servers were read completely each day, the operated alerts, and the independent cross-reader's outcomes.",
  feedTitle: "Alerts",
  lede: "How many different servers we read completely each UTC day: the whole tool list, to its end (malformed definitions count, pages that never end do not). This is the number we watch: when it drops, servers have gone unread, whatever the success rate says. ",
  whyLink: "Why coverage and not success rate",
  between: "; ",
  splitLink: "how the latest probes split",
  end: ".",
  alertsH: "Alerts",
  alertsIntro: (seconds: number) =>
    `Alerts open and resolve by themselves, judged every ${seconds} s: coverage clearly below its recent level, rounds that stopped finishing, a cross-reader that disagrees with the probe, a probing region that is down, the probe's own network failing (`,
  ownNetworkLink: "how we tell it from a server's outage",
  alertsIntroAfter: "), and a database that cannot be written. ",
  alertsFeed: "Atom feed of alerts",
  dot: " · ",
  statusJson: "status JSON for monitors",
  statusJsonAfter: " (HTTP 503 while an alert is open).",
  alertKinds: ALERT_KIND_LABELS,
  openSince: (kind: string, at: string) => `${kind}: open since ${at}`,
  /** Around the relative time after the strong line: " (3 h ago). " */
  ago: (relative: string) => ` (${relative}). `,
  coverageDrop: (value: string, baseline: string) => ` Read ${value} against a recent level of ${baseline}.`,
  databaseUnwritable:
    " Pages answer from what is stored; rounds start no probes until writes work again. Free space on the database's volume, or check it for I/O errors or a read-only mount.",
  noAlert: "No open alert.",
  noAlertAfter:
    " Rounds are finishing, coverage is at its recent level, the cross-reader agrees with the probe, the probe's own network works and the database takes writes.",
  resolvedCaption: "Recently resolved alerts",
  alert: "Alert",
  opened: "Opened",
  resolved: "Resolved",
  whatHappened: "What happened",
  after: (duration: string) => `after ${duration}`,
  covH: "Servers read per day",
  inRegistry: (n: number) => `${formatCount(n)} servers are in the registry now`,
  readOn: (day: string, read: number, tried: number) =>
    `; on ${day} we read the whole tool list of ${formatCount(read)} of the ${formatCount(tried)} we tried`,
  noCoverage: "No coverage recorded yet: no round has run.",
  figcaption: "Distinct servers whose tool list was read to its end, per UTC day",
  chartTitle: "Distinct servers read per day",
  chartDesc: (n: number, from: string | undefined, to: string | undefined) =>
    `Bar chart of ${n} days from ${from} to ${to}; the same numbers are in the table below.`,
  successH: "Request success rate",
  notCoverage: "This is not coverage.",
  notCoverageAfter:
    " It counts requests we made, and servers that keep failing are retried less often, so this rate can rise while fewer servers are read. Judge the probe by the bars, not by this number.",
  lastDays: (days: number, pct: string, total: number) => `Last ${days} days: ${pct} of ${formatCount(total)} requests answered usefully`,
  onDay: (pct: string, day: string) => `; ${pct} on ${day}`,
  tableCaption: "Coverage per day (text version of the chart)",
  dayHead: "Day (UTC)",
  day: "Day",
  serversRead: "Servers read",
  serversTried: "Servers tried",
  requests: "Requests",
  successHead: "Request success (not coverage)",
  success: "Request success",
  belowRecent: "▲ below recent level",
  failingH: "Failing longest",
  failingIntro:
    "Servers whose discovery currently fails or looks risky, longest without a complete read first. They stay here until their tool list is read without a problem again or they leave the registry.",
  noFailing: "No server is currently failing discovery.",
  server: "Server",
  lastRead: "Last complete read",
  handshake: CHECK_LABELS.en.handshake,
  toolList: CHECK_LABELS.en.tools_list,
  failedInARow: "Failed probes in a row",
  never: (since: string) => `never (known since ${since})`,
  crossH: "Cross-reader",
  crossNotRun: [
    "Once a day, after the first round that finishes, a second reader built on the official MCP SDK client reads a fixed sample of the registry's servers, starting with the older ",
    " handshake, and its tool lists are compared with ours. It has not run yet.",
  ],
  crossIntro: (n: number, day: string) => [
    "A second reader, built on the official MCP SDK client and always starting with the older ",
    ` handshake, read a fixed sample of ${formatCount(n)} registry servers on ${day}. Each tool list is compared field by field with our probe's latest complete read. `,
  ],
  crossJson: "The same outcomes as JSON",
  crossEnd: ".",
  blind: (n: number) => `${counted(n, WORDS.server)} read only by the cross-reader, for no reason the probe's rules give.`,
  blindSome: " The second reader got a tool list where our probe could not: each one is a possible blind spot of the probe.",
  blindNone: " Everything the second reader could read, our probe read too, or its rules say why not.",
  explainedBlind: (n: number) => `${counted(n, EXPLAINED_BLIND)} by the probe's own rules (`,
  explainedLink: "explained differences",
  explainedAfter: "): a fact about the server, shown on its page and not counted by the alert.",
  unexplained: (disagreeing: number, compared: number, pct: string, rate: number, min: number) =>
    `Unexplained differences: ${formatCount(disagreeing)} of ${formatCount(compared)} servers that either side read (${pct}); an alert opens above ${rate}% with at least ${min} servers.`,
  outcomesOn: (day: string) => `Outcomes on ${day}`,
  outcome: "Outcome",
  servers: "Servers",
  outcomes: CROSS_READ_LABELS,
  everySampled: (n: number) => `Every sampled server, one row each (${formatCount(n)}), possible blind spots first`,
  everySampledCaption: "Every sampled server, possible blind spots first (unexplained before explained)",
  explained: "Explained",
  differingPaths: "Differing field paths",
  toolsHead: "Tools (probe / cross-reader)",
  tools: "Tools",
  explanation: explanationClause,
  yes: (clause: string) => `yes: ${clause}`,
  no: "no",
  pathSep: ", ",
  morePaths: (n: number) => ` and ${n} more`,
  regionsH: "Regions",
  regionsIntro:
    "Each region probes from its own network; one whose own share of failing hosts trips, or that stops answering, is down: it gets no primaries and its failures count for nothing (",
  regionsLink: "how regions vote",
  regionsAfter: ").",
  regionsCaption: "Probing regions",
  region: "Region",
  state: "State",
  lastAnswer: "Last answer",
  hostsFailing: "Hosts failing at the network level",
  up: "up",
  downHosts: (failed: number, hosts: number) => `down: ${failed} of its latest ${hosts} hosts failed at the network level`,
  downSince: (at: string) => `down: it answered no probe since ${at}`,
  noneYet: "none yet",
  noAnswerYet: "no answer yet",
  hostShare: (pct: number, tried: number) => `${pct}% of its latest hosts (${formatCount(tried)} tried)`,
};

export const COVERAGE_TEXT: Record<Lang, typeof COVERAGE_EN> = {
  en: COVERAGE_EN,
  zh: {
    title: "覆盖数",
    description: "每天完整读取了多少个远程 MCP 服务端、运维告警，以及独立交叉读取器的结果。",
    feedTitle: "告警",
    lede: "每个 UTC 日我们完整读取了多少个不同的服务端：整个工具列表，一直读到最后（有缺陷的定义也算，永远翻不完的分页不算）。这是我们盯着的数字：它下降时，就有服务端没被读到，不管成功率怎么说。",
    whyLink: "为什么看覆盖数而不是成功率",
    between: "；",
    splitLink: "最近一次探测结果的分布",
    end: "。",
    alertsH: "告警",
    alertsIntro: (seconds: number) =>
      `告警自行开启和解除，每 ${seconds} 秒判断一次：覆盖数明显低于近期水平、探测轮次不再结束、交叉读取器与探测器不一致、某个探测地区停摆、探测器自身的网络出故障（`,
    ownNetworkLink: "我们如何把它和服务端的中断区分开",
    alertsIntroAfter: "），以及数据库无法写入。",
    alertsFeed: "告警的 Atom 订阅源",
    dot: " · ",
    statusJson: "供监控使用的状态 JSON",
    statusJsonAfter: "（有告警未解除时返回 HTTP 503）。",
    alertKinds: ZH_ALERT_KIND_LABELS,
    openSince: (kind: string, at: string) => `${kind}：自 ${at} 起未解除`,
    ago: (relative: string) => `（${relative}）。`,
    coverageDrop: (value: string, baseline: string) => `读取了 ${value} 个，近期水平为 ${baseline} 个。`,
    databaseUnwritable:
      "页面按已保存的数据回应；在写入恢复之前，探测轮次不会发起探测。请清理数据库所在卷的空间，或检查是否有 I/O 错误、是否被挂载为只读。",
    noAlert: "没有未解除的告警。",
    noAlertAfter: "探测轮次正常结束，覆盖数处于近期水平，交叉读取器与探测器一致，探测器自身的网络正常，数据库可以写入。",
    resolvedCaption: "最近解除的告警",
    alert: "告警",
    opened: "开启",
    resolved: "解除",
    whatHappened: "发生了什么",
    after: (duration: string) => `持续 ${duration}`,
    covH: "每天读取的服务端",
    inRegistry: (n: number) => `注册表中现有 ${formatCount(n)} 个服务端`,
    readOn: (day: string, read: number, tried: number) =>
      `；${day} 我们尝试了 ${formatCount(tried)} 个，完整读取了其中 ${formatCount(read)} 个的工具列表`,
    noCoverage: "尚未记录覆盖数：还没有运行过探测轮次。",
    figcaption: "每个 UTC 日工具列表被读到最后的不同服务端个数",
    chartTitle: "每天读取的不同服务端个数",
    chartDesc: (n: number, from: string | undefined, to: string | undefined) =>
      `柱状图，共 ${n} 天，从 ${from} 到 ${to}；下表给出同样的数字。`,
    successH: "请求成功率",
    notCoverage: "这不是覆盖数。",
    notCoverageAfter:
      "它统计的是我们发出的请求，而一直失败的服务端重试得更少，所以读到的服务端变少时，这个比例反而可能上升。评判探测器请看柱状图，不要看这个数字。",
    lastDays: (days: number, pct: string, total: number) => `最近 ${days} 天：${formatCount(total)} 次请求中 ${pct} 得到有用的应答`,
    onDay: (pct: string, day: string) => `；${day} 为 ${pct}`,
    tableCaption: "每日覆盖数（图表的文字版）",
    dayHead: "日期（UTC）",
    day: "日期",
    serversRead: "读取的服务端",
    serversTried: "尝试的服务端",
    requests: "请求数",
    successHead: "请求成功率（不是覆盖数）",
    success: "请求成功率",
    belowRecent: "▲ 低于近期水平",
    failingH: "失败最久的服务端",
    failingIntro:
      "发现类检查当前失败或看起来有风险的服务端，距上次完整读取最久的在前。它们会一直留在这里，直到工具列表再次被顺利读取，或者离开注册表。",
    noFailing: "当前没有发现类检查失败的服务端。",
    server: "服务端",
    lastRead: "上次完整读取",
    handshake: CHECK_LABELS.zh.handshake,
    toolList: CHECK_LABELS.zh.tools_list,
    failedInARow: "连续失败的探测次数",
    never: (since: string) => `从未（自 ${since} 起已知）`,
    crossH: "交叉读取器",
    crossNotRun: [
      "每天在第一轮探测结束后，一个基于官方 MCP SDK 客户端的第二读取器会读取注册表中固定的一组样本服务端，从较旧的 ",
      " 握手开始，并把它读到的工具列表与我们的对比。它还没有运行过。",
    ],
    crossIntro: (n: number, day: string) => [
      "一个基于官方 MCP SDK 客户端、总是从较旧的 ",
      ` 握手开始的第二读取器，于 ${day} 读取了固定样本中的 ${formatCount(n)} 个注册表服务端。每个工具列表都与我们探测器最近一次完整读取逐字段对比。`,
    ],
    crossJson: "同样的结果（JSON）",
    crossEnd: "。",
    blind: (n: number) => `${counted(n, WORDS.server, "zh")}只有交叉读取器读到，且探测器的规则给不出原因。`,
    blindSome: "第二读取器读到了工具列表，而我们的探测器没有读到：每一个都可能是探测器的盲区。",
    blindNone: "第二读取器能读到的，我们的探测器也都读到了，或者探测器的规则说明了为什么没有。",
    explainedBlind: (n: number) => `${counted(n, EXPLAINED_BLIND, "zh")}（`,
    explainedLink: "有解释的差异",
    explainedAfter: "）：这是关于服务端的事实，显示在它的页面上，不计入告警。",
    unexplained: (disagreeing: number, compared: number, pct: string, rate: number, min: number) =>
      `无解释的差异：任一方读到的 ${formatCount(compared)} 个服务端中有 ${formatCount(disagreeing)} 个（${pct}）；比例超过 ${rate}% 且至少 ${min} 个服务端时开启告警。`,
    outcomesOn: (day: string) => `${day} 的结果`,
    outcome: "结果",
    servers: "服务端数",
    outcomes: ZH_CROSS_READ_LABELS,
    everySampled: (n: number) => `全部样本服务端，每个一行（${formatCount(n)} 个），可能的盲区在前`,
    everySampledCaption: "全部样本服务端，可能的盲区在前（无解释的在有解释的之前）",
    explained: "有无解释",
    differingPaths: "不同的字段路径",
    toolsHead: "工具数（探测器 / 交叉读取器）",
    tools: "工具数",
    explanation: zhExplanationClause,
    yes: (clause: string) => `有：${clause}`,
    no: "无",
    pathSep: "、",
    morePaths: (n: number) => `等，另有 ${n} 个`,
    regionsH: "探测地区",
    regionsIntro:
      "每个地区都从自己的网络探测；自身失败主机的比例超限、或不再回应的地区视为停摆：不再分配主地区任务，它的失败也不计入表决（",
    regionsLink: "各地区如何表决",
    regionsAfter: "）。",
    regionsCaption: "探测地区",
    region: "地区",
    state: "状态",
    lastAnswer: "上次回应",
    hostsFailing: "在网络层面失败的主机",
    up: "正常",
    downHosts: (failed: number, hosts: number) => `停摆：最近的 ${hosts} 个主机中有 ${failed} 个在网络层面失败`,
    downSince: (at: string) => `停摆：自 ${at} 起没有回应任何探测`,
    noneYet: "尚无",
    noAnswerYet: "尚无回应",
    hostShare: (pct: number, tried: number) => `最近主机中的 ${pct}%（尝试了 ${formatCount(tried)} 个）`,
  },
};

const LATENCY_EN = {
  caption: "Response time, median / 95th percentile (probes measured)",
  step: "Step",
  last24h: "Last 24 hours",
  last30d: "Last 30 days",
  handshake: CHECK_LABELS.en.handshake,
  toolList: CHECK_LABELS.en.tools_list,
  noMeasurement: "no measurement",
  noneMeasured: "No response time was measured in the last 30 days.",
  oneDay: "Response times were measured on one day only; the chart of daily medians starts once there are two.",
  chartTitle: "Daily median response time, last 30 days",
  chartDesc: (measured: number, max: string) =>
    `Handshake and tool-list medians per UTC day on ${measured} of 30 days, up to ${max} ms; the table above gives the figures.`,
  note: "A step's time is the sum of its HTTP exchanges (the probe sends one request at a time): discover or initialize for the handshake, every page for the tool list. Steps that got no answer are left out.",
};

/** The server page's response-time table and chart (app/_components/LatencyChart.tsx). */
export const LATENCY_TEXT: Record<Lang, typeof LATENCY_EN> = {
  en: LATENCY_EN,
  zh: {
    caption: "响应时间，中位数 / 第 95 百分位（测得的探测次数）",
    step: "步骤",
    last24h: "最近 24 小时",
    last30d: "最近 30 天",
    handshake: CHECK_LABELS.zh.handshake,
    toolList: CHECK_LABELS.zh.tools_list,
    noMeasurement: "没有测量",
    noneMeasured: "最近 30 天没有测得响应时间。",
    oneDay: "只在一天里测得了响应时间；有两天的数据后才会画出每日中位数图表。",
    chartTitle: "每日响应时间中位数，最近 30 天",
    chartDesc: (measured: number, max: string) =>
      `30 天中有 ${measured} 天的每个 UTC 日握手和工具列表中位数，最高 ${max} 毫秒；具体数字见上表。`,
    note: "一个步骤的时间是它所有 HTTP 交互的总和（探测器一次只发一个请求）：握手是 discover 或 initialize，工具列表是每一页。没有得到应答的步骤不计入。",
  },
};
