// The words of the server page (/servers/<name>, /zh/servers/<name>) in both languages. Stored text (check reasons,
// evidence, the registry's and owner's words) is never translated: the page shows it as recorded, marked lang="en"; hints
// and observations are worded from their stored codes and facts (hint-text.ts). The Chinese uses the FAQ's terms (faq/zh.ts).
import type { CrossReadRow } from "../store/cross-reads";
import type { CrossReadExplanation } from "../vocabulary/store";
import { MODERN_REVISION } from "../probe/protocol";
import type { NetworkErrorKind } from "../vocabulary/network";
import type { FailureFacts, RegionalNote } from "../vocabulary/regions";
import { crossReadSentence } from "./cross-read";
import { regionalNoteSentence } from "./regions";
import type { Lang } from "./labels";
import { counted, WORDS } from "./plural";

const SERVER_EN = {
  // The page's outline.
  contentsLabel: "On this page",
  contentsLead: "On this page:",
  contents: {
    facts: "Facts",
    history: "History",
    responseTime: "Response time",
    incidents: "Incidents",
    tools: "Tools",
    toolChanges: "Tool changes",
    evidence: "Evidence",
    checks: "Checks in detail",
    links: "Link to this report",
  },
  renderNote: "it is rendered again when a probe of this server is recorded.",

  // The header.
  allServers: "All servers",
  registryName: " / registry name ",
  /** [strong, before the time, after the time] */
  leftNotice: ["This server left the registry", " on ", ". It is no longer probed; the page keeps its last results and history."],
  /** The opt-out notice: [before the host, after the host ( source, since ], then the reason, then the end. */
  optOutHost: "The host ",
  optOutAsked: " asked not to be probed (",
  optOutSource: { robots: "robots.txt", operator: "operator list" } as Record<"robots" | "operator", string>,
  optOutSince: ", since ",
  optOutReason: "): ",
  optOutEnd: ". No request is sent to it. ",
  optOutLink: "About opting out",
  needsConfig: "The registry entry needs configuration before a client can use it: ",
  needsConfigEnd: ".",
  reachLink: "Why a missing key never makes a server Failed",

  // At a glance.
  glanceH: "At a glance",
  overall: "Overall",
  notProbed: "Not probed yet: the checks appear after the server's first probe.",
  verifiedWhy: "The handshake completed and the whole tool list was read.",
  decidedBy: "Decided by ",
  decidedByAfter: "",
  reasonSep: ": ",
  noReason: ".",
  sameReason: (names: string[]) =>
    ` The same reason holds for ${names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`}.`,
  glanceCaption: "The five checks: state, reason and where the FAQ says what to do",
  colCheck: "Check",
  colState: "State",
  colWhy: "Why",
  colFaq: "FAQ",
  notEvaluated: "Not evaluated yet.",
  howJudged: "How it is judged",
  whatToDo: "What to do",
  /** Under the checks on /zh only: stored reasons and evidence are shown as recorded. */
  recordedInEnglish: null as string | null,
  secondReader: "Second reader:",
  aboutCrossReader: "About the cross-reader",
  whatToChange: "What to change:",
  aboutHints: "About hints",
  /** The observations line: count, then [after the count, before the link], and the link. */
  observationsAfter: " on the tool definitions (facts, not verdicts): ",
  observationsEnd: ". ",
  observationsLink: "See them beside their tools",
  listSep: ", ",

  // Checks in detail.
  checksH: "Checks in detail, and their history",
  /** [before the anchor code, after it, link text, end] */
  checksSub: [
    "Each check links to itself (",
    ") and to the exchanges it cites in the evidence above. States are observations of one anonymous probe, not a certification; ",
    "how refusals are recorded",
    ".",
  ],
  currentSuite: (v: string) => ` (current suite is ${v}; see the `,
  ruleChanges: "rule changes",
  currentSuiteEnd: ")",
  noExchange: "This verdict rests on no HTTP exchange (nothing was sent, or the reason says why).",
  notKept: "The exchanges behind this verdict were not kept.",
  evidenceLead: "Evidence:",
  exchangeN: (n: number) => `exchange #${n}`,
  noTransitions: "No state changes recorded.",
  colWhen: "When",
  colFrom: "From",
  colTo: "To",
  colReason: "Reason",
  colSuite: "Suite",
  firstResult: "first result",
  decided: "Decided",
  inStateSince: "In this state since",
  suiteVersion: "Suite version",
  notEvaluatedCard: "Not evaluated yet: this server has not been probed.",
  historyH: "History",
  stateChanges: (n: number) => `${n} ${n === 1 ? "state change" : "state changes"}`,

  // Facts.
  dtRemote: "Remote URL",
  dtTransport: "Transport",
  dtRegistry: "Registry status",
  dtEra: "Era · revision",
  dtLastProbed: "Last probed",
  dtLastRead: "Last complete read",
  dtNextProbe: "Next probe",
  noneListed: "none listed",
  active: "active",
  leftSince: (since: string) => `left the registry ${since}`,
  left: "left the registry",
  withdrawn: (status: "deprecated" | "deleted", since: string | null) =>
    `${status} by its owner${since ? `, not probed since ${since}` : ""}`,
  version: (v: string) => ` · version ${v}`,
  ownerWrote: " · its owner wrote: ",
  probedWith: (requests: string, duration: string) => `, ${requests} in ${duration}`,
  noRequestSent: (kind: string | null) => `no request sent${kind ? ` (${kind})` : ""}; last judged `,
  notYet: "not yet",
  neverRead: "never: the tool list has not been read to its end yet",
  nextNone: "none (left the registry)",
  nextWithRound: "with the next round",
  scheduleSep: ": ",
  failuresSep: " · ",
};

type ServerText = typeof SERVER_EN;

const SERVER_ZH: ServerText = {
  contentsLabel: "本页内容",
  contentsLead: "本页内容：",
  contents: {
    facts: "概况",
    history: "历史",
    responseTime: "响应时间",
    incidents: "故障记录",
    tools: "工具",
    toolChanges: "工具变更",
    evidence: "证据",
    checks: "检查详情",
    links: "链接到本报告",
  },
  renderNote: "记录到这个服务端的新一次探测时会重新生成。",

  allServers: "全部服务端",
  registryName: " / 注册表名称 ",
  leftNotice: ["这个服务端已离开注册表", "，时间是 ", "。它不再被探测；本页保留它最后的结果和历史。"],
  optOutHost: "主机 ",
  optOutAsked: " 要求不被探测（",
  optOutSource: { robots: "robots.txt", operator: "运营方名单" },
  optOutSince: "，自 ",
  optOutReason: " 起）：",
  optOutEnd: "。不会向它发送任何请求。",
  optOutLink: "关于退出探测",
  needsConfig: "这个注册表条目需要先配置，客户端才能使用：",
  needsConfigEnd: "。",
  reachLink: "为什么缺少密钥永远不会让服务端记为未通过",

  glanceH: "概览",
  overall: "总体",
  notProbed: "尚未探测：服务端第一次被探测之后，这里才会显示检查结果。",
  verifiedWhy: "握手已完成，完整的工具列表已读取。",
  decidedBy: "由",
  decidedByAfter: "决定",
  reasonSep: "：",
  noReason: "。",
  sameReason: (names: string[]) => `${names.join("、")}也是同一原因。`,
  glanceCaption: "五项检查：状态、原因，以及常见问题里说明该怎么做的地方",
  colCheck: "检查",
  colState: "状态",
  colWhy: "原因",
  colFaq: "常见问题",
  notEvaluated: "尚未评估。",
  howJudged: "如何判定",
  whatToDo: "该怎么做",
  recordedInEnglish: "检查的原因和证据按记录原样显示，为英文。",
  secondReader: "第二读取器：",
  aboutCrossReader: "关于交叉读取器",
  whatToChange: "该改什么：",
  aboutHints: "关于提示",
  observationsAfter: "，都在工具定义上（是事实，不是结论）：",
  observationsEnd: "。",
  observationsLink: "在各工具旁查看",
  listSep: "、",

  checksH: "各项检查的详情及其历史",
  checksSub: [
    "每项检查都能直接链接（",
    "），并链接到它在上方证据中引用的请求交换。状态是一个匿名探测器观察到的结果，不是认证；",
    "拒绝是如何记录的",
    "。",
  ],
  currentSuite: (v: string) => `（当前套件是 ${v}；见`,
  ruleChanges: "规则变更记录",
  currentSuiteEnd: "）",
  noExchange: "这个结论不依据任何 HTTP 请求交换（没有发送请求，或者原因里说明了为什么）。",
  notKept: "这个结论所依据的请求交换没有保留。",
  evidenceLead: "证据：",
  exchangeN: (n: number) => `交换 #${n}`,
  noTransitions: "没有记录到状态变化。",
  colWhen: "时间",
  colFrom: "原状态",
  colTo: "新状态",
  colReason: "原因",
  colSuite: "套件",
  firstResult: "首次结果",
  decided: "判定时间",
  inStateSince: "处于此状态始于",
  suiteVersion: "套件版本",
  notEvaluatedCard: "尚未评估：这个服务端还没有被探测。",
  historyH: "历史",
  stateChanges: (n: number) => `${n} 次状态变化`,

  dtRemote: "远程 URL",
  dtTransport: "传输方式",
  dtRegistry: "注册表状态",
  dtEra: "时代 · 修订",
  dtLastProbed: "上次探测",
  dtLastRead: "上次完整读取",
  dtNextProbe: "下次探测",
  noneListed: "未列出",
  active: "在册",
  leftSince: (since: string) => `${since} 离开注册表`,
  left: "已离开注册表",
  withdrawn: (status: "deprecated" | "deleted", since: string | null) =>
    `已被所有者${status === "deprecated" ? "弃用" : "删除"}${since ? `，自 ${since} 起不再探测` : ""}`,
  version: (v: string) => ` · 版本 ${v}`,
  ownerWrote: " · 所有者写道：",
  probedWith: (requests: string, duration: string) => `，${requests}，用时 ${duration}`,
  noRequestSent: (kind: string | null) => `没有发送请求${kind ? `（${kind}）` : ""}；上次判定于 `,
  notYet: "尚未探测",
  neverRead: "从未：工具列表还没有被完整读取过",
  nextNone: "无（已离开注册表）",
  nextWithRound: "随下一轮",
  scheduleSep: "：",
  failuresSep: " · ",
};

export const SERVER_TEXT: Record<Lang, ServerText> = { en: SERVER_EN, zh: SERVER_ZH };

// The cross-read sentence in Chinese, from the same stored outcome and explanation codes as cross-read.ts's English.
const READER_ZH = "一个先发 initialize 的读取器";

function explanationClauseZh(rule: CrossReadExplanation, code: number | null): string {
  switch (rule) {
    case "modern_declined":
      return `新版客户端在这里会失败，因为 server/discover 被拒绝${code !== null ? `（${code}）` : ""}`;
    case "discover_server_error":
      return `新版客户端在这里会失败，因为 server/discover 的应答是 ${code !== null ? `HTTP ${code}` : "5xx"}`;
    case "discover_redirect":
      return `新版客户端在这里会停下，因为 server/discover 的应答是${code !== null ? ` HTTP ${code}` : "重定向"}，而探测器不跟随重定向`;
    case "newer_revisions_only":
      return `${MODERN_REVISION} 的客户端在这里会失败，因为 server/discover 只提供了更新的修订`;
    case "slow_down":
      return "探测器没有读取它，因为服务端要求放慢";
    case "opted_out":
      return "探测器不向它发送任何请求，因为它的主机要求不被探测";
    case "initialize_refused":
      return `先发 initialize 的客户端在这里连不上：服务端对 initialize 的应答是 ${code !== null ? (code < 0 ? code : `HTTP ${code}`) : "拒绝"}`;
  }
}

type CrossReadFacts = Parameters<typeof crossReadSentence>[0];

/** The server page's one sentence about its latest cross-read, in `lang`. */
export function crossReadSentenceIn(lang: Lang, r: CrossReadFacts & Pick<CrossReadRow, "outcome">): string {
  if (lang === "en") return crossReadSentence(r);
  const tools = r.crossToolCount !== null ? counted(r.crossToolCount, WORDS.tool, "zh") : "工具列表";
  const why = r.explanation ? `；${explanationClauseZh(r.explanation, r.explanationCode)}` : "";
  const paths = r.paths.length <= 3 ? r.paths.join("、") : `${r.paths.slice(0, 3).join("、")} 等 ${r.paths.length} 个`;
  switch (r.outcome) {
    case "only_cross_reader":
      return r.explanation
        ? `${READER_ZH}在 ${r.day} 读到了 ${tools}${why}。`
        : `${READER_ZH}在 ${r.day} 读到了探测器读不到的 ${tools}，探测器的规则都解释不了这个差别：这可能是探测器的盲区。`;
    case "disagreed":
      return `${READER_ZH}在 ${r.day} 读到的 ${tools}与探测器最近一次完整读取的结果有 ${counted(r.paths.length, WORDS.fieldPath, "zh")}不同（${paths}）${why}。`;
    case "agreed":
      return `${READER_ZH}在 ${r.day} 读到的 ${tools}与探测器相同。`;
    case "only_probe":
      if (r.explanation === "initialize_refused") return `${READER_ZH}在 ${r.day} 连不上${why}；先发 server/discover 的客户端能读取。`;
      return `${READER_ZH}在 ${r.day} 读不到工具列表；只有探测器最近一次完整读取的结果。`;
    case "neither":
      return `在 ${r.day}，探测器和${READER_ZH}都读不到工具列表${r.explanation === "initialize_refused" ? why : ""}。`;
  }
}

// The server page's longer sections: remotes, certificate, regions, history, response time, incidents, tools, evidence
// and links. Arrays are a sentence cut where a link, code or time goes in.
const SECTIONS_EN = {
  remotesH: "Listed remotes",
  remotesSub: [
    "The probe talks to the first remote that needs no configuration, streamable-http before sse (",
    "which remote is probed",
    ").",
  ],
  colUrl: "URL",
  colTransport: "Transport",
  colStanding: "Standing",
  probedAs: ["(probed as ", ")"],
  standing: {
    probed: "probed",
    needs_configuration: "needs configuration",
    passed_over: "passed over: another remote was probed",
  } as Record<"probed" | "needs_configuration" | "passed_over", string>,
  whySep: ": ",

  certificateH: "TLS certificate",
  certExpired: "The certificate has expired",
  certSoon: "The certificate expires soon",
  certDays: (days: number) => (days < 0 ? `expired ${-days} day${days === -1 ? "" : "s"} ago` : `${days} day${days === 1 ? "" : "s"} left`),
  certDaysParen: (words: string) => ` (${words})`,
  certWarn: (n: number) => `: fewer than ${n} days is where this page warns. This is a fact beside the checks, not a check of its own.`,
  issuer: "Issuer",
  notNamed: "not named",
  subject: "Subject",
  expires: "Expires",
  unknown: "unknown",
  accepted: "Accepted",
  rejected: ["no: ", ", so no request was sent on that connection"],
  certSub: ["Recorded on every https probe: ", "certificate facts", "."],

  regionsH: "Regions",
  regionsSub: [
    "One region reads each server per round; a failed handshake or tool list is asked again from two others, and Failed needs most of them (",
    "how regions vote",
    ").",
  ],
  regionalNote: "Regional note:",
  regionsCaption: "The latest round, by region",
  colRegion: "Region",
  colRole: "Role",
  colHandshakeTime: "Handshake time",
  colWhen: "When",
  roles: {
    primary: "read it first",
    confirmation: "confirmed",
    recovery: "a copy to a region that is down (counts for nothing)",
  } as Record<"primary" | "confirmation" | "recovery", string>,
  deciding: " (its read sets the state)",
  noAnswer: "no answer",
  regionUptimeCaption: "Uptime per region, last 30 days",
  colUptime: "Uptime",
  colReached: "Probes that reached the server",

  historyH: "History, last 90 days",
  statesFeed: ["Subscribe to this server's state changes (Atom feed)", ": one entry each time a check changes state."],
  responseTimeH: "Response time",
  uptimeH: "Uptime",
  uptimeNone: "no probe reached the server",
  noData: "no data",
  uptimeSub: [
    "The share of probes whose handshake completed or met a credential gate, among the probes that reached the server. Slow-downs, opt-outs and the probe's own outages are left out. The 7, 30 and 90 days are whole UTC days, today included. ",
    "How uptime is counted",
    ".",
  ],

  incidentsH: "Incidents",
  incidentsAbout: [
    "An incident opens when a discovery check (handshake, protocol version, tool list) turns Failed and closes at the first later probe that reaches the server with none of them Failed. ",
    "How incidents are recorded",
    ".",
  ],
  noIncident: "No incident recorded for this server.",
  incidentCount: (total: string, n: number, ongoing: number) =>
    `${total} ${n === 1 ? "incident" : "incidents"}${ongoing ? `, ${ongoing} ongoing` : ""}`,
  incidentsMore: (shown: number) => `; the latest ${shown} below, all on `,
  incidentsPage: "the incidents page",
  incidentsEnd: ". ",
  incidentsMoreEnd: ".",
  incidentsFeed: ["Subscribe to this server's incidents (Atom feed)", ": one entry when one opens and one when it closes."],

  toolsH: (n: number | null) => `Tools${n !== null ? ` (${n})` : ""}`,
  toolsUnread: "The complete tool list has not been read.",
  toolsSub: [
    "As the latest complete read received them. Annotations are hints the server declares; the MCP spec tells clients to treat them as untrusted, and nothing here verifies them. An ",
    "observation",
    " is a fact about a definition (hidden characters, a narrow phrase, a spec fact), never a verdict: it changes no state, badge, uptime or incident. ",
  ],
  toolsObservations: (n: number) => (n === 0 ? "This list carries none." : `This list carries ${n}.`),
  observationsOnInstructions: "Observations on the server's instructions",
  observationsOn: (tool: string) => `Observations on ${tool}`,
  noTools: "The server lists no tools.",
  annotations: "Annotations, declared by the server, not verified: ",
  hintDefault: " (absent: the spec's default)",
  hintNotBoolean: " (not a boolean)",

  changesH: "Tool-definition changes",
  changesFeed: "Atom feed of this server's changes",
  noChange: "No change recorded since the first complete tool list.",
  neverRead: "No complete tool list has been read yet, so there is nothing to compare a change against.",
  colTool: "Tool",
  colChange: "Change",
  colField: "Field",
  colBefore: "Before",
  colAfter: "After",
  wholeTool: "whole tool",
  changedWhileStayed: (v: string) => `changed while it stayed ${v}`,
  changeKinds: { added: "added", removed: "removed", changed: "changed" } as Record<string, string>,

  evidenceH: "Evidence",
  noEvidence: "No HTTP exchange is kept for the current verdicts.",
  evidenceLatest: [
    "The requests of the latest probe (",
    "), in the order they were sent. Each one links as ",
    " and comes with a curl command that sends it again.",
  ],
  evidenceNoRun: "The requests behind the current verdicts, in the order they were sent.",
  citedBy: "Cited by:",

  linksH: "Link to this report",
  badgesAbout: [
    "Badges are SVG images: ",
    " for the overall state and ",
    " for one check (ids: ",
    "). The same paths under ",
    " answer shields.io endpoint JSON. Badges are cached for five minutes.",
  ],
  badgeName: "<registry name>",
  badgeCheck: "<check id>",
  badgeAlt: (name: string) => `MCP status badge for ${name}`,
  badgeMarkdown: "Badge (Markdown)",
  badgeHtml: "Badge (HTML)",
  uptimeBadge: "Uptime badge, 30 days (Markdown; &window=24h, 7d or 90d for another window)",
  json: "JSON",
  shields: "shields.io endpoint",
  oneCheck: "Link to one check (handshake)",
};

type SectionsText = typeof SECTIONS_EN;

const SECTIONS_ZH: SectionsText = {
  remotesH: "登记的远程端点",
  remotesSub: ["探测器连接第一个不需要配置的远程端点，streamable-http 优先于 sse（", "探测哪个远程端点", "）。"],
  colUrl: "URL",
  colTransport: "传输方式",
  colStanding: "处理情况",
  probedAs: ["（按 ", " 探测）"],
  standing: { probed: "已探测", needs_configuration: "需要配置", passed_over: "未选用：探测的是另一个远程端点" },
  whySep: "：",

  certificateH: "TLS 证书",
  certExpired: "证书已过期",
  certSoon: "证书即将过期",
  certDays: (days: number) => (days < 0 ? `已过期 ${-days} 天` : `还剩 ${days} 天`),
  certDaysParen: (words: string) => `（${words}）`,
  certWarn: (n: number) => `：少于 ${n} 天时本页就会提醒。这是检查旁边的一条事实，本身不是检查。`,
  issuer: "签发者",
  notNamed: "未写明",
  subject: "主体",
  expires: "到期时间",
  unknown: "未知",
  accepted: "是否接受",
  rejected: ["否：", "，因此没有在这个连接上发送请求"],
  certSub: ["每次 https 探测都会记录：", "证书信息", "。"],

  regionsH: "区域",
  regionsSub: [
    "每轮由一个区域读取每个服务端；握手或工具列表失败时，再从另外两个区域各问一次，多数区域都失败才记为未通过（",
    "区域如何表决",
    "）。",
  ],
  regionalNote: "区域说明：",
  regionsCaption: "最近一轮，按区域",
  colRegion: "区域",
  colRole: "角色",
  colHandshakeTime: "握手耗时",
  colWhen: "时间",
  roles: { primary: "首先读取", confirmation: "复核", recovery: "发往宕机区域的副本（不计入结果）" },
  deciding: "（它的读取结果决定状态）",
  noAnswer: "没有应答",
  regionUptimeCaption: "各区域可用率，最近 30 天",
  colUptime: "可用率",
  colReached: "到达服务端的探测次数",

  historyH: "历史，最近 90 天",
  statesFeed: ["订阅这个服务端的状态变化（Atom 订阅源）", "：每当有检查改变状态就有一条。"],
  responseTimeH: "响应时间",
  uptimeH: "可用率",
  uptimeNone: "没有探测到达服务端",
  noData: "无数据",
  uptimeSub: [
    "在到达服务端的探测中，握手完成或遇到凭据拦截的探测所占的比例。被要求放慢、已退出探测和探测器自身的故障都不计入。7 天、30 天和 90 天都是完整的 UTC 日，包括今天。",
    "可用率如何计算",
    "。",
  ],

  incidentsH: "故障记录",
  incidentsAbout: [
    "当某个发现类检查（握手、协议版本、工具列表）变为未通过时，故障开始；之后第一次到达服务端、且这几项都不是未通过的探测，故障结束。",
    "故障如何记录",
    "。",
  ],
  noIncident: "这个服务端没有故障记录。",
  incidentCount: (total: string, _n: number, ongoing: number) => `共 ${total} 次故障${ongoing ? `，${ongoing} 次仍在持续` : ""}`,
  incidentsMore: (shown: number) => `；下面是最近 ${shown} 次，全部记录见`,
  incidentsPage: "故障记录页",
  incidentsEnd: "。",
  incidentsMoreEnd: "。",
  incidentsFeed: ["订阅这个服务端的故障（Atom 订阅源）", "：故障开始和结束时各有一条。"],

  toolsH: (n: number | null) => `工具${n !== null ? `（${n}）` : ""}`,
  toolsUnread: "还没有读取到完整的工具列表。",
  toolsSub: [
    "按最近一次完整读取收到的样子显示。注解是服务端自己声明的提示；MCP 规范要求客户端把它们视为不可信，本站也不验证它们。",
    "观察",
    "是关于某个定义的事实（隐藏字符、措辞狭窄、规范事实），从来不是结论：它不改变任何状态、徽章、可用率或故障记录。",
  ],
  toolsObservations: (n: number) => (n === 0 ? "这份列表没有观察。" : `这份列表有 ${n} 条观察。`),
  observationsOnInstructions: "关于服务端说明的观察",
  observationsOn: (tool: string) => `关于 ${tool} 的观察`,
  noTools: "服务端没有列出任何工具。",
  annotations: "注解（服务端声明，未经验证）：",
  hintDefault: "（未给出：规范的默认值）",
  hintNotBoolean: "（不是布尔值）",

  changesH: "工具定义变更",
  changesFeed: "这个服务端变更的 Atom 订阅源",
  noChange: "自第一份完整工具列表以来没有记录到变更。",
  neverRead: "还没有读取到完整的工具列表，因此没有可以比较的基准。",
  colTool: "工具",
  colChange: "变更",
  colField: "字段",
  colBefore: "变更前",
  colAfter: "变更后",
  wholeTool: "整个工具",
  changedWhileStayed: (v: string) => `版本一直是 ${v}，定义却变了`,
  changeKinds: { added: "新增", removed: "移除", changed: "修改" },

  evidenceH: "证据",
  noEvidence: "当前结论没有保留任何 HTTP 请求交换。",
  evidenceLatest: ["最近一次探测（", "）的请求，按发送顺序排列。每条都可以用 ", " 链接，并附有一条能重新发送它的 curl 命令。"],
  evidenceNoRun: "当前结论所依据的请求，按发送顺序排列。",
  citedBy: "引用它的检查：",

  linksH: "链接到本报告",
  badgesAbout: [
    "徽章是 SVG 图片：",
    " 表示总体状态，",
    " 表示单项检查（检查 id：",
    "）。同样的路径放在 ",
    " 下，返回 shields.io 端点 JSON。徽章缓存五分钟。",
  ],
  badgeName: "<注册表名称>",
  badgeCheck: "<检查 id>",
  badgeAlt: (name: string) => `${name} 的 MCP 状态徽章`,
  badgeMarkdown: "徽章（Markdown）",
  badgeHtml: "徽章（HTML）",
  uptimeBadge: "可用率徽章，30 天（Markdown；其他时间窗口用 &window=24h、7d 或 90d）",
  json: "JSON",
  shields: "shields.io 端点",
  oneCheck: "链接到单项检查（握手）",
};

export const SECTIONS_TEXT: Record<Lang, SectionsText> = { en: SECTIONS_EN, zh: SECTIONS_ZH };

// The history strip (server page and the index's compact strip).
const HISTORY_EN = {
  noProbe: "No probe that day",
  dayNoProbe: (day: string) => `${day}: no probe that day`,
  dayTitle: (day: string, state: string, probes: string, hasRun: boolean) =>
    `${day}: ${state} (worst of ${probes})${hasRun ? "; click to open the day's last run" : ""}`,
  summaryPart: (days: string, state: string) => `${days} ${state}`,
  withoutProbe: (days: string) => `${days} without a probe`,
  summary: (n: number, parts: string[]) => `Last ${n} UTC days: ${parts.join(", ")}.`,
  today: " (today)",
  legendNote:
    "Each bar is one UTC day, coloured by the worst discovery result (handshake, protocol version, tool list) of that day's probes: Failed, then Observed risk, then Not checked, then Verified.",
  tableSummary: (n: number) => `The days with a probe, as a table (${n})`,
  noProbeIn: (n: number) => `No probe in these ${n} days.`,
  colDay: "Day (UTC)",
  colWorst: "Worst discovery state",
  colProbes: "Probes",
  colLastRun: "Last run",
  runN: (id: number) => `run ${id}`,
  runGone: "no longer kept (runs are kept 30 days)",
};

type HistoryText = typeof HISTORY_EN;

const HISTORY_ZH: HistoryText = {
  noProbe: "当天没有探测",
  dayNoProbe: (day: string) => `${day}：当天没有探测`,
  dayTitle: (day: string, state: string, probes: string, hasRun: boolean) =>
    `${day}：${state}（${probes}中最差的结果）${hasRun ? "；点击打开当天最后一次探测" : ""}`,
  summaryPart: (days: string, state: string) => `${days}${state}`,
  withoutProbe: (days: string) => `${days}没有探测`,
  summary: (n: number, parts: string[]) => `最近 ${n} 个 UTC 日：${parts.join("，")}。`,
  today: "（今天）",
  legendNote:
    "每根柱子是一个 UTC 日，颜色取当天各次探测中最差的发现类结果（握手、协议版本、工具列表）：未通过，其次观察到风险，再次未检查，最后已通过。",
  tableSummary: (n: number) => `有探测的日子，以表格列出（${n}）`,
  noProbeIn: (n: number) => `这 ${n} 天里没有探测。`,
  colDay: "日期（UTC）",
  colWorst: "最差的发现类状态",
  colProbes: "探测次数",
  colLastRun: "最后一次探测",
  runN: (id: number) => `探测 ${id}`,
  runGone: "已不再保留（探测记录保留 30 天）",
};

export const HISTORY_TEXT: Record<Lang, HistoryText> = { en: HISTORY_EN, zh: HISTORY_ZH };

// One HTTP exchange as evidence, the copy buttons, and "Probe again".
const EXCHANGE_EN = {
  label: (seq: number) => `Exchange ${seq}`,
  noAnswer: "no answer",
  noAnswerWith: (error: string) => `no answer: ${error}`,
  error: "Error: ",
  requestHeaders: "Request headers",
  responseHeaders: "Response headers",
  requestBody: "Request body",
  responseBody: (bytes: number | undefined, truncated: boolean | undefined, empty: boolean) =>
    `Response body${bytes !== undefined ? ` (${bytes} bytes${truncated ? ", cut short by the size cap)" : ")"}` : ""}${empty ? ": empty" : ", excerpt:"}`,
  curlFor: (seq: number) => `curl for exchange #${seq}`,
};

const EXCHANGE_ZH: typeof EXCHANGE_EN = {
  label: (seq: number) => `交换 ${seq}`,
  noAnswer: "没有应答",
  noAnswerWith: (error: string) => `没有应答：${error}`,
  error: "错误：",
  requestHeaders: "请求头",
  responseHeaders: "响应头",
  requestBody: "请求体",
  responseBody: (bytes: number | undefined, truncated: boolean | undefined, empty: boolean) =>
    `响应体${bytes !== undefined ? `（${bytes} 字节${truncated ? "，超过大小上限被截断）" : "）"}` : ""}${empty ? "：空" : "，节选："}`,
  curlFor: (seq: number) => `交换 #${seq} 的 curl 命令`,
};

export const EXCHANGE_TEXT: Record<Lang, typeof EXCHANGE_EN> = { en: EXCHANGE_EN, zh: EXCHANGE_ZH };

const REPROBE_EN = {
  h: "Probe again",
  tryAfter: (at: string) => ` Try again after ${at}.`,
  serverRecent: (min: number) => `Not queued: this server may be probed on request at most once every ${min} minutes.`,
  globalCap: (cap: number) =>
    `Not queued: the site takes at most ${cap} requests an hour across all servers, and that many came in the last hour.`,
  leftRegistry: "Not queued: this server left the registry and is no longer probed.",
  formExpired: "Not queued: the form was too old or not from this page. Reload the page and try again.",
  leftText: "This server left the registry, so it cannot be probed on request.",
  off: "Probes on request are turned off on this site.",
  optedOut: "This host asked not to be probed: a request here is answered from the opt-out, and nothing is sent to it.",
  intro: (min: number, cap: number) =>
    `Fixed something? Ask for one probe of this server now instead of waiting for its schedule. The probe is the same as in a round, with the same opt-outs: a host that asked not to be probed gets no request. At most once every ${min} minutes per server, and ${cap} an hour for the whole site.`,
  button: "Probe again now",
  requestedAt: "Requested at ",
  probedAt: "probed at ",
  noRequest: " without a request (nothing was sent; the results say why)",
  runN: (id: number) => `run ${id}`,
  /** After "(run N": the sentence's end. */
  probedEnd: "). The results on this page are from that probe or a later one.",
  probedSep: "; ",
  probedOpen: " (",
  queuedSep: ": ",
  queued: "queued",
  queuedEnd: ". It runs at once unless a round is under way, then with the next round; reload this page to see the result.",
};

const REPROBE_ZH: typeof REPROBE_EN = {
  h: "再探测一次",
  tryAfter: (at: string) => `请在 ${at} 之后再试。`,
  serverRecent: (min: number) => `未排队：每个服务端按请求探测最多每 ${min} 分钟一次。`,
  globalCap: (cap: number) => `未排队：本站每小时在所有服务端上最多接受 ${cap} 个请求，过去一小时已经达到这个数。`,
  leftRegistry: "未排队：这个服务端已离开注册表，不再被探测。",
  formExpired: "未排队：表单太旧，或者不是来自本页。请刷新页面再试。",
  leftText: "这个服务端已离开注册表，因此不能按请求探测。",
  off: "本站关闭了按请求探测。",
  optedOut: "这台主机要求不被探测：这里的请求会按退出探测处理，不会向它发送任何东西。",
  intro: (min: number, cap: number) =>
    `修好了什么？现在就请求探测这个服务端一次，不必等它的排期。这次探测与每轮探测相同，遵守同样的退出探测规则：要求不被探测的主机不会收到请求。每个服务端最多每 ${min} 分钟一次，全站每小时最多 ${cap} 次。`,
  button: "现在再探测一次",
  requestedAt: "请求于 ",
  probedAt: "探测于 ",
  noRequest: "，没有发送请求（原因见结果）",
  runN: (id: number) => `探测 ${id}`,
  probedEnd: "）。本页的结果来自这次或更晚的探测。",
  probedSep: "；",
  probedOpen: "（",
  queuedSep: "：",
  queued: "已排队",
  queuedEnd: "。没有正在进行的一轮时会立即运行，否则随下一轮运行；刷新本页查看结果。",
};

export const REPROBE_TEXT: Record<Lang, typeof REPROBE_EN> = { en: REPROBE_EN, zh: REPROBE_ZH };

// The regional note (architecture.md §8) in Chinese, from the same stored facts as regions.ts's English sentence.
const NETWORK_WORDS_ZH: Record<NetworkErrorKind, string> = {
  dns_unavailable: "DNS 解析器没有应答",
  nxdomain: "域名不存在",
  refused: "连接被拒绝",
  connect_timeout: "无法建立连接",
  tls: "TLS 握手失败",
  reset: "连接被重置",
};

function failureWordsZh(f: FailureFacts): string {
  switch (f.kind) {
    case "network":
      return NETWORK_WORDS_ZH[f.network];
    case "status":
      return `HTTP ${f.status}`;
    case "declined":
      return `以 ${f.code} 拒绝`;
    case "other":
      return "握手或工具列表失败";
  }
}

/** "区域 b 于 20:56 UTC 失败（HTTP 502），而 a、c 读取成功；少数区域失败不决定状态。" */
export function regionalNoteSentenceIn(lang: Lang, note: RegionalNote): string {
  if (lang === "en") return regionalNoteSentence(note);
  const failed = note.failed.map((f) => `${f.region} 于 ${f.at.slice(11, 16)} UTC 失败（${failureWordsZh(f.facts)}）`);
  return `区域 ${failed.join("、")}，而 ${note.readFrom.join("、")} 读取成功；少数区域失败不决定状态。`;
}
