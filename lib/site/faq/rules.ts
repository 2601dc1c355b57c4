import type { Lang } from "../labels";
import type { FaqSlug } from "./types";

/** One rule of the design, and the place in the FAQ that explains it (the same anchor in both languages). */
export interface RuleLink {
  /** Stable id: the design section and a short name, e.g. "2.1.5-fallback-4xx". */
  id: string;
  slug: FaqSlug;
  anchor: string;
  text: Record<Lang, string>;
}

export interface RuleGroup {
  id: string;
  title: Record<Lang, string>;
  rules: RuleLink[];
}

const r = (id: string, slug: FaqSlug, anchor: string, en: string, zh: string): RuleLink => ({ id, slug, anchor, text: { en, zh } });

export const RULE_INDEX: readonly RuleGroup[] = [
  {
    id: "suite",
    title: { en: "States and the suite", zh: "状态与检查套件" },
    rules: [
      r("2-states", "observed-unsigned", "states", "Four states, each with a one-sentence reason and its evidence", "四种状态，每种都附一句原因和证据"),
      r("2-checks", "observed-unsigned", "checks", "Five checks in display order; the first three are the discovery checks", "五项检查及其显示顺序，前三项属于发现类检查"),
      r("2-overall", "observed-unsigned", "overall", "The overall state: Failed, else Observed risk, else Verified only when the handshake and tool list are; else Not checked", "总体状态：先看未通过，再看观察到风险，握手和工具列表都已通过才算已通过，其余为未检查"),
      r("2-not-checked-kinds", "observed-unsigned", "not-checked", "Every Not checked names its kind, and each kind says what to do", "每个未检查都注明属于哪种情况，每种情况都说明该怎么做"),
      r("2-suite-version", "changelog", "versions", "Every result carries the suite version that produced it", "每条结果都记录产生它的套件版本"),
      r("2-corrections", "changelog", "corrections", "Corrections ship without a version bump and are still listed", "更正不升版本号，但同样列入更新记录"),
    ],
  },
  {
    id: "handshake",
    title: { en: "Handshake and fallback", zh: "握手与回退" },
    rules: [
      r("2.1.1-modern-first", "handshake", "modern-first", "The probe opens with server/discover in the 2026-07-28 shape", "探测器先按 2026-07-28 的格式发送 server/discover"),
      r("2.1.2-discover-result", "handshake", "discover-result", "What counts as a discover result", "什么样的响应算作 discover 结果"),
      r("2.1.3-declined", "handshake", "declined", "-32020, -32021, -32022: declined on purpose, no fallback", "-32020、-32021、-32022：服务端有意拒绝，不回退"),
      r("2.1.4-slow-down", "handshake", "slow-down", "429, or 503 with Retry-After: slow down for the round", "429 或带 Retry-After 的 503：本轮停止发送"),
      r("2.1.5-fallback-4xx", "handshake", "fallback-4xx", "Any other 4xx falls back to initialize, whatever the body", "其他任何 4xx 都回退到 initialize，不看响应体"),
      r("2.1.6-fallback-2xx", "handshake", "fallback-2xx", "A 2xx that is not a discover result falls back (0.10.0)", "不是 discover 结果的 2xx 也回退（0.10.0）"),
      r("2.1.7-transfer-failures", "handshake", "transfer-failures", "Redirects, other 5xx, timeouts, network errors fail", "重定向、其他 5xx、超时和网络错误记为未通过"),
      r("2.1.8-deciding-answer", "handshake", "deciding-answer", "After the fallback, the answer that ends the handshake decides", "回退之后，以握手最后收到的响应为准"),
      r("2.1.8-credential-gate", "credential-gate", "handshake-gate", "A 401 with a valid challenge on the handshake is the credential gate", "握手时收到带合法质询的 401 即为凭据拦截"),
      r("2.1.8-no-challenge", "credential-gate", "no-challenge", "A 401 without a valid challenge fails", "不带合法质询的 401 记为未通过"),
      r("2.1.9-late-fallback", "handshake", "late-fallback", "The late fallback on the first tools/list page, and its outcome", "首个 tools/list 页上的延后回退及其结果"),
      r("2.1.10-sse", "handshake", "sse", "Remotes of type sse use the HTTP+SSE transport", "sse 类型的远程端点按 HTTP+SSE 传输探测"),
      r("2.1.11-newer-only", "protocol-version", "newer-only", "A discover result listing only newer revisions is not a legacy signal", "只列出更新修订的 discover 结果不是旧版信号"),
      r("2.1.12-unreadable-4xx", "handshake", "unreadable-4xx", "A 4xx with an unreadable body still falls back", "响应体读不出来的 4xx 照样回退"),
      r("2.1-our-bug", "handshake", "our-bug", "Our own exact-400 bug, since fixed", "我们自己的「只认 400」缺陷及其修复"),
      r("2.1-pv-agreed", "protocol-version", "agreed", "Protocol version: Verified with the agreed revision", "协议版本：已通过，并给出协商出的修订"),
      r("2.1-pv-no-common", "protocol-version", "no-common", "Protocol version: Failed when no common revision exists", "协议版本：没有共同修订时记为未通过"),
    ],
  },
  {
    id: "tools",
    title: { en: "The tool list", zh: "工具列表" },
    rules: [
      r("2.2-pagination", "tools-list", "pagination", "Follow nextCursor to the end; an empty cursor is valid in 2026-07-28", "沿 nextCursor 读到底；2026-07-28 中空字符串也是游标"),
      r("2.2-verified", "tools-list", "verified", "Verified with the tool count and pages read", "已通过，并给出工具数和页数"),
      r("2.2-endless", "tools-list", "endless", "Page cap or cursor loop: Observed risk", "达到页数上限或游标循环：观察到风险"),
      r("2.2-malformed", "tools-list", "malformed", "Malformed definitions: Observed risk, still a complete read", "工具定义有问题：观察到风险，仍算完整读取"),
      r("2.2-gate", "credential-gate", "tool-list-gate", "A credential gate on the tool list", "工具列表上的凭据拦截"),
      r("2.2-deadline", "tools-list", "deadline", "The probe's own deadline: Not checked, with pages read", "探测器自身时限用完：未检查，并给出已读页数"),
      r("2.2-request-timeout", "tools-list", "request-timeout", "A single request that times out: Failed", "单个请求超时：未通过"),
      r("2.2-complete-read", "tools-list", "complete-read", "What a complete read is, and where it counts", "什么是完整读取，以及它在哪些地方计数"),
    ],
  },
  {
    id: "error-taxonomy",
    title: { en: "The reserved-tool call", zh: "保留工具调用" },
    rules: [
      r("2.3-reserved-call", "withheld-call", "reserved-call", "One call, to a reserved name, never any other tool", "只调用一个保留名称，绝不调用其他工具"),
      r("2.3-withheld", "withheld-call", "withheld", "When the call is withheld", "什么情况下不发这次调用"),
      r("2.3-jsonrpc-error", "refusals", "jsonrpc-error", "A well-formed JSON-RPC error: Verified", "格式正确的 JSON-RPC 错误：已通过"),
      r("2.3-pre-dispatch", "refusals", "pre-dispatch", "A bare 401 or 403: Verified", "单纯的 401 或 403：已通过"),
      r("2.3-is-error", "refusals", "is-error", "A result with isError: true: Verified, channel named", "带 isError: true 的结果：已通过，原因注明所用通道"),
      r("2.3-slow-down", "refusals", "slow-down", "429, or 503 with Retry-After: Not checked", "429 或带 Retry-After 的 503：未检查"),
      r("2.3-malformed", "refusals", "malformed", "Any other shape: Observed risk", "其他任何形式：观察到风险"),
      r("2.3-success", "refusals", "success", "A success result for a tool that does not exist: Observed risk", "对不存在的工具返回成功结果：观察到风险"),
    ],
  },
  {
    id: "auth",
    title: { en: "Authentication metadata", zh: "鉴权元数据" },
    rules: [
      r("2.4-source", "auth-metadata", "source", "Which challenge is followed; none seen: Not checked", "跟随哪个质询；一个都没有时记为未检查"),
      r("2.4-no-metadata-url", "auth-metadata", "no-metadata-url", "A challenge without resource_metadata", "质询里没有 resource_metadata"),
      r("2.4-opted-out-host", "auth-metadata", "opted-out-host", "Metadata on an opted-out host is not fetched (0.11.0)", "已退出探测的主机上的元数据不抓取（0.11.0）"),
      r("2.4-private-address", "auth-metadata", "private-address", "Metadata at a private address is not fetched", "位于私有地址的元数据不抓取"),
      r("2.4-http-error", "auth-metadata", "http-error", "An HTTP error or a redirect: Observed risk", "HTTP 错误或重定向：观察到风险"),
      r("2.4-not-json", "auth-metadata", "not-json", "Not JSON: Observed risk", "不是 JSON：观察到风险"),
      r("2.4-not-object", "auth-metadata", "not-object", "JSON but not an object: Observed risk", "是 JSON 但不是对象：观察到风险"),
      r("2.4-scope-mismatch", "auth-metadata", "scope-mismatch", "A scope the metadata does not list: Observed risk", "元数据未列出的 scope：观察到风险"),
      r("2.4-no-resource", "auth-metadata", "no-resource", "No string resource (0.12.0)", "没有字符串类型的 resource（0.12.0）"),
      r("2.4-resource-covers", "auth-metadata", "covers", "A resource must cover the server's URL: the path-prefix rule (0.12.0)", "resource 必须覆盖服务端 URL：路径前缀规则（0.12.0）"),
      r("2.4-no-authorization-servers", "auth-metadata", "no-authorization-servers", "No non-empty authorization_servers (0.12.0)", "authorization_servers 缺失或为空（0.12.0）"),
      r("2.4-unparseable-challenge", "auth-metadata", "unparseable-challenge", "A challenge that does not parse: Observed risk (0.12.0)", "无法解析的质询：观察到风险（0.12.0）"),
      r("2.4-valid-challenge", "credential-gate", "valid", "What a structurally valid challenge is, with examples", "什么是结构合法的质询，附示例"),
      r("2.4-verified", "auth-metadata", "verified", "Usable metadata: Verified", "可用的元数据：已通过"),
      r("2.4-not-a-verdict", "auth-metadata", "not-a-verdict", "Discoverability only, never a verdict on security", "只看能否发现鉴权方式，不评判安全性"),
    ],
  },
  {
    id: "politeness",
    title: { en: "Opting out and politeness", zh: "退出探测与请求节制" },
    rules: [
      r("2.5-no-request", "opting-out", "no-request", "An opted-out host gets no request at all", "已退出的主机收不到任何请求"),
      r("2.5-operator", "opting-out", "operator", "Opt-outs from the operator list", "运维名单里的退出"),
      r("2.5-robots", "opting-out", "robots", "Opt-outs from robots.txt for mcp-status-probe", "robots.txt 针对 mcp-status-probe 的退出规则"),
      r("2.5-undo", "opting-out", "undo", "Undoing an opt-out", "撤销退出"),
      r("2.5-identity", "opting-out", "identity", "User-Agent, no credentials, no Origin, no redirects", "User-Agent、不带凭据、不带 Origin、不跟随重定向"),
      r("2.5-one-request", "opting-out", "one-request", "One request at a time within a probe", "同一次探测内一次只发一个请求"),
      r("2.5-per-host", "opting-out", "per-host", "One probe per host; up to PROBE_HOST_CONCURRENCY for hosts with 50+ servers", "每台主机一次一个探测；50 个以上服务端的主机最多 PROBE_HOST_CONCURRENCY 个"),
      r("2.5-crawl-delay", "opting-out", "crawl-delay", "Crawl-delay is the minimum gap between requests", "Crawl-delay 是请求之间的最小间隔"),
      r("2.5-host-pause", "opting-out", "host-pause", "A 429 or 503 with Retry-After pauses the whole host", "429 或带 Retry-After 的 503 会暂停整台主机"),
      r("2.5-metadata-hosts", "opting-out", "metadata-hosts", "Metadata hosts follow the same opt-outs", "元数据主机同样遵守退出规则"),
    ],
  },
  {
    id: "remotes-hints",
    title: { en: "Remotes, hints and certificates (0.13.0)", zh: "远程端点、修改提示与证书（0.13.0）" },
    rules: [
      r("2.6-which-remote", "which-servers", "which-remote", "The first remote needing no configuration is probed, streamable-http before sse", "探测第一个无需配置的远程端点，streamable-http 优先于 sse"),
      r("2.6-url-variables", "which-servers", "which-remote", "URL variables with defaults are filled in", "带默认值的 URL 变量先填上"),
      r("2.6-needs-configuration", "which-servers", "what-needs-configuration", "A URL variable without default, a required header or a {placeholder} value needs configuration; an optional header does not", "没有默认值的 URL 变量、必填请求头或含 {占位符} 的值需要配置；可选请求头不需要"),
      r("2.6-every-remote", "which-servers", "needs-configuration", "A server needs configuration only when every remote does", "全部远程端点都需要配置时，服务端才算需要配置"),
      r("2.6-standings", "which-servers", "remotes", "Every remote is listed: probed, needs configuration, or passed over", "列出每个远程端点：已探测、需要配置或未选用"),
      r("2.8-hints", "hints", "hints", "A Failed or Observed-risk check whose evidence matches exactly carries a one-sentence hint", "证据完全吻合的未通过或观察到风险检查，附一句修改提示"),
      r("2.8-invalid-host", "hints", "hint-invalid-host", "Hint: a 403 naming an Invalid Host (a localhost-only allowlist)", "提示：403 写着 Invalid Host（只允许 localhost 的白名单）"),
      r("2.8-redirect", "hints", "hint-redirect", "Hint: a redirect, with the URL it points to", "提示：重定向，并给出它指向的 URL"),
      r("2.8-transport", "hints", "hint-transport", "Hint: a remote listed under the other transport", "提示：远程端点登记的传输方式不对"),
      r("2.8-tls", "hints", "hint-tls", "Hint: a certificate expired, for another name, or from an unknown issuer", "提示：证书过期、名称不符或签发者未知"),
      r("2.8-refused", "hints", "hint-refused", "Hint: connection refused", "提示：连接被拒绝"),
      r("2.8-nxdomain", "hints", "hint-nxdomain", "Hint: a name that does not exist", "提示：域名不存在"),
      r("2.8-406-415", "hints", "hint-406-415", "Hint: 406 or 415 to the headers clients must send", "提示：对客户端必发的请求头回 406 或 415"),
      r("2.8-no-hint", "hints", "no-hint", "No exact match, no hint", "对不上就不给提示"),
      r("2.8-certificate", "hints", "certificate", "https probes record issuer and expiry; the page warns under 14 days", "https 探测记录签发者和到期时间，不足 14 天时提醒"),
      r("2.8-rate-limited", "hints", "rate-limited", "-32023 is a slow-down; data.retryAfterMs counts like Retry-After", "-32023 视为放慢；data.retryAfterMs 与 Retry-After 同样对待"),
      r("2.8-supported-versions", "hints", "supported-versions", "-32022's data.supportedVersions is read like data.supported", "-32022 的 data.supportedVersions 与 data.supported 同样解读"),
    ],
  },
  {
    id: "rounds",
    title: { en: "Rounds, schedule and coverage", zh: "轮次、调度与覆盖" },
    rules: [
      r("3-registry", "which-servers", "registry", "The registry: active entries, one row per server", "注册表：只取 active 条目，每个服务端一行"),
      r("3-needs-configuration", "which-servers", "needs-configuration", "Remotes that need configuration are Not checked, not down", "需要配置的远程端点记为未检查，不算宕机"),
      r("3-left", "which-servers", "left", "Servers that leave the registry keep their history", "离开注册表的服务端保留历史"),
      r("3-rounds", "schedule", "rounds", "Rounds: bounded, written atomically, never two at once", "轮次：有并发上限、原子写入、不会同时跑两轮"),
      r("3-healthy", "schedule", "healthy", "Healthy servers every 30 minutes to 6 hours", "健康的服务端每 30 分钟到 6 小时探测一次"),
      r("3-backoff", "schedule", "backoff", "After failures: 6, 12, 24 hours", "失败后：6、12、24 小时"),
      r("3-credential", "schedule", "credential", "After a credential gate: at least 24 hours", "遇到凭据拦截后：至少 24 小时"),
      r("3-slow-down", "schedule", "slow-down", "After slow down: at least the Retry-After", "要求放慢后：至少等 Retry-After"),
      r("3-when-fix-shows", "schedule", "when-fix-shows", "When a fix shows: last probe, last complete read, next due time", "修复何时显示：上次探测、上次完整读取、下次到期时间"),
      r("3-probe-again", "schedule", "probe-again", "The Probe again now button and its limits", "「立即重新探测」按钮及其限制"),
      r("3-coverage", "coverage", "coverage", "Coverage is the headline metric", "覆盖数是首要指标"),
      r("3-success-rate", "coverage", "success-rate", "Success rate is shown beside it, not instead", "成功率放在旁边，而不是取而代之"),
      r("3-failing", "coverage", "failing", "Time since the last success; failing servers stay visible", "距上次成功的时间；长期失败的服务端不会消失"),
      r("3-alert", "coverage", "alert", "An alert when coverage falls", "覆盖数下降时告警"),
      r("3-tool-history", "tools-list", "history", "Tool history as field-path differences", "按字段路径记录的工具变更历史"),
      r("4-self-test", "self-test", "clone", "The self-test CLI from a fresh clone", "从全新克隆运行自测命令行"),
    ],
  },
  {
    id: "availability",
    title: { en: "Uptime and incidents", zh: "可用率与故障记录" },
    rules: [
      r("4-uptime", "uptime", "definition", "Uptime: handshakes completed or gated, among the probes that reached the server", "可用率：到达服务端的探测中，握手完成或遇到凭据拦截的比例"),
      r("4-uptime-left-out", "uptime", "left-out", "Slow-downs, opt-outs and the probe's own outages are left out", "被要求放慢、退出探测和探测器自身的故障不计入"),
      r("4-uptime-windows", "uptime", "windows", "24 hours, and 7, 30, 90 whole UTC days that outlive the probes' retention", "24 小时，以及在探测记录删除后仍保留的 7、30、90 个 UTC 日"),
      r("4-incident-opens", "incidents", "opens", "An incident opens when a discovery check turns Failed", "发现类检查变为未通过时开启故障记录"),
      r("4-incident-closes", "incidents", "closes", "It closes at the first probe that reaches the server with none Failed", "第一次到达服务端且没有未通过项的探测结束故障记录"),
      r("4-incident-duration", "incidents", "duration", "An incident lasts from the probe that opened it to the one that closed it", "持续时间从开启它的探测算到结束它的探测"),
    ],
  },
  {
    id: "mcp",
    title: { en: "The site as an MCP server", zh: "本站作为 MCP 服务端" },
    rules: [
      r("4-mcp-endpoint", "ask-over-mcp", "connect", "/mcp answers both eras, without sessions or cookies", "/mcp 两个时代都支持，不用会话，也不设 cookie"),
      r("4-mcp-tools", "ask-over-mcp", "tools", "Three read-only tools: get_server_status, search_servers, recent_changes", "三个只读工具：get_server_status、search_servers、recent_changes"),
      r("4-mcp-bad-input", "ask-over-mcp", "bad-input", "Bad arguments are tool errors that name the field; page sizes over the cap are lowered", "错误参数返回指明字段的工具错误；超过上限的页大小按上限处理"),
      r("4-mcp-rate-limit", "ask-over-mcp", "rate-limit", "One limit per client address: 429 with Retry-After, -32023 for 2026-07-28 clients", "每个客户端地址一个限额：429 加 Retry-After，2026-07-28 客户端另有 -32023"),
    ],
  },
  {
    id: "operating",
    title: { en: "Operating the site", zh: "站点运维" },
    rules: [
      r("6-health", "operating", "health", "/api/health is plain liveness", "/api/health 只表示进程存活"),
      r("6-alerts", "operating", "alerts", "Alerts open and resolve on a clock of their own", "告警按独立时钟自动开启和解除"),
      r("6-coverage-drop", "operating", "coverage-drop", "coverage_drop", "coverage_drop"),
      r("6-rounds-stale", "operating", "rounds-stale", "rounds_stale", "rounds_stale"),
      r("6-cross-read-alert", "operating", "cross-read-alert", "cross_read", "cross_read"),
      r("6-status", "operating", "status", "/api/status for outside monitors: 503 while an alert is open", "供外部监控使用的 /api/status：有告警时返回 503"),
      r("6-webhook", "operating", "webhook", "The alert webhook", "告警 webhook"),
      r("6-cross-reader", "operating", "cross-reader", "The independent cross-reader", "独立的交叉读取器"),
      r("6-outcomes", "operating", "outcomes", "Cross-read outcomes", "交叉读取的结果类别"),
      r("6-only-cross-reader", "operating", "only-cross-reader", "only_cross_reader: a possible blind spot of the probe", "only_cross_reader：探测器可能存在的盲区"),
      r("6-explained", "operating", "explained", "Differences the probe's own rules explain are shown on the server page and not counted by the alert", "探测器自身规则能解释的差异显示在服务端页面上，不计入告警"),
      r("6-cross-reader-politeness", "operating", "cross-reader-politeness", "The cross-reader keeps the probe's manners", "交叉读取器遵守与探测器相同的规矩"),
    ],
  },
];
