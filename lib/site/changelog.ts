// The dated rule changes of the check suite, in both languages; the changelog page and FAQ notes read this.
/** Rule changes, newest first; the site's changelog and FAQ notes read this. `version` is null for
 * changes that shipped without a version bump of their own. */
export const SUITE_CHANGELOG: readonly { version: string | null; date: string; en: string; zh: string }[] = [
  {
    version: "0.15.0",
    date: "2026-12-05",
    en:
      "Reach: a server whose registry entry lists a required header, or a header value with a {placeholder} such as Bearer {api_key}, is no longer left without a single request. " +
      "It is probed like any other, without those headers (the probe never sends a registry header or value), on the remote the listing rule picks when headers are ignored; only a URL variable with no default still stops every request, since there is no address to send one to. " +
      "A server that completes the handshake and the tool list anyway is judged as any server, and its reason says it answered without the header; a 401 with a valid challenge is the credential gate; " +
      "any other answer that ends discovery (a 4xx, a 5xx, a JSON-RPC error, an HTML page) makes the discovery checks Not checked, needs configuration, naming the header and the answer, never Failed, and the refusal's status and shape (a JSON-RPC error, a bare 401 or 403, or something a client cannot act on, which carries a hint) are kept; " +
      "no HTTP answer at all is Failed as for any server. Refused and gated servers count as reached and up for uptime and wait a day between probes. " +
      "The server JSON carries configuration {needed, headers, reach, refusal}, the list filters by ?reach=, and the census counts these servers by reach. " +
      "Which clients can connect: clients that send initialize first (the TypeScript SDK by default, the MCP Inspector, every 2025-era client) and clients that send server/discover first and fall back once (the Python SDK v2, the C# SDK 2, the Go SDK 1.7, and this probe) are told apart. " +
      "After a modern handshake, the same probe sends one legacy handshake to the same remote (initialize, notifications/initialized, the first tools/list page, and a DELETE only for a session the server handed out), through the same per-host bounds and Crawl-delay, kept as an exchange group of its own; it moves no check, badge, uptime or incident, and a legacy server gets nothing extra. " +
      "Each server carries clients {initializeFirst, discoverFirst}, each yes, no or unknown (and yes_after_fallback for a legacy server reached after the fallback), with a sentence that names the answer when it is no; the page shows one line per kind of client, the list filters by ?initializeFirst=, and the census counts both per state.",
    zh:
      "可达性：注册表条目里列了必填请求头、或请求头的值含有 {占位符}（例如 Bearer {api_key}）的服务端，不再一个请求都收不到。" +
      "它和其他服务端一样接受探测，只是不带这些请求头（探测器从不发送注册表里的请求头或其值），探测的是忽略请求头时按远程端点规则选出的那一个；只有没有默认值的 URL 变量仍会让探测一个请求都不发，因为根本没有地址可发。" +
      "即使不带请求头也完成了握手和工具列表读取的服务端，按普通服务端评判，原因里会写明它在缺少该请求头时也作了应答；带合法质询的 401 按凭据拦截处理；" +
      "其余结束发现过程的应答（4xx、5xx、JSON-RPC 错误、HTML 页面）使发现类检查记为未检查（需要配置），原因里写出缺少的请求头和对方的应答，绝不记为未通过；拒绝的状态码和形式（JSON-RPC 错误、不带内容的 401 或 403、或客户端无从处理的形式，后者附修改提示）都会保留；" +
      "完全没有 HTTP 应答的，和任何服务端一样记为未通过。被拒绝或遇到凭据拦截的服务端，在可用率里算作已到达且在线，两次探测之间相隔一天。" +
      "服务端 JSON 增加 configuration {needed, headers, reach, refusal}，列表可按 ?reach= 筛选，全站统计按可达性分类计数这些服务端。" +
      "哪些客户端能连上：区分先发 initialize 的客户端（默认设置下的 TypeScript SDK、MCP Inspector、所有 2025 年代的客户端）和先发 server/discover、失败后回退一次的客户端（Python SDK v2、C# SDK 2、Go SDK 1.7，以及本探测器）。" +
      "新版握手完成后，同一次探测会向同一个远程端点再发一次旧版握手（initialize、notifications/initialized、tools/list 的第一页；只有服务端发了会话时才发一个 DELETE），同样遵守每台主机的并发上限和 Crawl-delay，并作为单独的一组交互留作证据；它不改变任何检查、徽章、可用率或故障记录，旧版服务端不会多收到任何请求。" +
      "每个服务端带有 clients {initializeFirst, discoverFirst}，取值为 yes、no 或 unknown（旧版服务端在回退之后连上时为 yes_after_fallback），为 no 时附一句话写明服务端的应答；页面为每类客户端显示一行，列表可按 ?initializeFirst= 筛选，全站统计按状态分别计数。",
  },
  {
    version: "0.14.0",
    date: "2026-12-01",
    en:
      "Observations on tool definitions: every string of a complete read's tool list (names, titles, descriptions, annotations, every key and string value of inputSchema and outputSchema, _meta) and the server's instructions are looked at for Unicode tag characters outside a subdivision flag (decoded and shown), bidirectional overrides and isolates, invisible characters and runs of them, runs of variation selectors, and control characters; " +
      "for a few narrow English phrases (asking the model to keep something from the user, or to set aside earlier instructions), a secret file path with a request to hand on its contents in the same sentence, and base64 that decodes to readable text; " +
      "and for the spec facts of tool names (format, duplicates differing only by case) and annotations (readOnlyHint with destructiveHint, hints that are not booleans). " +
      "Each is a fact with its JSON pointer and an offset in code points, shown beside its tool, in the JSON, the self-test and /mcp, and counted on the census; none moves a state, badge, uptime or incident. " +
      "Annotations are shown as declared, with the spec's defaults for absent hints. The tool history now records the serverInfo.version of each read and says when a definition changed while it stayed the same.",
    zh:
      "工具定义上的观察：对完整读取到的工具列表里的每个字符串（名称、标题、说明、注解、inputSchema 与 outputSchema 中的每个键和字符串值、_meta）以及服务端的 instructions，检查行政区旗帜之外的 Unicode 标签字符（解码并显示）、双向覆盖与隔离控制符、不可见字符及其连串、连串的变体选择符和控制字符；" +
      "检查几条措辞很窄的英文短语（要求模型对用户隐瞒，或抛开先前的指令）、同一句里的密钥文件路径与交出其内容的要求，以及解码后是可读文字的 base64；" +
      "并检查规范层面关于工具名称（格式、只有大小写不同的重名）和注解（readOnlyHint 与 destructiveHint 同时为真、非布尔值的提示）的事实。" +
      "每条都是附 JSON 指针和按码位计偏移的事实，显示在对应工具旁、JSON、自测、/mcp 里，并计入全站统计；它们不改变任何状态、徽章、可用率或故障记录。" +
      "注解按服务端的声明显示，未声明的提示显示规范的默认值。工具历史现在记下每次读取的 serverInfo.version，定义变了而版本号没变时会写明这一点。",
  },
  {
    version: "0.13.0",
    date: "2026-12-01",
    en:
      "Every listed remote of a server is kept and shown with its standing: the one probed is the first, in registry order, that needs no configuration (streamable-http before sse), with URL variables filled in from their defaults; " +
      "a remote needs configuration when a URL variable has no default, a header is marked required, or a header value holds a {placeholder}, while an optional header alone (secret or not) no longer stops a probe, and a server needs configuration only when all its remotes do. " +
      "A failure at the network level may be the probe's own: a server that completed a handshake before and now fails that way is probed a second time at least a minute later in the same round before Failed is recorded, " +
      "and when more than half of the hosts tried (at least 20) fail at the network level, well above their usual share, the round stops starting probes, and the servers it failed on meanwhile are Not checked, due again next round with no back-off. " +
      "A Failed or Observed-risk check whose evidence matches a known misconfiguration (a 403 naming an Invalid Host, a redirect, a remote listed under the wrong transport, an expired, misnamed or unverifiable certificate, a refused connection, a name that does not exist, a 406 or 415) carries a one-sentence hint on what to change; " +
      "https probes record the certificate's issuer and expiry, and the page warns when fewer than 14 days remain; " +
      "a -32023 error (rate limited, a draft proposal) is read as a request to slow down, its data.retryAfterMs like Retry-After, and a -32022 listing data.supportedVersions is read like one listing data.supported.",
    zh:
      "服务端登记的每个远程端点都会保留下来，并标出各自的处境：按注册表中的顺序，取第一个无需配置的远程端点来探测（streamable-http 优先于 sse），URL 里的变量若有默认值就先填上；" +
      "URL 变量没有默认值、请求头被标为必填、或请求头的值里含有 {占位符} 时，该远程端点需要配置；只有可选的请求头（不论是否保密）不再妨碍探测；只有当全部远程端点都需要配置时，服务端才算需要配置。" +
      "网络层面的失败可能出在探测器自己这一侧：此前完成过握手、这次却在网络层面失败的服务端，会在同一轮里至少隔一分钟再探测一次，两次都失败才记为未通过；" +
      "若一轮里尝试过的主机不少于 20 个、其中超过一半在网络层面失败且远高于平时的比例，本轮不再启动新的探测，这期间失败的服务端记为未检查，下一轮照常到期，不做退避。" +
      "未通过或观察到风险的检查，若其证据与已知的配置错误完全吻合（403 响应说 Invalid Host、重定向、远程端点登记的传输方式不对、证书过期或名称不符或无法验证签发者、连接被拒、域名不存在、406 或 415），会附上一句修改提示，说明该改什么；" +
      "https 探测会记下证书的签发者和到期时间，剩余不足 14 天时页面会提醒；" +
      "-32023 错误（限流，尚处草案阶段）按放慢请求处理，其中的 data.retryAfterMs 与 Retry-After 同样对待；带 data.supportedVersions 的 -32022 与带 data.supported 的同样解读。",
  },
  {
    version: null,
    date: "2026-12-01",
    en: "The overall state on server pages, badges, the index and in the JSON now follows the rule written for it: Failed if any check failed, else Observed risk if any check showed a risk, else Verified only when the handshake completed and the tool list was read, else Not checked with the kind of its first unchecked discovery check. Before, one Verified check was enough, so a server behind a credential gate whose metadata was fine showed Verified although nobody could read it. Cross-read differences that the probe's own rules explain (a modern decline, a 5xx or redirect on server/discover, a discover result listing only newer revisions, a slow-down, an opt-out) no longer raise the cross_read alert.",
    zh: "服务端页面、徽章、首页列表和 JSON 里的总体状态，现在按为它写下的规则来定：有一项未通过即为未通过；否则有一项观察到风险即为观察到风险；否则只有握手完成、工具列表也读到了才算已通过；其余为未检查，并注明第一项未检查的发现类检查属于哪种情况。此前只要有一项已通过，总体就显示已通过，于是凭据拦截之后、元数据没有问题的服务端也显示已通过，尽管谁都读不到它。探测器自身规则能解释的交叉读取差异（新版握手被有意拒绝、server/discover 返回 5xx 或重定向、discover 结果只列出更新的修订、被要求放慢、主机已退出探测）不再触发 cross_read 告警。",
  },
  {
    version: "0.12.0",
    date: "2026-11-30",
    en: "auth_metadata is Observed risk when the metadata is a JSON object a client cannot use (no string resource; a resource that does not cover the server's URL, judged by the official SDK client's rule of same origin and a path the server's path starts with; no authorization server listed), and when a 401 or 403 carried a WWW-Authenticate that is not a valid challenge while no valid challenge appeared anywhere in the probe.",
    zh: "元数据虽是 JSON 对象、客户端却用不上时，「鉴权元数据」检查记为观察到风险：没有字符串形式的 resource；resource 覆盖不到服务端的 URL（按官方 SDK 客户端的规则：同源，且服务端路径以 resource 的路径开头）；或一个授权服务器都没列出。401 或 403 响应带了 WWW-Authenticate、却不是结构合法的质询，而整个探测过程中也没见到任何合法质询时，同样记为观察到风险，并写明解析出错的地方。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "When a retry with initialize, made because a 2026-07-28 session's tools/list was refused, also fails, the completed modern handshake now stands: handshake and protocol_version stay Verified, and tools_list is Failed with the tools/list answer and the failed retry in its reason.",
    zh: "2026-07-28 会话里 tools/list 被拒、改用 initialize 重试也失败时，已经完成的新版握手不再被抹掉：「握手」和「协议版本」检查仍为已通过，「工具列表」检查记为未通过，原因里写明 tools/list 的响应和那次失败的重试。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "A tool list read to its end counts as a complete read even when its definitions are malformed (Observed risk): it sets the last successful read and counts toward coverage, tool snapshots and tool history.",
    zh: "读到末尾的工具列表，哪怕其中的定义有问题（观察到风险），也算一次完整读取：会更新“最近一次完整读取”，并计入覆盖数、工具快照和工具历史。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "When the probe's own per-server deadline runs out while the server is still answering tool-list pages in time, tools_list is Not checked with the pages read so far instead of Failed; a single request that times out is still Failed.",
    zh: "服务端每一页都按时响应、却是探测自身的单服务端时限先用完时，「工具列表」检查记为未检查并写明已读页数，不再记为未通过；单个请求超时仍记为未通过。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "A 4xx answer to server/discover whose body cannot be read (cut short, wrongly encoded, reset mid-body) now falls back to initialize like any other 4xx; only 2xx, 3xx and 5xx answers that cannot be read count as transfer failures.",
    zh: "server/discover 收到响应体读不出来的 4xx 响应（被截断、编码损坏、中途断开）时，和其他 4xx 一样回退到 initialize；只有读不出来的 2xx、3xx、5xx 响应才算传输失败。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "A metadata host whose robots.txt disallows our user agent gets no request beyond that robots.txt; auth_metadata is Not checked with that reason.",
    zh: "元数据所在主机的 robots.txt 禁止本站探测器时，除 robots.txt 本身外不再向该主机请求任何内容；「鉴权元数据」检查记为未检查并写明原因。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "Schedules follow the verdict: a credential gate on the tool list waits at least 24 h, tool-list failures after a good handshake back off 6, 12 and 24 h, healthy servers are probed at least every 6 h, and a slow-down from a metadata host no longer delays the MCP server itself.",
    zh: "探测间隔跟着结论走：工具列表被凭据拦截时至少隔 24 小时；握手成功而工具列表失败时按 6、12、24 小时退避；健康的服务端最长 6 小时探测一次；元数据主机要求放慢时，不再推迟 MCP 服务端本身的探测。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "A server/discover result listing only revisions newer than 2026-07-28 is no longer read as a legacy signal: no initialize is sent, handshake is Verified and protocol_version Failed, naming what the server offered.",
    zh: "server/discover 的结果只列出比 2026-07-28 更新的版本时，不再被当成旧版信号：不会发送 initialize，「握手」检查记为已通过，「协议版本」检查记为未通过，并列出服务端给出的版本。",
  },
  {
    version: null,
    date: "2026-11-30",
    en: "Reasons no longer contradict the recorded exchanges: a 401 whose WWW-Authenticate cannot be parsed is described as such rather than as carrying no challenge, and when initialize answers with 2026-07-28 the reason says that revision is agreed through server/discover instead of claiming the probe speaks it.",
    zh: "原因说明不再和记录下来的交互相矛盾：WWW-Authenticate 无法解析的 401 会照实描述，不再说成没有质询；initialize 响应里写着 2026-07-28 时，原因会说明该版本要经由 server/discover 商定，不再自相矛盾地说探测器支持它。",
  },
  {
    version: "0.11.0",
    date: "2026-10-06",
    en: "A metadata URL on another host that asked not to be probed is not fetched; auth_metadata is Not checked with that reason.",
    zh: "质询指向的元数据 URL 若位于已要求停止探测的其他主机上，不再抓取；「鉴权元数据」检查记为未检查并写明原因。",
  },
  {
    version: "0.10.0",
    date: "2026-10-01",
    en: "A 2xx answer to server/discover that is neither a discover result nor -32020/-32021/-32022 now falls back to initialize.",
    zh: "server/discover 得到既不是发现结果、也不是 -32020/-32021/-32022 的 2xx 响应时，改为回退到 initialize。",
  },
  {
    version: null,
    date: "2026-09-26",
    en: "The reserved-tool call is also withheld when the handshake or tool list is stopped by a credential gate; auth_metadata then reads the gate's own challenge.",
    zh: "握手或工具列表被凭据拦截时，同样不发保留工具调用；「鉴权元数据」检查改读拦截响应自带的质询。",
  },
  {
    version: null,
    date: "2026-09-23",
    en: "The reserved-tool call is withheld when the tool list could not be read, pages remain unread, or the list contains the reserved name.",
    zh: "读不到工具列表、列表还有未读页，或列表含保留名时，不发保留工具调用。",
  },
];
