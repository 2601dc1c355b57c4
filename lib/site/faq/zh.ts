import { CHECK_LABELS, STATE_LABELS } from "../labels";
import { LEGACY_REVISIONS, MODERN_REVISION, RESERVED_TOOL_NAME } from "../../probe/protocol";
import { faqPath } from "../paths";
import {
  CERTIFICATE_WARN_DAYS,
  FRESH_CLONE,
  GOOD_REFUSAL,
  INVALID_HOST_BODY,
  RATE_LIMITED_BODY,
  INVALID_CHALLENGES,
  LEGACY_DECLINE_BODY,
  LIMITS,
  MCP_CLIENT_CONFIG,
  METADATA_EXAMPLE,
  OPT_OUT_COMMANDS,
  RESERVED_CALL,
  ROBOTS_EXAMPLE,
  ROBOTS_PATH_EXAMPLE,
  ROBOTS_TOKEN,
  SELF_TEST_CLI,
  SELF_TEST_CURL,
  USER_AGENT_EXAMPLE,
  VALID_CHALLENGES,
  WEBHOOK_EXAMPLE,
} from "./facts";
import { explainedBlocks, overallBlocks } from "./headline";
import { OBSERVATIONS_PAGE_ZH } from "./observations";
import { CLIENTS_PAGE_ZH } from "./clients";
import type { FaqBook, FaqChrome, FaqSlug } from "./types";

const S = STATE_LABELS.zh;
/** Check names are used as names: 「握手」检查. */
const C = Object.fromEntries(Object.entries(CHECK_LABELS.zh).map(([k, v]) => [k, `「${v}」`])) as typeof CHECK_LABELS.zh;
const at = (slug: FaqSlug, anchor?: string) => `${faqPath("zh", slug)}${anchor ? `#${anchor}` : ""}`;
const TABLE_HEAD = ["探测器看到的情况", "状态", "服务端该怎么做"];

/** Reasons for the invalid header examples, in Chinese; same order as INVALID_CHALLENGES. */
const INVALID_WHY = [
  "引号字符串没有结束",
  "含空格的值必须加引号",
  "JSON 不是认证方案名",
  "同一质询里参数重复",
  "参数缺少名称",
  "方案名必须是不带引号的 token",
];

export const FAQ_CHROME_ZH: FaqChrome = {
  indexTitle: "常见问题",
  indexLede: "每种状态如何判定、探测器会发什么不会发什么、修复后多久能在页面上看到，以及如何让探测器不再访问你的主机。",
  pagesHeading: "页面",
  rulesHeading: "全部规则及其说明位置",
  rulesLede: "每一行是探测器和本站遵循的一条规则，链接直达解释它的段落或表格行。",
  otherLanguage: "English",
  otherLanguageLabel: "阅读本页英文版",
  changesSince: (d) => `本页首次发布（${d}）以来的规则变化`,
  noChangesSince: (d) => `本页首次发布（${d}）以来规则没有变化。`,
  unversioned: "未升版本号",
  suite: (v) => `套件 ${v}`,
  currentSuite: (v) => `当前检查套件版本为 ${v}。`,
  backToIndex: "全部问题",
};

export const FAQ_ZH: FaqBook = {
  "observed-unsigned": {
    title: "状态代表什么，看到之后该做什么",
    summary: "从徽章点进来的读者先看这里：四种状态的含义、对服务端维护者的要求，以及状态不代表什么。",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `服务端页面上的每项检查都有一个状态、一句原因、判定时使用的套件版本，以及据以判定的 HTTP 往来记录。状态只说明：某个时刻，一个不带身份的探测器从外部看到了什么。它是观测记录，不是背书。`,
      },
      { h2: "四种状态", id: "states" },
      {
        table: {
          caption: "各状态的含义与处理方式",
          head: ["状态", "含义", "如果是你的服务端"],
          rows: [
            [`**${S.verified}**`, "最近一次探测时，规则得到满足。", "无需处理。"],
            [
              `**${S.failed}**`,
              "探测器遇到了客户端无法应对的行为：握手没有完成、双方没有共同的协议修订、工具列表读不出来。",
              `先读原因，再打开证据；用旁边的 curl 命令或[自测工具](${at("self-test")})复现；修好之后，看[修复何时显示](${at("schedule", "when-fix-shows")})。`,
            ],
            [
              `**${S.observed_risk}**`,
              "能用，但形式会让部分客户端出错：拒绝的格式不规范、工具定义有缺陷、元数据客户端用不了。",
              "有空时修复；原因里写明了具体形式。",
            ],
            [
              `**${S.not_checked}**`,
              "探测器没有看，或不被允许看：凭据拦截、主机已退出探测、服务端需要用户配置、被要求放慢、有意不发的调用、探测器自己的时间预算用完。",
              "一般无需处理。原因会说明属于哪种情况，这些情况本身都不算故障。",
            ],
          ],
        },
      },
      ...overallBlocks("zh"),
      { h2: "五项检查", id: "checks" },
      {
        table: {
          caption: "检查项（按页面显示顺序）",
          head: ["检查", "回答的问题", "说明页"],
          rows: [
            [`${C.handshake}（\`handshake\`）`, "客户端能否建立会话？", `[${C.handshake}](${at("handshake")})`],
            [
              `${C.protocol_version}（\`protocol_version\`）`,
              "双方是否商定了同一个协议修订？",
              `[${C.protocol_version}](${at("protocol-version")})`,
            ],
            [`${C.tools_list}（\`tools_list\`）`, "能否把工具列表完整读完？", `[${C.tools_list}](${at("tools-list")})`],
            [
              `${C.error_taxonomy}（\`error_taxonomy\`）`,
              "调用一个不存在的工具时，服务端的拒绝方式客户端能否处理？",
              `[${C.error_taxonomy}](${at("refusals")})`,
            ],
            [
              `${C.auth_metadata}（\`auth_metadata\`）`,
              "客户端能否从服务端给出的信息里找到登录方式？",
              `[${C.auth_metadata}](${at("auth-metadata")})`,
            ],
          ],
        },
      },
      { p: `前三项合称发现类检查。会话建立不起来，后两项也就无从谈起。` },
      { h2: "状态不代表什么", id: "is-not" },
      {
        ul: [
          "不是认证，也不是推荐。本站不为任何服务端担保，包括我们自己。",
          "不是安全审计。鉴权之后的内容探测器看不到；鉴权相关的检查只关心客户端能否得知如何登录。",
          `不是可用率。状态只描述最近一次探测，是一个时间点；历史条旁边的[可用率](${at("uptime")})才统计多天里的多次探测。`,
          "不是工具评测。探测器只读取工具定义，从不执行任何工具。",
        ],
      },
      { h2: "觉得判定有误时", id: "evidence" },
      {
        p: `在服务端页面打开该检查的证据：每一次请求和响应都列出方法、状态码、相关头部、响应体摘录，以及可以直接复制的 curl 命令。也可以在自己的机器上运行[自测工具](${at("self-test")})，结果与本站一致。如果是本站判错了，[更新记录](${at("changelog")})里有每一次带日期的更正。`,
      },
    ],
  },

  handshake: {
    title: "「握手」检查：先试新版，必要时退回 initialize 一次",
    summary: "server/discover 的各种响应分别导致什么、何时回退到 initialize、延后回退，以及我们自己已修复的一个缺陷。",
    firstPublished: "2026-11-30",
    body: [
      {
        p: `${MODERN_REVISION} 修订用 \`server/discover\` 建立会话，更早的修订（${LEGACY_REVISIONS.join("、")}）用 \`initialize\`。客户端想同时兼容两类服务端，只能先试一种，再根据响应判断。两种握手中任一种完成，${C.handshake}检查即为${S.verified}，原因里注明是哪一种。`,
      },
      { h2: "探测器先发什么", id: "modern-first" },
      {
        p: `按 ${MODERN_REVISION} 的格式 POST 一个 \`server/discover\`：\`_meta\` 中带齐协议版本、客户端信息和能力声明，请求头包括 \`MCP-Protocol-Version: ${MODERN_REVISION}\`、\`Mcp-Method: server/discover\` 和 \`Accept: application/json, text/event-stream\`。不带凭据，不带 \`Origin\`，也不跟随重定向。`,
      },
      { h2: "server/discover 的响应如何判读", id: "answers" },
      {
        table: {
          caption: "第一个响应及后续处理",
          head: TABLE_HEAD,
          rows: [
            {
              id: "discover-result",
              cells: [`discover 结果，且 \`supportedVersions\` 包含 ${MODERN_REVISION}`, `${S.verified}，新版会话`, "无需处理。"],
            },
            {
              id: "declined",
              cells: [
                "JSON-RPC 错误码 `-32020`、`-32021` 或 `-32022`，HTTP 状态码不限，JSON 或 SSE 均可",
                `三项发现类检查${S.failed}，原因中给出错误码和消息；不回退`,
                "服务端认出了新版握手，并明确拒绝。如果本应接受这类客户端，请按消息里的原因修正。",
              ],
            },
            {
              id: "slow-down",
              cells: [
                "429，或带 `Retry-After` 的 503",
                `尚未判定的检查一律${S.not_checked}（被要求放慢）`,
                `无需处理。本轮不再向该服务端发请求，下次探测[至少等到对方要求的时间](${at("schedule", "table")})。`,
              ],
            },
            {
              id: "fallback-4xx",
              cells: [
                '其他任何 4xx（400、401、403、404、405、406、415、422 等），响应体不是上述三个错误码：可能是 id 为 `"server-error"` 或 `null` 的 JSON-RPC 错误、一段 HTML，或者干脆为空',
                "回退到 `initialize`，由结束握手的响应定论",
                "无需处理。多数旧版服务端遇到不认识的方法就是这样响应的。",
              ],
            },
            {
              id: "unreadable-4xx",
              cells: [
                "响应体读不出来或解不开的 4xx：被截断、`Content-Encoding` 损坏、读到一半连接被重置",
                "仍然属于「不带那三个错误码的 4xx」，回退到 `initialize`",
                "对握手没有影响；不过响应体中途断掉本身也值得修。",
              ],
            },
            {
              id: "fallback-2xx",
              cells: [
                '2xx，但内容不是 discover 结果，也不带那三个错误码：`{"result":{}}`、`-32601` 错误、HTML 页面、缺少 `supportedVersions` 或只列出旧修订的结果',
                "回退到 `initialize`（套件 0.10.0）",
                "无需处理。",
              ],
            },
            {
              id: "transfer-failures",
              cells: [
                "重定向（不会跟随）、其他 5xx、超时、连接被拒或被重置，以及响应体读不出来的 2xx/3xx/5xx",
                `三项发现类检查${S.failed}，原因中写明缘由`,
                "在注册表登记的 URL 上直接提供服务，不要重定向，并在时限内响应。",
              ],
            },
          ],
        },
      },
      {
        p: `如果 discover 结果只列出比 ${MODERN_REVISION} 更新的修订，它仍是 discover 结果，不算旧版信号，详见[「协议版本」页](${at("protocol-version", "newer-only")})。`,
      },
      { h2: "回退之后：以握手最后收到的响应为准", id: "deciding-answer" },
      { p: `对 \`server/discover\` 的 401 或 404 只起指路作用，真正决定三项发现类检查的是 \`initialize\` 的响应：` },
      {
        table: {
          caption: "initialize 的响应",
          head: TABLE_HEAD,
          rows: [
            [
              "合法的 `InitializeResult`",
              `${S.verified}，旧版会话；随后探测器发送 \`notifications/initialized\`，带回服务端给的 \`Mcp-Session-Id\`，并在后续请求中附上 \`MCP-Protocol-Version\``,
              "无需处理。",
            ],
            [
              `401，且带有[结构合法](${at("credential-gate", "valid")})的 \`WWW-Authenticate\` 质询`,
              `${S.not_checked}，原因为「需要凭据」，即[凭据拦截](${at("credential-gate")})`,
              "如果本来就要求登录后才能发现工具，无需处理。",
            ],
            [
              "401，但没有质询，或质询无法解析",
              `${S.failed}：拒绝了却没给任何指引`,
              "返回客户端能解析的质询，或者允许匿名客户端完成发现。",
            ],
            ["其他情况：别的状态码、格式不对的结果、超时", `${S.failed}，原因中写明缘由`, "查看证据，原因里写明了收到的内容。"],
          ],
        },
      },
      { h2: "延后回退", id: "late-fallback" },
      {
        p: `实际中遇到过这样的服务端：\`server/discover\` 返回了规范的 ${MODERN_REVISION} 结果，但第一页 \`tools/list\` 却像旧版服务端拒绝陌生方法那样被拒。对这种情况，只要还没读到任何工具，探测器可以再回退到 \`initialize\` 一次。每次探测最多回退一次，这一点不变。`,
      },
      {
        ul: [
          `\`initialize\` 完成：按旧版会话继续，各项检查照常判定。`,
          `\`initialize\` 没有完成：已经观测到的结果不作废。${C.handshake}和${C.protocol_version}保持${S.verified}（${MODERN_REVISION}），会话仍记为新版；${C.tools_list}记为${S.failed}，以 \`tools/list\` 的响应为原因，并注明用 \`initialize\` 重试也失败了。`,
        ],
      },
      { h2: "HTTP+SSE 传输的服务端", id: "sse" },
      {
        p: `注册表中类型为 \`sse\` 的远程端点使用 2024-11-05 的 HTTP+SSE 传输。探测器按该传输的方式访问：先 GET，读取 \`endpoint\` 事件得到 POST 地址，再从事件流里读响应。检查项和状态与其他服务端相同。`,
      },
      { h2: "我们自己的缺陷（已修复）：只认 400 的回退", id: "our-bug" },
      {
        p: `探测器早期的一个版本只把 HTTP 400 当作旧版服务端的信号。于是，遵守规范、但对 \`server/discover\` 返回其他 4xx 的旧版服务端，三项发现类检查都被判为${S.failed}。这是我们的错，在这些页面 2026-09-14 首次发布之前就已修复：此后凡是不带那三个新版错误码的 4xx 都会转去 \`initialize\`，对状态码、错误码和 id 都没有特定要求。之后的放宽见[更新记录](${at("changelog")})，均有日期。`,
      },
      { h2: "规则为什么这么宽", id: "why-broad" },
      {
        p: `旧版服务端遇到不认识的方法时，响应长什么样取决于所用的框架。例如官方 Python SDK 1.x，在读到请求 id 之前就出错时，会把 id 填成 \`"server-error"\`，并在消息里列出自己支持的修订。下面是一个真实服务端对 \`server/discover\` 的原始响应：`,
      },
      { wire: LEGACY_DECLINE_BODY, label: "旧版服务端拒绝 server/discover（HTTP 400）" },
      {
        p: `还有一些服务端允许匿名调用 \`initialize\` 和 \`tools/list\`，其他方法一律要求令牌，于是陌生的 \`server/discover\` 得到 401。如果要求特定状态码、特定错误码、id 还必须对得上，这些服务端就全被挡在外面。另一个团队在大规模场景下吃过这个亏，[「覆盖数」页](${at("coverage", "lesson")})记录了他们付出的代价，以及我们因此改看什么指标。`,
      },
    ],
  },

  "protocol-version": {
    title: "「协议版本」检查：双方都会说的修订",
    summary: "什么算商定了修订、没有共同修订时怎么记，以及只列出更新修订的 discover 结果。",
    firstPublished: "2026-11-30",
    body: [
      {
        p: `探测器支持 ${MODERN_REVISION} 以及旧修订 ${LEGACY_REVISIONS.join("、")}。${C.protocol_version}检查看的是：握手最终是否落在其中某一个修订上。`,
      },
      { h2: "判定结果", id: "outcomes" },
      {
        table: {
          caption: "「协议版本」检查的结果",
          head: TABLE_HEAD,
          rows: [
            {
              id: "agreed",
              cells: [
                `discover 结果列出 ${MODERN_REVISION}，或 \`InitializeResult\` 给出探测器支持的某个旧修订`,
                `${S.verified}，原因中写明商定的修订`,
                "无需处理。",
              ],
            },
            {
              id: "no-common",
              cells: [
                `握手完成了，但给出的修订在这条路径上无法商定：\`InitializeResult\` 给出一个未知日期，或者给出 ${MODERN_REVISION}（这个修订只能经由 \`server/discover\` 商定）`,
                `${S.failed}，原因中列出服务端提供的修订`,
                "同时提供上面列出的至少一个修订；基于现行 SDK 的客户端都支持这些修订。",
              ],
            },
            {
              id: "newer-only",
              cells: [
                `discover 结果的 \`supportedVersions\` 只有比 ${MODERN_REVISION} 更新的修订，例如 \`["2027-01-15"]\``,
                `${C.handshake}${S.verified}，${C.protocol_version}${S.failed}并列出对方提供的修订；不发送 \`initialize\``,
                `在仍有客户端使用 ${MODERN_REVISION} 的这段时间里，把它保留在列表中。`,
              ],
            },
            {
              id: "not-discover",
              cells: [
                "结果里没有 `supportedVersions`，或只列出旧修订",
                `不算 discover 结果，探测器[回退](${at("handshake", "fallback-2xx")})到 \`initialize\``,
                "无需处理。",
              ],
            },
            ["发现类检查更早就已停止（握手失败、凭据拦截、退出探测）", `与${C.handshake}状态相同`, `见[「握手」页](${at("handshake")})。`],
          ],
        },
      },
      {
        p: `只列出更新修订的服务端是用新版格式响应的，显然不是旧版服务端；再发 \`initialize\` 只是多一次无用的请求。握手已经到达对方，只是两边找不到共同的修订。`,
      },
    ],
  },

  "tools-list": {
    title: "「工具列表」检查：把列表读完",
    summary: "分页、页数上限与游标循环、有缺陷的工具定义、什么是完整读取，以及探测器自身的时限。",
    firstPublished: "2026-11-30",
    body: [
      { h2: "列表怎么读", id: "pagination" },
      {
        p: `探测器发送 \`tools/list\`，只要响应里有 \`nextCursor\` 就继续请求下一页。在 ${MODERN_REVISION} 中，空字符串也是有效游标，会照常跟进；在旧修订中，空字符串表示列表结束。读满 ${LIMITS.pageCap} 页就停；收到一个已经发过的游标也停。`,
      },
      { h2: "判定结果", id: "outcomes" },
      {
        table: {
          caption: "「工具列表」检查的结果",
          head: TABLE_HEAD,
          rows: [
            { id: "verified", cells: ["所有页都读完，每个工具定义都合规", `${S.verified}，原因中给出工具数和页数`, "无需处理。"] },
            {
              id: "endless",
              cells: [
                `分页没有尽头：读了 ${LIMITS.pageCap} 页仍有 \`nextCursor\`，或游标重复出现`,
                `${S.observed_risk}；保留工具调用[不发](${at("withheld-call", "withheld")})`,
                "最后一页不要再返回 `nextCursor`；同一次列举中不要重复发出同一个游标。",
              ],
            },
            {
              id: "malformed",
              cells: [
                "工具定义有缺陷：缺少 `name`、`inputSchema` 不是对象、两个工具同名",
                `${S.observed_risk}，原因中点名有问题的工具；这次读取仍算完整读取`,
                "修正定义。客户端可能丢弃这些工具，甚至拒收整个列表。",
              ],
            },
            {
              id: "gate",
              cells: [
                `\`tools/list\` 返回 401，且带[合法质询](${at("credential-gate", "valid")})`,
                `${S.not_checked}，原因为「需要凭据」，见[工具列表上的凭据拦截](${at("credential-gate", "tool-list-gate")})`,
                "如果工具本来就要求登录后才能查看，无需处理。",
              ],
            },
            {
              id: "deadline",
              cells: [
                `每页都按时返回，但页数太多，探测器给每个服务端的 ${LIMITS.deadlineSeconds} 秒预算先用完了`,
                `${S.not_checked}，原因中给出已读页数`,
                "服务端没有问题；每页多放些工具、减少页数，列表就能读完。",
              ],
            },
            {
              id: "request-timeout",
              cells: ["某一个 `tools/list` 请求在时限内没有响应", `${S.failed}，原因中写明超时`, "每一页都要及时响应。"],
            },
            {
              id: "error",
              cells: [
                "HTTP 错误、JSON-RPC 错误、响应体不是一页工具、`nextCursor` 不是字符串",
                `${S.failed}，原因中写明缘由（新版会话可能先尝试[延后回退](${at("handshake", "late-fallback")})）`,
                "查看证据，原因里写明了是哪一页、收到了什么。",
              ],
            },
            ["429，或带 `Retry-After` 的 503", `${S.not_checked}，被要求放慢`, "无需处理。"],
          ],
        },
      },
      { h2: "探测器的时限不等于请求超时", id: "time-limits" },
      {
        p: `这里有两种时限，含义不同。单个请求必须在 ${LIMITS.requestSeconds} 秒内开始响应，做不到就是服务端的问题，记为${S.failed}。对一个服务端的整次探测必须在 ${LIMITS.deadlineSeconds} 秒内结束，这是我们为自己定的预算，防止单个服务端拖住整轮。预算用完时如果服务端仍在按时一页页返回，列表只是没读完，错不在服务端，所以记为${S.not_checked}。`,
      },
      { h2: "什么是完整读取", id: "complete-read" },
      {
        p: `完整读取指工具列表一直读到最后一页，结果为${S.verified}，或因工具定义有缺陷而为${S.observed_risk}。本站所说的「读取成功」只有这一个含义：服务端页面上的「上次成功读取」、每日覆盖数、保存的工具快照和工具变更历史，统计的都是完整读取。分页没有尽头的列表、被时限截断的列表，都不算完整读取。`,
      },
      { h2: "工具变更历史", id: "history" },
      {
        p: `每次完整读取得到的列表都会计算哈希。哈希一变，就记录差异：新增和删除了哪些工具，以及有变化的工具里哪些字段路径变了（例如 \`inputSchema.properties.limit\`），并显示在服务端页面和[变更页](/changes)上。`,
      },
    ],
  },

  refusals: {
    title: "「错误分类」检查：服务端怎样拒绝",
    summary: "调用一个不存在的工具时，响应可能是什么样子，哪些形式客户端能够处理。",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `客户端出问题，往往出在拒绝上，而不是正常响应上。为了看服务端怎样拒绝，探测器请它执行一个不可能存在的工具（见[保留工具调用](${at("withheld-call")})），再把响应归入某个状态。HTTP 状态码无关紧要，关键是响应体的形式。`,
      },
      { wire: RESERVED_CALL, label: "探测器发出的调用" },
      { h2: "响应与状态", id: "answers" },
      {
        table: {
          caption: "保留工具调用的响应",
          head: ["收到的响应", "状态", "服务端该怎么做"],
          rows: [
            {
              id: "jsonrpc-error",
              cells: [
                "格式正确的 JSON-RPC 错误：有 `jsonrpc`、请求的 `id`，`error` 中有整数 `code` 和字符串 `message`；JSON 或 SSE 均可；HTTP 状态码不限",
                `${S.verified}，原因中给出错误码`,
                "无需处理。规范为未知工具指定的错误码是 `-32602`，用别的错误码也算规范的拒绝。",
              ],
            },
            {
              id: "pre-dispatch",
              cells: [
                "单纯的 401 或 403，响应体不论",
                S.verified,
                "无需处理。请求在到达 MCP 处理程序之前就被鉴权层拦下，这说明不了处理程序的错误格式好坏。",
              ],
            },
            {
              id: "is-error",
              cells: [
                "带 `isError: true` 的 JSON-RPC 结果",
                `${S.verified}，原因中注明用的是工具错误通道而不是 \`-32602\``,
                "不强制修改。很多 SDK 都这样响应，客户端也能处理。",
              ],
            },
            {
              id: "slow-down",
              cells: ["429，或带 `Retry-After` 的 503", `${S.not_checked}，被要求放慢`, "无需处理；本轮探测器不再向该服务端发请求。"],
            },
            {
              id: "malformed",
              cells: [
                '其他任何拒绝：HTML 错误页、带堆栈信息的 500、没有 `jsonrpc` 字段的 `{"error":"nope"}`、空响应体',
                `${S.observed_risk}，原因中描述具体形式`,
                "改用 JSON-RPC 错误对象。客户端从这些形式里看不出出了什么错，可能直接抛异常。",
              ],
            },
            {
              id: "success",
              cells: [
                "成功结果，就像这个工具真的存在",
                S.observed_risk,
                "这根本不是拒绝：服务端声称执行了一个列表里没有的工具。应当拒绝未知的工具名。",
              ],
            },
          ],
        },
      },
      { wire: GOOD_REFUSAL, label: "规范的拒绝" },
      { h2: "为什么不只分通过和不通过", id: "why" },
      {
        p: `正确地拒绝是服务端的本分，所以拒绝本身从不记为${S.failed}。如果把各种形式混为一谈，要么冤枉了鉴权层先响应的服务端，要么让堆栈信息和干净的 \`-32602\` 得到同样的标记。分开记录，读者才能判断哪些情况会影响自己要接入的客户端。`,
      },
    ],
  },

  "withheld-call": {
    title: "保留工具调用，以及何时不发",
    summary: "探测器唯一会调用的工具名，以及不发这次调用的全部条件。",
    firstPublished: "2026-09-23",
    body: [
      { h2: "保留工具调用", id: "reserved-call" },
      {
        p: `探测器只发一次 \`tools/call\`，工具名为 \`${RESERVED_TOOL_NAME}\`，参数为 \`arguments: {}\`。它从不调用其他任何工具，因此你的服务端上不会有任何工具因探测而执行。这次调用的响应决定${C.error_taxonomy}检查的结果（见[判定表](${at("refusals", "answers")})）。`,
      },
      { h2: "什么情况下不发", id: "withheld" },
      { p: `只有在安全且有意义时才发这次调用；否则${C.error_taxonomy}记为${S.not_checked}，原因中写明是哪一条：` },
      {
        table: {
          caption: "不发调用的条件",
          head: ["条件", "为什么不发"],
          rows: [
            ["工具列表没有读出来", "没有列表，无法确认这个名字不存在。"],
            ["列表还有页没读（被截断、没有尽头或时间用完）", "保留名可能就在没读到的那一页上。"],
            [`列表里确实有名为 \`${RESERVED_TOOL_NAME}\` 的工具`, "调用它会执行一个真实的工具。"],
            [
              `握手或工具列表遇到了[凭据拦截](${at("credential-gate")})`,
              `调用过不了鉴权；${C.auth_metadata}检查改为读取拦截时给出的质询。`,
            ],
            ["服务端要求放慢", "本轮不再向它发任何请求。"],
            ["握手失败", "没有会话，无从调用。"],
          ],
        },
      },
      { h2: "如果你的服务端真有这个工具", id: "collision" },
      {
        p: `不会出问题：探测器在列表里看到这个名字，就不会去调用。你的服务端的${C.error_taxonomy}会一直是${S.not_checked}，原因中说明这一点。`,
      },
    ],
  },

  "credential-gate": {
    title: "需要登录的服务端：凭据拦截",
    summary: "握手或工具列表返回带合法质询的 401 时如何记录、什么是结构合法的质询，以及不合法的头部示例。",
    firstPublished: "2026-11-30",
    body: [
      {
        p: `探测器从不发送凭据。如果服务端在关键一步返回 401，并附上客户端能解析的 \`WWW-Authenticate\` 质询，本站称之为凭据拦截：服务端在告诉客户端如何登录，探测器到此为止。够不着的检查记为${S.not_checked}，原因为「需要凭据」。把发现放在登录之后的服务端就应该得到这个结果，不需要修。`,
      },
      { h2: "握手被拦截", id: "handshake-gate" },
      {
        p: `如果[结束握手的响应](${at("handshake", "deciding-answer")})就是这样的 401，那么${C.handshake}、${C.protocol_version}、${C.tools_list}都记为${S.not_checked}，保留工具调用不发，${C.auth_metadata}检查沿着这次拦截给出的质询继续。注意，仅仅是 \`server/discover\` 收到 401 并不构成拦截，它只会让探测器转去 \`initialize\`。`,
      },
      { h2: "工具列表被拦截", id: "tool-list-gate" },
      {
        p: `有些服务端允许任何人完成握手，从 \`tools/list\` 起才要求令牌。这时${C.handshake}和${C.protocol_version}为${S.verified}（附商定的修订），${C.tools_list}为${S.not_checked}（需要凭据），保留工具调用不发，${C.auth_metadata}检查读取工具列表响应里的质询。`,
      },
      { p: `两种情况下，下次探测都[至少在 24 小时之后](${at("schedule", "table")})。` },
      { h2: "401 却没有可用的质询", id: "no-challenge" },
      {
        p: `401 不带 \`WWW-Authenticate\`，或者带了却解析不了，客户端既不知道登录有没有用，也不知道去哪里登录。发生在握手上，记为${S.failed}（拒绝了却没给任何指引）。如果头部存在但格式有误，${C.auth_metadata}记为${S.observed_risk}（套件 0.12.0），原因中写明解析出错的地方，而不会说成「没有质询」。`,
      },
      { h2: "什么是结构合法的质询", id: "valid" },
      { p: `探测器按 RFC 9110 第 11.6.1 节的语法解析 \`WWW-Authenticate\`，与严谨的客户端做法一致：` },
      {
        ul: [
          "一个质询以认证方案开头（如 `Bearer`，不区分大小写），后面可以跟一个空格，再跟一个 token68，或者用逗号分隔的若干 `name=value` 参数。",
          '参数值可以是 token，也可以是引号字符串；引号字符串里可以有逗号、空格和 `\\"` 这样的反斜杠转义。',
          "一个头部可以用逗号隔开多个质询，头部本身也可以出现多次；空的列表项忽略不计。",
          "同一个质询里，参数名不能重复。",
        ],
      },
      { wire: VALID_CHALLENGES.join("\n"), label: "可以解析的头部" },
      {
        table: {
          caption: "无法解析的头部",
          head: ["实际发送的头部", "问题所在"],
          rows: INVALID_CHALLENGES.map(([h], i) => [`\`${h}\``, INVALID_WHY[i]!]),
        },
      },
      {
        p: `对 MCP 来说，有用的参数是 \`resource_metadata\`：它给出受保护资源元数据的 URL，${C.auth_metadata}检查接下来会去[抓取](${at("auth-metadata")})。`,
      },
    ],
  },

  "auth-metadata": {
    title: "「鉴权元数据」检查：客户端能否找到登录方式",
    summary: "跟随哪个质询、抓取元数据的各种结果，以及 0.12.0 新增的「元数据可用」判定。",
    firstPublished: "2026-09-14",
    body: [
      { h2: "跟随哪个质询", id: "source" },
      {
        p: `有凭据拦截时，用[拦截](${at("credential-gate")})给出的质询；否则用探测过程中第一个带合法质询的 401 或 403。一个质询都没见到，${C.auth_metadata}记为${S.not_checked}（服务端没有给出凭据质询）。找到质询后，探测器抓取一次其中的 \`resource_metadata\` URL，请求上的各项节制与其他请求相同。`,
      },
      { h2: "判定结果", id: "outcomes" },
      {
        table: {
          caption: "「鉴权元数据」检查的结果",
          head: TABLE_HEAD,
          rows: [
            {
              id: "no-metadata-url",
              cells: [
                "质询中没有 `resource_metadata` URL",
                `${S.not_checked}，附原因`,
                "加上 `resource_metadata`，客户端才能找到授权服务器。",
              ],
            },
            {
              id: "opted-out-host",
              cells: [
                "元数据 URL 所在主机已退出探测（运维名单或 `robots.txt`，套件 0.11.0）",
                `${S.not_checked}；不向该主机抓取任何内容`,
                "无需处理。",
              ],
            },
            {
              id: "private-address",
              cells: ["元数据 URL 解析到私有地址或回环地址", `${S.not_checked}，附原因`, "把元数据放到公网地址上。"],
            },
            { id: "http-error", cells: ["返回 HTTP 错误状态码，或者重定向", S.observed_risk, "在你给出的 URL 上直接以 200 返回文档。"] },
            { id: "not-json", cells: ["响应体不是合法 JSON", S.observed_risk, "返回 JSON。"] },
            { id: "not-object", cells: ["是 JSON，但只是字符串、数字、布尔值、null 或数组", S.observed_risk, "返回 JSON 对象。"] },
            {
              id: "scope-mismatch",
              cells: [
                "质询的 `scope` 里有 `scopes_supported` 没列出的权限范围（没有 `scopes_supported` 时不比较）",
                S.observed_risk,
                "让两边的列表一致。",
              ],
            },
            {
              id: "no-resource",
              cells: [
                '（0.12.0）对象里没有字符串类型的 `resource`，例如 `{"detail":"Not Found"}`',
                S.observed_risk,
                "这不是受保护资源元数据，请返回真正的文档。",
              ],
            },
            {
              id: "resource-mismatch",
              cells: [
                `（0.12.0）\`resource\` [不覆盖服务端 URL](${at("auth-metadata", "covers")})`,
                S.observed_risk,
                "把 `resource` 设为服务端 URL，或同源下它的某个路径前缀。",
              ],
            },
            {
              id: "no-authorization-servers",
              cells: [
                "（0.12.0）没有 `authorization_servers`，或为空数组",
                S.observed_risk,
                "至少列出一个授权服务器，MCP 鉴权规范要求如此。",
              ],
            },
            {
              id: "unparseable-challenge",
              cells: [
                `（0.12.0）401 或 403 带有 \`WWW-Authenticate\`，但[无法解析](${at("credential-gate", "valid")})，整次探测中也没有别的合法质询`,
                `${S.observed_risk}，原因中写明解析问题`,
                "修正头部；客户端无法按解析不了的内容行事。",
              ],
            },
            {
              id: "slow-down",
              cells: [
                "元数据主机返回 429，或带 `Retry-After` 的 503",
                `${S.not_checked}，被要求放慢`,
                "无需处理；这不会改变 MCP 服务端自己的探测计划。",
              ],
            },
            {
              id: "verified",
              cells: [
                "JSON 对象，`resource` 覆盖服务端，有 `authorization_servers`，权限范围一致",
                `${S.verified}，原因中给出 resource 和授权服务器`,
                "无需处理。",
              ],
            },
          ],
        },
      },
      { wire: METADATA_EXAMPLE, label: "客户端可用的元数据" },
      { h2: "resource 何时覆盖服务端", id: "covers" },
      {
        p: `这与官方 MCP SDK 客户端在发起鉴权前做的判断相同：同源（协议、主机、端口都一致），并且服务端的路径以 resource 的路径开头。以 \`https://mcp.example.com/mcp\` 上的服务端为例：`,
      },
      {
        table: {
          caption: "服务端位于 https://mcp.example.com/mcp 时的 resource 取值",
          head: ["`resource`", "是否覆盖"],
          rows: [
            ["`https://mcp.example.com/`", "覆盖：同一个源"],
            ["`https://mcp.example.com/mcp`", "覆盖：URL 相同"],
            ["`https://mcp.example.com/other`", "不覆盖：路径不同"],
            ["`https://mcp.example.com/mcp/v2`", "不覆盖：比服务端路径更长"],
            ["`https://api.example.com/mcp`", "不覆盖：主机不同"],
            ["`http://mcp.example.com/mcp`", "不覆盖：协议不同，因而不同源"],
          ],
        },
      },
      { h2: "已退出探测的元数据主机", id: "opted-out-hosts" },
      {
        p: `元数据 URL 经常指向另一台主机，那台主机的意愿同样算数：它在运维名单上，或者它的 \`robots.txt\` 禁止 \`${ROBOTS_TOKEN}\`，探测器就不会向它抓取元数据（可能会读取它的 \`robots.txt\`），状态为${S.not_checked}。`,
      },
      { h2: "这项检查不评判什么", id: "not-a-verdict" },
      { p: `鉴权是否安全，从外部看不出来，本站也不做评判。这项检查只沿着遵循规范的客户端会走的路径走一遍，记录这条路能不能走通。` },
    ],
  },

  "which-servers": {
    title: "探测哪些服务端，以及需要配置的服务端",
    summary: "怎样读取注册表、探测哪一个远程端点、每个远程端点的处境、需要用户填值的远程端点，以及离开注册表的服务端。",
    firstPublished: "2026-11-30",
    body: [
      { h2: "来自注册表", id: "registry" },
      {
        p: `本站分页读取官方 MCP 注册表（\`/v0.1/servers?version=latest&limit=100\`，沿游标读到最后），只保留状态为 \`active\` 的条目，每个服务端名称一行。远程端点按登记时写明的传输方式探测：\`streamable-http\`，或者旧的 [HTTP+SSE 传输](${at("handshake", "sse")})对应的 \`sse\`。`,
      },
      {
        p: `本站每天完整读取一次所有分页（\`/v0.1/servers?version=latest&limit=100&include_deleted=true\`）；其间每小时按注册表对读取方的建议，只读取上次读取以来更新过的条目（\`updated_since\`）。每日完整读取中不再出现的服务端，视为已离开注册表。所有者也可以在注册表中把服务端标为 \`deprecated\`（弃用）或 \`deleted\`（删除）并附上说明：本站随即停止探测它，像其他离开注册表的服务端一样保留它的历史，并在它的页面上按原文展示所有者的说明。注册表的某一页超过 8 MB 时，本次读取中止，沿用之前的列表。`,
      },
      { h2: "探测哪一个远程端点", id: "which-remote" },
      {
        p: `一个注册表条目可以登记好几个远程端点，有的多达十八个。每一轮探测器只连其中一个：按注册表列出的顺序，取第一个无需配置的远程端点，\`streamable-http\` 的排在 \`sse\` 的前面。URL 里的变量若带默认值（例如 \`https://{region}.example.com/mcp\`，\`region\` 默认为 \`eu\`），就先把默认值填进去，探测的是填好之后的 URL。`,
      },
      { h2: "每个远程端点及其处境", id: "remotes" },
      {
        p: `服务端页面和它的 JSON（\`/api/servers/<name>\` 中的 \`remotes\`）会列出条目登记的每个远程端点，写明传输方式和三种处境之一：**已探测**；**需要配置**（附原因）；**未选用**，即它本身什么都不缺，只是同一服务端的另一个远程端点被选去探测了。传输方式是探测器不支持的远程端点不列入。`,
      },
      { h2: "什么情况下远程端点需要配置", id: "what-needs-configuration" },
      {
        ul: [
          `URL 里有某个 \`{变量}\`，条目却没给它默认值。`,
          `某个请求头标了 \`isRequired\`。探测器从不发送注册表条目里描述的请求头，必填的请求头也就无从满足。`,
          `某个请求头的值里含有 \`{占位符}\`，例如 \`Bearer {api_key}\`，哪怕这个请求头没标必填：值里留着空，说明要用户自己来填。`,
        ],
      },
      {
        p: `可选的请求头，不论是否保密，都不会让远程端点变成需要配置：匿名客户端不带它照样会去连接，探测器也一样。`,
      },
      { h2: "需要配置的服务端", id: "needs-configuration" },
      {
        p: `只有当服务端的全部远程端点都需要配置时，服务端才算需要配置。探测器手里没有这些缺失的值，也不会去编造。自套件 0.15.0 起，只有在没有任何远程端点有地址时（每个 URL 都有没有默认值的 \`{变量}\`）才一个请求都不发：所有检查记为${S.not_checked}，原因中写明缺了什么，不算宕机，每天重新看一次，以防注册表条目有变化。只缺请求头的服务端照样会被探测，见下一节。`,
      },
      { p: `如果你希望匿名客户端也能完成发现，请登记一个照原样就能访问的远程端点；否则无需处理。` },
      { h2: "不带密钥也去探测（0.15.0）", id: "reach" },
      {
        p: `真实注册表里一半以上的服务端都登记了密钥：标为必填的 \`X-Api-Key\` 之类的请求头，或者值里留着空的 \`Authorization\`。如果统统不去探测，连它们在不在线都说不出来。所以探测器现在发给它们的，就是 MCP 客户端在用户还没填密钥时会发的东西：普通的握手，不带这些请求头。这些请求头和它们的值从不发送，也不会编一个假的；探测的远程端点，就是按上面的规则在忽略请求头时会选中的那个。结果按对方的应答来定：`,
      },
      {
        ul: [
          `**照样应答。** 不带密钥也完成了握手和工具列表读取：按普通服务端评判，握手检查的原因里写明它在缺少注册表标为必填的请求头时也作了应答。`,
          `**凭据拦截。** 带合法 \`WWW-Authenticate\` 质询的 401：和任何服务端一样按[凭据拦截](${at("observed-unsigned", "states")})处理，并跟进质询指向的元数据。`,
          `**被拒绝。** 其余结束握手或工具列表读取的应答：4xx、5xx、JSON-RPC 错误、HTML 页面。发现类检查记为${S.not_checked}，类别为“需要配置”，原因里写出缺少的请求头和对方的应答。拒绝的状态码和形式会保留：JSON-RPC 错误或不带内容的 401、403，客户端能向用户解释；其余形式（HTML 页面、5xx、不是 JSON-RPC 的 JSON）会附一条修改提示：缺少密钥时请回 401 加质询，或回 JSON-RPC 错误。`,
          `**无法到达。** 完全没有 HTTP 应答（域名解析不了、连接被拒或被重置、TLS 失败、超时）：和任何服务端一样记为${S.failed}，照常做第二次探测和多区域表决。缺少密钥能解释被拒绝，解释不了没有应答。`,
          `**没有地址。** URL 里有没有默认值的 \`{变量}\`：什么都不发。`,
        ],
      },
      {
        p: `为什么缺少密钥从不让服务端记为${S.failed}：注册表条目自己就写明需要密钥，服务端拒绝没带密钥的客户端，正是它登记时说好的行为。把这算成故障，等于因为服务端按说明工作就把半个注册表标为宕机。本站仍然能说清、现在也会说清的是：服务端在不在，它的应答客户端能不能处理，以及它是否不带密钥也能应答。`,
      },
      {
        p: `被拒绝或遇到凭据拦截的服务端，在可用率里算作已到达且在线，一天后再探测；完整应答的按健康服务端的节奏探测；没有应答的和其他失败的服务端一样逐步退避。服务端 JSON 里有 \`configuration\`（\`needed\`、\`headers\`、\`reach\`、\`refusal\`），列表可按 \`?reach=\` 筛选，全站统计每天按可达性分类计数这些服务端。`,
      },
      {
        p: `读不出来的注册表条目（名称不是字符串、remotes 不是列表）会被跳过，并在本站日志里点名；条目中格式有误的部分（variables 不是对象、请求头名称不是合法的 HTTP token、远程端点超过五十个）会连同条目名称记入日志，该条目其余部分和注册表其余条目照常读取。`,
      },
      { h2: "离开注册表的服务端", id: "left" },
      { p: `服务端从注册表中消失后不再探测，但页面、历史结果和工具变更历史都保留，并标明已不在注册表中。` },
    ],
  },

  hints: {
    title: "修改提示：检查未通过时该改什么",
    summary: "未通过的检查能确切对上的配置错误、每种错误附带的那一句提示、证书信息，以及现在就能识别的新错误格式。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "检查什么时候带修改提示", id: "hints" },
      {
        p: `状态为${S.failed}或${S.observed_risk}的检查，如果决定它的那次交互与下表中的某种情形完全吻合，就会附上一条修改提示。提示只有一句话，说明该改什么；它显示在服务端页面上原因的下方，也出现在 JSON 的 \`checks.<id>.hint\` 中（\`hintCode\` 写明是哪种情形）。提示和检查结果存在一起，始终对应它所依据的证据。提示不会改变任何状态，只是把“失败了”变成“改这里”。`,
      },
      {
        p: `只认完全吻合的情形。证据对不上任何一种时，检查就不带提示，而不是去猜。三项发现类检查共用握手的证据，所以握手以这种方式失败时，三项检查会显示同一条提示。`,
      },
      { h2: "各种提示", id: "list" },
      {
        table: {
          caption: "探测器能识别的情形，以及每条提示要你做什么",
          head: ["证据显示的情况", "提示的内容", "原因"],
          rows: [
            {
              id: "hint-invalid-host",
              cells: [
                "403，响应体或 JSON-RPC 消息以 \`Invalid Host\` 开头",
                "把服务端对外使用的主机名加进它的 Host 白名单",
                "TypeScript SDK v2 的应用辅助函数默认只允许 localhost，按默认配置部署的服务端会拒绝所有用真实域名访问它的客户端",
              ],
            },
            {
              id: "hint-redirect",
              cells: [
                "带 \`Location\` 的 3xx（例如从 http 跳到 https，或从 \`/sse\` 跳到 \`/mcp\`）",
                "把它指向的 URL 登记为远程端点的 URL；若是元数据 URL，就让 \`resource_metadata\` 直接指向它",
                "探测器不跟随重定向，MCP 客户端发 POST 时也不会跟随",
              ],
            },
            {
              id: "hint-transport",
              cells: [
                "登记为 \`sse\`，GET 失败，同一 URL 却能完成 Streamable HTTP 握手；或登记为 \`streamable-http\`，POST 得到 404 或 405，GET 却打开一条写明端点的 2024-11-05 事件流",
                "按它实际使用的传输方式重新登记",
                "客户端依据登记信息选择传输方式，选错了，服务端再健康也连不上",
              ],
            },
            {
              id: "hint-tls",
              cells: [
                "TLS 证书已过期、写的是别的主机名，或签发者无法验证",
                "续期证书（提示里写明过期的日期）、换一张覆盖该主机的证书（提示里写明现有证书覆盖哪些名称），或提供由公共 CA 签发的完整证书链",
                "客户端在交换任何 MCP 消息之前就会拒绝这样的连接；最后一种情况通常是缺了中间证书",
              ],
            },
            {
              id: "hint-refused",
              cells: ["连接被拒绝", "确认服务端在那个主机和端口上运行，或在注册表中改正它们", "登记所指的位置没有程序接受连接"],
            },
            {
              id: "hint-nxdomain",
              cells: [
                "主机名不存在（解析器有应答，并说明没有这个名字）",
                "发布这条 DNS 记录，或在注册表中改正主机名",
                "解析器完全不应答时不给提示：那可能是探测器自身的网络出了问题",
              ],
            },
            {
              id: "hint-406-415",
              cells: [
                "对带着 \`Accept: application/json, text/event-stream\` 和 \`Content-Type: application/json\` 的 POST 回了 406 或 415",
                "接受规范要求客户端发送的这些请求头",
                "合规的客户端发的正是这些请求头；拒绝它们，就是拒绝所有客户端",
              ],
            },
          ],
        },
      },
      { h2: "一个例子", id: "example" },
      { wire: INVALID_HOST_BODY, label: "Host 白名单只允许 localhost 的服务端，从外部访问时的响应" },
      {
        p: `「握手」检查记为${S.failed}，原因里引用了这个 403 及其消息，提示要求把对外的主机名加入允许列表。除了这一项设置，服务端代码无需改动。`,
      },
      { h2: "什么时候不给提示", id: "no-hint" },
      {
        ul: [
          `消息内容不同的 403，或不带 \`Location\` 的重定向：确实被拒了，但没有已知的改法。`,
          `连接被重置、找不到证书可怪的 TLS 失败（https URL 上跑的是明文 HTTP），或解析器完全不应答。`,
          `后续请求绕过了的 406 或 415：检查并没有失败，而只有${S.failed}和${S.observed_risk}的检查才带提示。`,
        ],
      },
      { h2: "证书信息", id: "certificate" },
      {
        p: `每次探测 https URL，都会记下服务端出示的证书：签发者、主体和它覆盖的名称，以及到期时间。服务端页面显示剩余天数，不足 ${CERTIFICATE_WARN_DAYS} 天时给出提醒；JSON 中的 \`certificate\`（\`issuer\`、\`validTo\`、\`daysLeft\`、\`warn\`）包含同样的内容。这是五项检查之外的一项事实，不是第六项检查：离到期只剩两天的证书不会改变任何状态。`,
      },
      {
        p: `探测器拒绝的证书同样会记下来，并注明被拒的原因，所以过期证书的提示能写出它是哪一天过期的。证书被拒的连接上，探测器绝不发送任何请求。`,
      },
      { h2: "用 -32023 表示限流", id: "rate-limited" },
      {
        p: `一份草案提议为限流单独定义 JSON-RPC 错误 -32023，等待时长放在 \`data.retryAfterMs\` 中。探测器现在就能识别它：带 -32023 的响应，不论 HTTP 状态码是多少，都和 429 一样视为要求放慢。本轮不再向该服务端发送任何内容，\`data.retryAfterMs\` 与 \`Retry-After\` 响应头同样对待；两者都有时，取较长的那个等待时间。`,
      },
      { wire: RATE_LIMITED_BODY, label: "按草案格式返回的限流响应" },
      { h2: "带 supportedVersions 的 -32022", id: "supported-versions" },
      {
        p: `-32022（协议版本不受支持）在 \`data.supported\` 中列出服务端支持的修订。有些服务端把这份列表放在 \`data.supportedVersions\` 里；两种写法探测器都能读，原因里都会列出这些修订。`,
      },
    ],
  },

  "tool-observations": OBSERVATIONS_PAGE_ZH,
  clients: CLIENTS_PAGE_ZH,

  schedule: {
    title: "探测器何时再来，修复何时显示",
    summary: "各种结果之后的探测间隔、下次到期时间、「立即重新探测」按钮，以及轮次如何运行。",
    firstPublished: "2026-11-30",
    body: [
      { h2: "探测间隔", id: "table" },
      {
        table: {
          caption: "各种结果之后的下次探测时间",
          head: ["最近一次结果", "下次探测"],
          rows: [
            { id: "healthy", cells: ["健康", "30 分钟后；结果一直不变时间隔逐次翻倍，最长 6 小时，不会更久"] },
            { id: "backoff", cells: ["握手或工具列表失败", "6 小时后，再失败则 12 小时，之后一直是 24 小时"] },
            { id: "credential", cells: ["凭据拦截（无论在握手还是工具列表上）", "至少 24 小时后"] },
            { id: "slow-down", cells: ["被要求放慢（429，或带 `Retry-After` 的 503）", "至少等到服务端给出的 `Retry-After`"] },
            ["只有元数据主机要求放慢", "MCP 服务端自己的探测计划不变"],
            [`需要配置，或通过 \`robots.txt\` 退出探测`, "每天重新看一次"],
            [`因[探测器自身的网络](${at("own-network", "pause")})故障记为${S.not_checked}`, "下一轮就探测，不退避，失败次数保持不变"],
          ],
        },
      },
      { h2: "修复何时显示", id: "when-fix-shows" },
      {
        p: `修好之后，历史结果不会被清空，页面要等到该服务端下一次探测时才更新。服务端页面显示下次到期时间、上次探测时间和上次完整读取时间；\`/api/servers/<name>\` 的 JSON 中对应 \`nextDueAt\`、\`lastProbedAt\` 和 \`lastSuccessAt\`。连续失败之后，下一次探测可能在 24 小时之后，所以页面上提供了一个按钮。`,
      },
      { h2: "立即重新探测", id: "probe-again" },
      {
        p: `每个服务端页面都有「立即重新探测」按钮（英文界面为 **Probe again now**）。按下后会把这个注册表服务端排进队列探测一次（只针对注册表中的服务端，不接受任意 URL）；同一服务端每 15 分钟最多一次，全站每小时另有总量上限（默认 60 次；两项都由运维者通过 \`REPROBE_MIN_MINUTES\` 和 \`REPROBE_HOURLY_CAP\` 设置）。页面随后显示「已排队」，探测完成后显示探测时间；如果被限制拒绝，会说明是哪条限制。排队的探测与平常的探测完全相同：同一套代码、同样的请求节制和退出规则，写入同一份历史。`,
      },
      { h2: "轮次如何运行", id: "rounds" },
      {
        ul: [
          `每一轮探测所有到期的服务端，全局并发有上限，[每台主机](${at("opting-out", "per-host")})也有上限。`,
          "轮次由内置调度器（`PROBE_SCHEDULE`）启动，或由外部 cron 带着密钥调用 `POST /api/rounds` 启动；两轮不会同时进行。",
          "每个服务端的结果在一个事务中写入（一个事务可以包含一批服务端）。进程崩溃最多丢掉尚未写入的那一批，这些服务端在下一轮仍然到期。",
        ],
      },
    ],
  },

  uptime: {
    title: "可用率：哪些探测计入，按哪些天计算",
    summary: "历史条旁边和可用率徽章上的数字是怎么算出来的，哪些探测不计入，以及该怎样读这些数字。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "这个数字算的是什么", id: "definition" },
      {
        p: `可用率是：在到达了服务端的探测中，发现服务端正常的探测所占的比例。握手完成，或者停在了[凭据拦截](${at("credential-gate")})上，都算正常：要求登录的服务端正是在按自己的设计作答。握手失败则算不正常，例如连接被拒或超时、重定向或 5xx、不是 MCP 的响应、不带质询的 401，以及用 -32020、-32021 或 -32022 拒绝新版握手。`,
      },
      { h2: "不计入的探测", id: "left-out" },
      {
        ul: [
          "握手结束之前服务端就要求放慢（429，或带 `Retry-After` 的 503）：它确实回应了，但从中看不出它是否健康。",
          `主机要求不被探测（运维名单或 robots.txt 中的[退出](${at("opting-out")})）：一个请求都没有发。`,
          `注册表条目[需要配置](${at("which-servers", "needs-configuration")})：同样没有发请求。`,
          "探测器自己的网络出了问题：这是我们的故障，不是服务端的。",
        ],
      },
      { p: `这些探测既不算正常也不算不正常，所以探测次数少的服务端，不会因为这些没有提供信息的探测而被拉向 0 % 或 100 %。` },
      { h2: "只看握手", id: "handshake-only" },
      {
        p: `握手完成之后工具列表失败，或者与探测器没有共同的协议修订，这样的服务端仍算正常：它回应了。这些问题会在它的页面上显示为${S.failed}的检查，并开启一条[故障](${at("incidents")})记录；故障记录看的是全部三项发现类检查。`,
      },
      { h2: "四个时间窗口", id: "windows" },
      {
        table: {
          caption: "可用率的时间窗口",
          head: ["窗口", "计入哪些探测"],
          rows: [
            ["24 小时", "计算时刻之前 24 小时内开始的探测（探测记录保留 30 天）。"],
            [
              "7 天、30 天、90 天",
              "最近 7、30 或 90 个完整的 UTC 日（含今天）内的探测，取自按日保存的计数；探测记录本身删除后，这些计数仍然保留。90 天正是历史条上的那 90 天。",
            ],
          ],
        },
      },
      { h2: "怎样读这个数字", id: "reading" },
      {
        ul: [
          "比例只舍不入：一万次里漏掉一次，显示 99.99 %，而不是 100 %。",
          `每个数字旁边都写着它基于多少次探测。探测间隔从 30 分钟到 24 小时不等（见[调度](${at("schedule")})），所以 24 小时的数字可能只基于几次探测。`,
          "某个窗口内没有任何探测到达服务端时，页面会直接这样说明，而不是显示 0 % 或 100 %。",
          "开始统计可用率之前的日子没有计数，所以早期的 90 天数字基于的天数较少。",
        ],
      },
      { h2: "徽章与 JSON", id: "badge" },
      {
        p: `\`/badge/<registry name>?metric=uptime\` 是 30 天可用率的 SVG 徽章；加上 \`&window=24h\`、\`7d\` 或 \`90d\` 可换成其他窗口。同样的路径放在 \`/api/badge/\` 下，返回 shields.io 端点格式的 JSON。\`/api/servers/<registry name>\` 中的 \`uptime\` 含 \`last24h\`、\`last7d\`、\`last30d\` 和 \`last90d\`，每项为 \`{ratio, up, reached, from}\`：\`ratio\` 介于 0 和 1 之间，没有探测到达服务端时为 null。`,
      },
    ],
  },

  incidents: {
    title: "故障记录：何时开启，何时结束",
    summary: "服务端页面上的故障记录何时开启、何时结束、持续时间怎么算，以及在哪里可以看到这些记录。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "何时开启", id: "opens" },
      {
        p: `当某次探测发现一项发现类检查（${C.handshake}、${C.protocol_version}、${C.tools_list}）${S.failed}，而该服务端当时没有未结束的故障时，就开启一条故障记录。记录保存这项检查以及它在那次探测中的原因；如果同时有几项${S.failed}，按上面的顺序取第一项。`,
      },
      { h2: "何时结束", id: "closes" },
      {
        p: `之后第一次到达服务端、且三项都不是${S.failed}的探测（握手完成，或遇到凭据拦截）会结束这条记录。那些看不出服务端是否健康的探测（被要求放慢、退出探测、注册表条目需要配置、探测器自己的网络出问题）既不开启也不结束故障，所以故障会一直持续到这些探测之后。`,
      },
      { h2: "持续了多久", id: "duration" },
      {
        p: `持续时间从开启它的那次探测算到结束它的那次探测。真正的中断开始于最后一次正常探测之后的某个时刻，结束于重新正常的那次探测之前的某个时刻；失败之后，探测器会在 6 小时、12 小时、然后 24 小时后再来（见[调度](${at("schedule", "backoff")})），所以修复可能要过这么久才显示出来。服务端页面上的「立即重新探测」能让服务端一恢复就结束故障。`,
      },
      { h2: "在哪里查看", id: "where" },
      {
        ul: [
          "每个服务端页面上，按时间从新到旧，附持续时间和开启它的原因（尚未结束的会注明）。",
          "`/incidents` 页面列出所有服务端的故障，分页显示；加 `?server=<registry name>` 只看一个服务端。",
          "Atom 订阅 `/incidents/feed.xml`（开启时一条，结束时再一条；同样支持 `?server=`）。",
          "`/api/servers/<registry name>` 中的 `incidents`：`startedAt`、`endedAt`（未结束时为 null）、`durationMs`、`check`、`reason`、`openedRunId`、`closedRunId`。",
        ],
      },
      { h2: "故障记录与可用率", id: "uptime" },
      {
        p: `两者回答的问题不同。[可用率](${at("uptime")})统计握手成功的探测；故障记录看的是全部三项发现类检查。工具列表失败的服务端会有一条未结束的故障，可用率却依然很高；只是要求放慢的服务端，两者都不受影响。`,
      },
    ],
  },

  "self-test": {
    title: "用命令行探测器测试自己的服务端",
    summary: "从全新克隆开始：用本站同一套代码探测你的 URL，输出文本或 JSON。",
    firstPublished: "2026-11-30",
    body: [
      { h2: "从全新克隆开始", id: "clone" },
      { p: `需要 Node.js 24（长期支持版，推荐）或 Node.js 20，这是我们持续集成测试的两个版本。不需要数据库，也不会保存任何内容。` },
      { code: FRESH_CLONE, label: "全新克隆" },
      { h2: "选项", id: "options" },
      { code: SELF_TEST_CLI, label: "自测命令" },
      {
        ul: [
          "`--transport sse`：探测 2024-11-05 HTTP+SSE 传输的端点；默认为 `streamable-http`。",
          "`--json`：输出 `{url, suite, era, protocolVersion, checks: {<id>: {state, reason}}, exchanges: […]}`。",
          "`--opt-out <host>`（可重复）：把某台主机当作已退出探测，看看本站会怎样显示它。",
          "`--legacy`：一开始就发 `initialize`，完全不发 `server/discover`，和 2025 年的客户端一样。两个时代都支持的服务端，只有这样才能看到它走旧版路径的表现；本站自己的探测器在 discover 成功后不会走这条路。",
          "只要探测跑完，不论结果如何，退出码都是 0；用法错误时退出码为 2，并给出提示。",
        ],
      },
      { h2: "本机上的服务端", id: "local" },
      {
        p: `和本站一样，默认拒绝私有地址和回环地址。本地测试时设置 \`PROBE_ALLOW_PRIVATE_NETWORKS=1\`；这个变量名故意起得很醒目，本站自己从不设置它。`,
      },
      { h2: "用 curl 手动测试", id: "curl" },
      { p: `下面是一次探测的前两个请求，可以和服务端日志对照。服务端页面上的每一次请求也都附有对应的 curl 命令。` },
      { code: SELF_TEST_CURL, label: "用 curl 自测" },
    ],
  },

  "ask-over-mcp": {
    title: "用 MCP 客户端向本站查询",
    summary: "本站自己就是一个远程 MCP 服务端：三个只读工具、如何添加到客户端、错误输入会得到什么，以及请求频率限制。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "添加这个端点", id: "connect" },
      {
        p: `智能体在连接某个服务端之前，可以先通过 MCP 问一问本站。端点是本站地址下的 \`/mcp\`（Streamable HTTP），两个时代都支持：${MODERN_REVISION} 的客户端以 \`server/discover\` 开始，较早的客户端以 \`initialize\` 开始（${LEGACY_REVISIONS[0]} 及更早）。它不保留会话、不要求登录、不设置 cookie，所以负载均衡后面的任何一个站点副本都能回答任何请求。`,
      },
      { code: MCP_CLIENT_CONFIG, label: "MCP 客户端配置" },
      { p: "把地址换成本站的实际地址。有些客户端的顶层键名是 `servers` 而不是 `mcpServers`，类型也可能写作 `streamable-http`。" },
      { h2: "三个工具", id: "tools" },
      {
        table: {
          caption: "/mcp 上的工具",
          head: ["工具", "参数", "返回内容"],
          rows: [
            [
              "`get_server_status`",
              "`name`：注册表名称，例如 `io.github.owner/server`",
              "总体状态；五项检查各自的状态、原因和修改建议（hint）；协商出的修订；上次探测和上次完整读取的时间；可用率；以及服务端页面和 JSON 的链接。",
            ],
            [
              "`search_servers`",
              '`query`（名称或标题的一部分）、每项检查的状态筛选（如 `tools_list: "failed"`）、`includeLeft`、`page`、`pageSize`',
              "一页服务端，每个都带总体状态和五项状态，以及总共匹配多少个。列表和筛选条件与[首页](/)相同。",
            ],
            [
              "`recent_changes`",
              "`since`（日期或日期时间，默认 24 小时前）、只看一个服务端时的 `name`、`limit`",
              "状态发生变化的检查，以及发生变化的工具定义（新增、删除或某个字段改变），按时间从新到旧排列。",
            ],
          ],
        },
      },
      {
        p: `每个工具都只读取页面读取的数据，不会发起探测，也不写入任何内容，并在注解里声明这一点（\`readOnlyHint\`）。每个回答都有两份：一份是符合该工具公开输出模式的结构化内容，一份是给模型读的简短文字，其中用文字写出状态，列出每条原因和修改建议、相关时间，以及可以引用的页面。`,
      },
      { h2: "如何理解回答", id: "reading" },
      {
        p: `状态的含义与页面上完全相同。${S.not_checked}表示探测器没能查看（需要凭据、已退出探测、被要求放慢），并不是服务端的过错。总体状态的规则是：任何一项${S.failed}则为${S.failed}；否则任何一项${S.observed_risk}则为${S.observed_risk}；只有${C.handshake}完成并且读到了工具列表，才是${S.verified}。因此被凭据拦截的服务端总体上是${S.not_checked}，绝不会是${S.verified}。本站设置了 \`PUBLIC_BASE_URL\` 时，链接以它为基础生成。`,
      },
      { h2: "错误输入", id: "bad-input" },
      {
        ul: [
          "类型不对、缺少 `name`、传了工具没有的属性，或者 `query` 超过 200 个字符：返回工具错误（`isError: true`），指出是哪个字段、期望的是什么。本站不会去猜。",
          "本站不知道的注册表名称：返回工具错误，写出这个名称，并建议改用 `search_servers`。",
          "`pageSize` 超过 50 或 `limit` 超过 100 时按上限处理，回答的 `notes` 和文字里都会说明这一点。",
        ],
      },
      { h2: "请求频率限制", id: "rate-limit" },
      {
        p: `每个客户端地址一次最多可以发 60 个请求，之后每分钟恢复 120 个（IPv6 地址按整个 /64 计算）。超过限制时返回 HTTP 429，并在 \`Retry-After\` 中给出秒数；${MODERN_REVISION} 的客户端还会收到 JSON-RPC 错误 \`-32023\`（表示被限流，出自一份草案提案），附带 \`data.retryAfterMs\`，较早的客户端收到的是 \`-32000\`。这里的地址是与本站建立连接的那个地址；客户端自己写的 \`X-Forwarded-For\` 不予采信。\`/mcp\` 的回答从不被任何缓存保存。`,
      },
      { h2: "用自己的标准检验自己", id: "self-checked" },
      {
        p: `本站的测试套件会用[探测器](${at("self-test")})在两个时代分别探测自己的 \`/mcp\`（较早的时代用 \`--legacy\`），要求${C.handshake}、${C.protocol_version}、${C.tools_list}、${C.error_taxonomy}都是${S.verified}，${C.auth_metadata}是${S.not_checked}，因为没有任何地方要求凭据。测试套件还会用官方 MCP 一致性测试套件中与协议相关的场景来检验它。`,
      },
    ],
  },

  "json-and-badges": {
    title: "徽章、JSON、API 描述与指标",
    summary: "链接服务端的状态、以 JSON 读取、用 OpenAPI 文档检查客户端，以及用 Prometheus 抓取自建站点。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "徽章", id: "badges" },
      {
        p: `\`/badge/<registry name>\` 是服务端总体状态的 SVG 徽章。加上 \`?check=<id>\` 只显示一项检查，加上 \`?metric=latency\` 显示最近 24 小时握手耗时的 p95。同样的路径放在 \`/api/badge/\` 下，返回 shields.io 端点格式的 JSON，可用 shields.io 的样式绘制徽章。本站不认识的名称会得到状态码 404 的灰色徽章，链接写错时一眼就能看出。`,
      },
      { h2: "JSON", id: "json" },
      {
        ul: [
          "`/api/servers`：分页的服务端列表，支持与首页相同的搜索和按检查筛选（`?tools_list=failed`）。",
          "`/api/servers/<registry name>`：五项检查的状态与理由、证据、历史记录和工具列表。",
          "`/api/status`：供外部可用性监控使用；有告警未解除时返回 503。",
          "`/api/cross-reads`：第二读取器最近一天的结果。",
        ],
      },
      { p: `注册表名称含有斜杠，放进这些路径时保持原样即可。` },
      { h2: "API 描述", id: "openapi" },
      {
        p: `\`/api/openapi.json\` 以 OpenAPI 3.1 描述全部 JSON 接口：参数、每种状态码下的返回内容，以及每个字段及其类型。文档由各接口自己使用的同一套模式生成，测试套件还会拿每个接口的实际返回去对照它，因此描述不会落后于代码。对象都是封闭的：返回内容不会带有文档没有列出的字段。可以据此生成客户端，也可以在自己的测试里校验收到的数据。`,
      },
      { h2: "Prometheus 指标", id: "metrics" },
      {
        p: `自己运行本站副本的人可以设置 \`METRICS_TOKEN\`，然后以它作为 Bearer 令牌抓取 \`/metrics\`。其中包括：已开始和已结束的轮次、轮次耗时、按结果分类的已探测服务端数和探测请求数、覆盖率及其 7 天中位数、未解除的告警、每项检查各状态下的服务端数、最近一次交叉读取的结果，以及常见的进程指标。不带令牌的请求得到 401；未配置令牌时，这个路径不存在。README 里有可直接套用的抓取配置和告警规则。`,
      },
    ],
  },

  owners: {
    title: "所有者：认领条目，以及密钥背后的视图",
    summary: "认领能证明什么、不能证明什么，本站如何使用密钥、发送到哪里、如何撤销，以及为什么公开状态不变。",
    firstPublished: "2026-12-05",
    body: [
      { h2: "为什么要有所有者视图", id: "why" },
      {
        p: `注册表里一半以上的服务器在匿名客户端带上密钥之前都会拒绝它。对这些服务器，公开页面只能说它要求密钥。服务器的运营者可以让本站看得更远：本站会带着所有者的密钥再探测一次，显示持有该密钥的客户端会遇到什么。`,
      },
      { h2: "认领能证明什么，不能证明什么", id: "claim" },
      {
        p: `认领从服务器页面（“这是你的服务器吗？”）或 \`POST /api/servers/<name>/claims\` 开始。你会得到一个保密的认领令牌和一行文字。把这行文字放进本站所探测源地址上 \`/.well-known/mcp-status-claim\` 的纯文本文件里，然后请本站验证。本站只读取这个 URL 一次，遵守与探测相同的地址规则、退出名单和按主机的节奏，并且从不跟随重定向：遇到重定向会拒绝并说明目标。找到这一行后，你会得到管理链接。`,
      },
      {
        ul: [
          "已验证的认领只说明持有者能在服务器的源地址上放一个文件，不代表服务器代码的质量、安全性或归属。",
          "一个服务器可以有多个已验证的认领；所有者视图使用最近一次验证的认领的配置。",
          "该文件每 7 天重新读取一次。连续两次找不到，认领就会失效，保存的值也会被删除。",
        ],
      },
      { h2: "本站如何使用密钥", id: "key" },
      {
        p: `在管理页面上，你只能设置注册表为所探测远程地址列出的请求头的值；如果服务器返回了凭据关卡，也可以设置 \`Authorization\` 的值。含换行符或超过 8 KB 的值会被拒绝。如果每个远程端点的 URL 里都有没有默认值的 \`{变量}\`（例如 \`https://example.com/{tenant}/mcp\`），公开条目就没有地址，不会收到任何请求；你可以填写这些变量，但只用于所有者视图。变量的值是一个路径段（发送时做百分号编码；含空白或 \`/ ? # @\` 的值会被拒绝），填好后的 URL 必须仍在你证明过的源上。主机部分本身就是变量的条目（\`https://{tenant}.example.com/mcp\`）无法认领：没有唯一的源可以发布证明。每个值写入前都会加密（AES-256-GCM，密钥由运营者保存在数据库之外），之后不再显示：管理页面、JSON、证据、curl 命令、订阅源、开放数据、指标和日志里都不会出现。页面只列出请求头和变量的名称以及设置时间。`,
      },
      { h2: "密钥会发送到哪里", id: "where" },
      {
        p: `只有当某一轮的匿名探测停在密钥或凭据关卡时，同一轮才会用你的值再探测一次。这些值只发往所探测远程地址的同一源（协议、主机和端口都相同）：不会发往服务器指向的其他主机（例如授权元数据主机），也不会跨越重定向，因为探测从不跟随重定向。服务器返回的任何内容在保存时，其中的值都会被替换为 \`‹redacted›\`；填好的 URL 按注册表的模板保存，每个变量的位置写 \`‹redacted›\`，因此即使只有两个字母的值也不会被保留。`,
      },
      { h2: "你会收到哪些通知", id: "told" },
      {
        ul: [
          "如果服务器在握手或工具列表上对你的值返回 401 或 403，所有者视图会变为未检查并写明原因，你自己的订阅会收到 `owner_configuration_refused`。这是你的密钥的问题，因此从不算作服务器的过错。",
          "如果某个值是 JWT（或 `Bearer ` 加 JWT），且离过期不到 72 小时，你的订阅会收到一次 `owner_token_expiring`（每个值一次）。本站读取过期时间时不验证令牌签名：那不是本站该做的事。",
        ],
      },
      { h2: "如何撤销", id: "revoke" },
      {
        p: `在管理页面上删除配置或放弃认领，两者都会立即删除保存的值。删掉证明文件也会在两次每周检查内结束认领。在你自己那边更换密钥同样有效：下一轮的探测会被拒绝，你也会收到通知。`,
      },
      { h2: "为什么公开状态不变", id: "public" },
      {
        p: `公开状态、徽章、普查和可用率描述的是匿名客户端遇到的情况，任何阅读条目的人都能自己验证。所有者视图显示在它旁边（“使用所有者的密钥：${S.verified}，14 个工具”），有自己的五项检查和可用率，JSON 里是 \`ownerView\`，徽章是 \`/badge/<name>?view=owner\`。设置了密钥的服务器不会因此排在没有设置的服务器前面。`,
      },
    ],
  },
  "opting-out": {
    title: "退出探测、撤销退出，以及探测器的请求节奏",
    summary: "robots.txt 和运维名单、如何恢复探测、User-Agent，以及探测器对每台主机遵守的限制。",
    firstPublished: "2026-09-14",
    body: [
      { h2: "退出探测意味着什么", id: "no-request" },
      {
        p: `要求不被探测的主机，不会再收到任何请求：没有握手，没有工具列表，也不抓取元数据。它上面的服务端页面仍然保留，所有检查记为${S.not_checked}，原因为已退出探测。`,
      },
      { h2: "通过 robots.txt", id: "robots" },
      {
        p: `在提供该端点的主机的 \`/robots.txt\` 里针对 user-agent 标识 \`${ROBOTS_TOKEN}\` 写规则。禁止访问端点路径的规则，对该路径下的服务端生效。探测器每台主机每天最多读取一次这个文件。`,
      },
      { code: ROBOTS_EXAMPLE, label: "robots.txt：整台主机" },
      { code: ROBOTS_PATH_EXAMPLE, label: "robots.txt：单个路径，外加请求间隔" },
      { h2: "通过运维名单", id: "operator" },
      {
        p: `写信给本站的运维者，说明主机名即可。他们用 \`opt-out\` 命令把主机记入站点数据库，这个命令也能列出和删除条目；从下一轮起生效。`,
      },
      { code: OPT_OUT_COMMANDS, label: "运维命令" },
      { h2: "撤销退出", id: "undo" },
      {
        ul: [
          "robots.txt：删掉或收窄那条规则。探测器下一次（每天一次）读取该文件时就会发现，此后恢复探测。",
          "运维名单：请运维者删除该主机。`npm run opt-out -- remove <host>` 会让它的服务端立即到期，下一轮就会探测。",
        ],
      },
      { h2: "探测器如何表明身份", id: "identity" },
      {
        p: `每个请求都带 \`User-Agent\`：\`${USER_AGENT_EXAMPLE}\`，其中写明了本站并链接到本页。探测器不发送凭据、Cookie 或 \`Origin\`，也从不跟随重定向。`,
      },
      { h2: "请求节奏", id: "pacing" },
      { p: `无论主机是否退出了什么，探测器对每台主机都遵守下面的限制：` },
      {
        table: {
          caption: "每台主机的限制",
          head: ["限制", "实际效果"],
          rows: [
            { id: "one-request", cells: ["同一个服务端的探测内，一次只发一个请求", "上一个响应收完，才发下一个请求。"] },
            {
              id: "per-host",
              cells: [
                "每台主机同时只进行一个探测",
                "同一主机上的两个服务端依次探测。托管了 50 个及以上注册表服务端的主机（托管平台）可以同时进行最多 `PROBE_HOST_CONCURRENCY` 个探测，默认 4 个，这样平台上的所有租户每一轮都能探测到。",
              ],
            },
            {
              id: "crawl-delay",
              cells: [
                `\`robots.txt\` 中针对 \`${ROBOTS_TOKEN}\` 的 \`Crawl-delay\``,
                "作为发往该主机的任意两个请求之间的最小间隔（秒），对该主机上所有服务端一并生效：请求逐个发送，上一个结束后至少隔这么久才发下一个。",
              ],
            },
            {
              id: "host-pause",
              cells: [
                "该主机上任一服务端返回 429，或带 `Retry-After` 的 503",
                "在 `Retry-After` 到期之前，不再向这台主机发起新的探测；发出该响应的服务端本轮不再收到任何请求。",
              ],
            },
            {
              id: "metadata-hosts",
              cells: ["元数据在另一台主机上", "同样遵守退出规则：在名单上或禁止了该标识的主机，不会向它抓取（套件 0.11.0）。"],
            },
            {
              id: "one-gate",
              cells: [
                "全站发往同一台主机的所有流量",
                "以上限制对各轮探测、每天的交叉读取和「立即重新探测」一并生效，哪怕是在运行中的站点旁边从命令行启动的一轮也不例外：它们通过数据库对每台主机共用一道闸门，`Crawl-delay` 从其中任何一方最后发出的请求算起。",
              ],
            },
          ],
        },
      },
      { p: `除此之外，[探测间隔](${at("schedule", "table")})本身就不频繁：健康的服务端最多每 30 分钟一次，失败之后间隔更长。` },
    ],
  },

  coverage: {
    title: "看覆盖数，而不是成功率",
    summary: "为什么首要指标是读到了多少个服务端，以及成功率为何会在大量服务端读不到时依然好看。",
    firstPublished: "2026-11-05",
    body: [
      { h2: "覆盖数是首要指标", id: "coverage" },
      {
        p: `覆盖数指一个 UTC 日内有[完整读取](${at("tools-list", "complete-read")})的不同服务端个数。[覆盖页](/coverage)首先展示的就是它，告警盯的也是它。`,
      },
      { h2: "成功率只作参考", id: "success-rate" },
      {
        p: `请求成功率也会显示，并注明它是什么。对于会退避的探测器，这个比例天然偏高：失败的服务端从每 30 分钟一次变成每 6 到 24 小时一次，失败得越多，发出的请求越少，于是读到的服务端变少了，成功率反而上升。`,
      },
      { h2: "长期失败的服务端不会消失", id: "failing" },
      {
        p: `每个服务端都显示距上次完整读取过了多久，覆盖页还列出最久没有读成功的服务端。失败了一周的服务端依然有自己的页面，也依然在这份名单上，不会从统计里悄悄淡出。`,
      },
      { h2: "告警", id: "alert" },
      {
        p: `某个完整 UTC 日的覆盖数明显低于近期水平时，会开启 \`coverage_drop\` 告警并通知到人；之后某个完整日恢复时自动解除。全部告警见[站点运维](${at("operating", "alerts")})。`,
      },
      { h2: "这条原则从哪里来", id: "lesson" },
      {
        p: `另一个记录 MCP 工具定义的团队，在 2026 年 10 月下旬把读取器切换到 ${MODERN_REVISION}，同时把回退条件定得很严：要求特定状态码、特定错误码，id 还必须和请求一致。到他们修复前的一小时里，9,514 个请求成功了 9,400 个（98.8%）；可是有 2,195 个服务端，10 月 28 日还能读到，从 30 日起一次也没读成功过。`,
      },
      {
        p: `同期，他们每天读到的不同服务端数从约 28,200 个（10 月 29 日）降到约 23,000 个（10 月 31 日），这个数字没有配告警。2,195 只是他们的复盘能追溯到严格回退上的那部分服务端，复盘并没有说整个降幅都由它造成。最终发现问题的，是另一个团队独立维护、逐字段对比工具列表的读取记录。我们从中得到的是关于度量的教训：看读到了多少个服务端，对它设告警，并保留一个[与主读取器不共用假设的第二读取器](${at("operating", "cross-reader")})。`,
      },
    ],
  },

  regions: {
    title: "多地区探测：各地区如何表决",
    summary: "为什么一个地区的失败不等于服务端的失败，失败如何由别处确认，以及自身网络出故障的地区如何被搁置。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "为什么需要不止一个地方", id: "why" },
      {
        p: `从一台机器看，服务端宕机和通往它的线路中断是一个样子。某个机房到某家云厂商之间的路由故障、某个国家的解析器出问题、CDN 某个边缘节点丢连接，都会变成对所有人显示的${S.failed}，还要再叠加好几天的退避。站点以多地区方式运行时，会先请别的地方再看一次，才相信这个失败。`,
      },
      { h2: "每个服务端由一个地区读取", id: "primary" },
      {
        p: `安排每一轮、写入每条结果的仍然只有站点。其他地区的小代理运行的正是站点和 \`npm run probe\` 所用的探测代码，把看到的情况发回来；代理不保存任何数据库。每个到期的服务端每轮只由一个地区探测一次，这个地区叫作它的主地区。主地区在处于正常状态的地区之间逐轮轮换，所以每个地区都会为每个服务端积累自己的响应时间。`,
      },
      { h2: "失败会请另外两个地区再探测", id: "confirmation" },
      {
        p: `主地区的握手或工具列表失败时，无论是连不上还是服务端回了 HTTP 错误，同一轮都会立刻请另外两个正常的地区再探测这个服务端（正常地区不足时就请其余全部）。这些探测各自是独立的一次运行，连同地区和证据一起保存。主地区读取正常的服务端不会被再探测。`,
      },
      { h2: "表决", id: "quorum" },
      {
        p: `要记为${S.failed}，须本轮探测过该服务端的地区中过半数失败：三个中的两个，或两个中的两个。只有这个表决结果会改变探测计划：多数失败时才开始失败后的退避，绝不会因为一个地区就退避。`,
      },
      { h2: "地区附注", id: "regional-note" },
      {
        p: `只有少数地区失败时，状态取自读取成功的地区，页面和 JSON 在状态旁附一条说明，例如：b 于 UTC 14:05 失败（HTTP 502），a 和 c 读取正常。这条附注说的是通往服务端的某条线路，而不是服务端本身：也许是某家服务商屏蔽了一个地区，也许是一条路由暂时中断。它标明每个地区的结论从何而来，方便运维去对的地方排查。`,
      },
      { h2: "自身网络出故障的地区", id: "region-down" },
      {
        p: `每个地区都有[探测器自身网络](${at("own-network", "host-share")})一页所说的那项检查，由站点根据该地区发回的结果计算：它最近尝试过的不同主机中，探测完全没有得到 HTTP 回应的比例。这个比例超过一半、并且远高于其他地区对各自主机看到的比例时，问题出在这个地区自己。五分钟内没有回应任何探测的地区也按同样方式处理。这样的地区视为停摆：不再分配主地区任务，它的失败不计入表决，并为它开启告警 \`region_down\`（见[站点运维](${at("operating", "alerts")})）。`,
      },
      {
        p: `停摆的地区不会被遗忘。它仍会收到少量探测副本，每分钟几次，内容是别的地区刚刚读取成功的服务端；这些副本只用来判断该地区自身是否恢复。连续两次读取成功后，该地区恢复正常，告警自动解除。正常的地区少于两个时，照旧适用[单一观测点](${at("own-network", "second-probe")})的规则。`,
      },
      { h2: "跨地区的礼貌限制", id: "politeness" },
      {
        p: `[每台主机的请求限制](${at("opting-out", "per-host")})属于整个站点，而不是每个地区各算各的。发往任何地区的一次探测都会在站点占用该主机的名额，收到回应或请求超时后归还；\`Crawl-delay\` 从那次回应算起。因此一台主机对所有地区合起来只看到一个上限。每个代理的 User-Agent 都写明所在地区，服务端运维查看日志时能知道探测来自哪里。`,
      },
      { h2: "不启用多地区时", id: "default" },
      {
        p: `未设置 \`NATS_URL\` 启动的站点只有一个地区 \`local\`，在进程内探测，与引入多地区之前完全相同：同样的结论，同样的探测计划。每次运行仍记录所属地区，所以两种部署下的历史读起来是一样的。`,
      },
    ],
  },

  "own-network": {
    title: "问题出在我们这边：探测器自身的网络",
    summary: "网络层面的失败为什么要确认两次，以及站点如何区分自己的故障和服务端的故障。",
    firstPublished: "2026-12-01",
    body: [
      { h2: "探测器为什么要先怀疑自己", id: "why" },
      {
        p: `本站只从一个地方发起探测。一旦这里的 DNS 解析器失灵，或者出站线路断了，探测器碰到的每个服务端都会同时显得连不上。如果照单全收、记为${S.failed}，健康的服务端就会被当成宕机，下次探测还会被推迟 6 到 24 小时；我们这边早已恢复，它们却仍被藏着。[覆盖数](${at("coverage", "lesson")})一页讲过退避如何这样把服务端藏起来。所以，网络层面的失败不会被直接当真。`,
      },
      { h2: "什么算网络层面的失败", id: "network-level" },
      {
        p: `决定握手结果的那个请求根本没有拿到 HTTP 响应：域名解析不出来，连接被拒绝或超时，TLS 握手失败，或者在任何响应到达之前连接就被重置。只要拿到了 HTTP 响应，哪怕是 404 或 500，就说明通往服务端的路是通的，按平常的规则评判。`,
      },
      { h2: "记为未通过之前再探测一次", id: "second-probe" },
      {
        p: `如果一个服务端上次的结论表明握手已完成，这次却以这种方式失败，本轮先不写入结果，而是至少 60 秒后再探测它一次。第二次拿到了响应，页面就显示第二次的结果，第一次失败不留痕迹；第二次仍在网络层面失败，${C.handshake}才记为${S.failed}，原因里写明失败了两次，两次请求都保留为证据。这里${S.not_checked}的握手也算完成过：凭据拦截、要求放慢或我们自己的故障，都不能说明服务端有问题。原本就在失败、或者从未响应过的服务端，不会再探测第二次。`,
      },
      { h2: "按主机计数，而不是按服务端", id: "host-share" },
      {
        p: `一轮进行期间，探测器记着最近探测过的 50 台不同主机各自最新的结果（主机指域名加端口）。试过至少 20 台之后，它计算其中最新一次探测在网络层面失败的比例。这个比例超过一半，并且超过它过去 7 天通常水平的三倍时，探测器就认定是自己的网络出了问题。按主机计数，是为了不让一个平台看起来像整个互联网：托管着上千个服务端的平台宕机，也只是众多主机中的一台，它上面的服务端各自在第二次探测之后记为${S.failed}，这本来就是对的。原本就在失败的服务端不参与计数，因此一批早已失效、恰好同时到期的服务端不会触发它。`,
      },
      { h2: "随后这一轮怎么做", id: "pause" },
      {
        ul: [
          "不再发起新的探测。",
          "每 30 秒向几台刚刚失败的主机请求一次 `robots.txt`，收到任何 HTTP 响应都算数；超过一半有响应时，探测继续。",
          "10 分钟后仍没有响应，这一轮就此结束，还没开始探测的服务端保持到期状态。",
          `网络中断期间探测失败的服务端记为${S.not_checked}，原因是「探测器自身的网络出了故障」，并且不做任何退避：下一轮就会再探测它们。失败的请求保留为证据。这样的探测不计入[覆盖数](${at("coverage", "coverage")})的尝试次数。`,
          `告警 \`probe_network\` 随之开启（见[站点运维](${at("operating", "probe-network")})）。探测重新成功时它就解除：可能是暂停期间的某次复查，也可能是之后第一轮连上了各台主机。`,
        ],
      },
      { h2: "不存在的域名", id: "nxdomain" },
      {
        p: `DNS 回答某个域名不存在，而同一个解析器对别的域名照常作答时，问题在服务端：它的域名已经没了。${C.handshake}直接记为${S.failed}，不再探测第二次，这个域名也不计入上面的比例。只有解析器对任何域名都不作答时，问题才可能在我们这边。`,
      },
      { h2: "做不到的事", id: "limits" },
      {
        p: `只有一个观测点，这一点改变不了。我们与某个服务商或某个地区之间出了故障、而大多数主机仍然连得上时，那里的服务端照样会在第二次探测之后被记下失败。这两道检查只保证：我们自己的故障，不会被记到所有人头上。`,
      },
    ],
  },

  operating: {
    title: "站点运维：告警、状态接口与交叉读取器",
    summary: "各类告警、供监控使用的 /api/status、webhook，以及专门寻找探测器盲区的第二读取器。",
    firstPublished: "2026-11-30",
    body: [
      { h2: "存活检查", id: "health" },
      { p: `只要进程在提供服务，\`GET /api/health\` 就返回 200。它不反映数据是否新鲜，因此进程管理器不会因为轮次延误而重启站点。` },
      { h2: "告警", id: "alerts" },
      {
        p: `告警会自动开启和解除，并按独立的时钟至少每分钟评估一次，而不是只在一轮结束时评估，所以调度器停了也能被发现。当前和过往的告警列在[覆盖页](/coverage)上，也可以通过 Atom 订阅（\`/coverage/feed.xml\`）。`,
      },
      {
        table: {
          caption: "告警类型",
          head: ["类型", "何时开启", "何时解除", "该怎么做"],
          rows: [
            {
              id: "coverage-drop",
              cells: [
                "`coverage_drop`",
                "某个完整 UTC 日的覆盖数明显低于近期水平",
                "之后某个完整日恢复",
                "查看没读到的服务端，通常能找到共同原因（同一台主机、同一种错误形式）。",
              ],
            },
            {
              id: "rounds-stale",
              cells: [
                "`rounds_stale`",
                "`ALERT_STALE_MINUTES`（默认 120）分钟内没有任何一轮结束，不论轮次由谁启动",
                "有一轮结束",
                "检查内置调度器或外部 cron，以及最近一轮的日志。",
              ],
            },
            {
              id: "cross-read-alert",
              cells: [
                "`cross_read`",
                "当天交叉读取中[无解释](/zh/faq/operating#explained)差异的比例超过阈值",
                "之后某天回落到阈值以下",
                "先看当天无解释的 `only_cross_reader` 和 `disagreed` 服务端。",
              ],
            },
            {
              id: "probe-network",
              cells: [
                "`probe_network`",
                `一轮最近试过的主机中，超过一半在网络层面失败，远高于通常水平：认定[探测器自身的网络](${at("own-network", "pause")})出了故障`,
                "探测重新成功（暂停期间的复查，或之后的某一轮）",
                `检查探测机器的 DNS 解析器、出站线路和防火墙。不需要重置任何东西：受影响的服务端已记为${S.not_checked}，下一轮就会再探测。`,
              ],
            },
            {
              id: "region-down",
              cells: [
                "`region_down`",
                `某个探测地区自身在网络层面失败的主机比例超限，或 5 分钟内没有回应任何探测：[它的失败不计入表决](${at("regions", "region-down")})；每个地区各一条告警`,
                "该地区重新回应并读取成功（少量探测副本会一直问它）",
                "检查该地区的代理：是否在运行、是否连着 NATS、所在机器能否访问外网。在此期间结论来自其他地区。",
              ],
            },
            {
              id: "database-unwritable",
              cells: [
                "`database_unwritable`",
                "写入数据库失败：空间不足、I/O 错误或文件只读（SQLite 的 FULL、IOERR、READONLY 错误码）；或者数据库所在卷的剩余空间不足 8 MiB（每 30 秒以及每轮开始前测量一次，因为写满的卷还可能在一段时间内接受小的写入）。告警无法写进数据库，因此保存在站点进程的内存里，并立即出现在 `/api/status` 上",
                "一次测试写入重新成功：预写日志并入数据库，数据库旁能写下 8 MiB，再写入一行（每 30 秒试一次）",
                "腾出数据库所在卷的空间，或检查这个卷。页面照常用已存的数据回答；遇到它的那一轮不再发起新的探测，没能记录的服务端仍然待探测；写入恢复之前 `POST /api/rounds` 返回 503。",
              ],
            },
          ],
        },
      },
      { h2: "供外部监控使用的 /api/status", id: "status" },
      {
        p: `\`GET /api/status\` 返回 JSON，包含 \`lastRoundFinishedAt\`、\`coverage\`（当天值和 7 日中位数）、\`crossRead\`（最近一天的各类计数）和 \`alerts\`（当前开启的告警及各自的类型和开始时间）。只要有告警开启就返回 503，否则返回 200，所以任何检查 200 的可用性监控都能直接使用。不需要密钥，也不包含私密信息。`,
      },
      { h2: "Webhook", id: "webhook" },
      {
        p: `设置了 \`ALERT_WEBHOOK_URL\` 时，每次告警开启和解除都会以 JSON POST 到该地址：\`text\` 是一句话，说明告警类型以及是开启还是解除（聊天工具的 webhook 会直接显示它），\`alert\` 里是详细信息。投递失败会退避重试几次，然后写入日志，不会拖住任何一轮。`,
      },
      { wire: WEBHOOK_EXAMPLE, label: "Webhook 请求体（结构示意）" },
      { h2: "交叉读取器", id: "cross-reader" },
      {
        p: `每个 UTC 日当天第一轮结束后，第二个读取器会读取一个固定的随机样本：从注册表中所有带可用远程端点的服务端里抽取（\`CROSS_READ_SAMPLE\`，默认 200 个），探测器读不到的服务端也在抽样范围内。第二读取器基于官方 MCP SDK 客户端实现，不用探测器的代码，并且总是从 \`initialize\` 开始，因此在握手上不与探测器共用任何假设。它读到的工具列表会与探测器最近一次完整读取的结果逐个字段路径比较。`,
      },
      { h2: "比较结果", id: "outcomes" },
      {
        table: {
          caption: "交叉读取的结果类别",
          head: ["结果", "含义"],
          rows: [
            ["`agreed`", "两边都读到了，内容一致。"],
            ["`disagreed`", "两边都读到了，内容不同；记录有差异的字段路径。"],
            ["`only_probe`", "只有探测器有完整读取。"],
            {
              id: "only-cross-reader",
              cells: ["`only_cross_reader`", "第二读取器读到了探测器读不到的列表。这是最该关注的数字：探测器可能存在盲区。"],
            },
            ["`neither`", "两边都没读到。"],
          ],
        },
      },
      {
        p: `把 \`only_cross_reader\` 放在首位，是因为这类问题最不容易被发现。探测器读不到的服务端，在探测器自己的统计里和宕机的服务端没有区别；只有不共用探测器代码的读取器才能把两者分开。当天的结果显示在[覆盖页](/coverage)上，也可以通过 \`GET /api/cross-reads\` 获取，格式为 \`{day, servers: [{name, outcome, explained, paths}]}\`。`,
      },
      ...explainedBlocks("zh"),
      { h2: "交叉读取器的规矩", id: "cross-reader-politeness" },
      { p: `它遵守与探测器相同的规则：同样的退出规则、地址策略、User-Agent 和时限，每台主机一次一个请求，并且从不调用任何工具。` },
    ],
  },

  changelog: {
    title: "检查套件更新记录",
    summary: "每一次规则变化和更正，附日期和对应的套件版本。",
    firstPublished: "2026-09-14",
    body: [
      { h2: "版本", id: "versions" },
      { p: `每条保存的结果都记录了产生它的套件版本，所以按旧规则判定的结果可以区分出来；如果某条结果早于当前套件，服务端页面会注明。` },
      { h2: "更正", id: "corrections" },
      { p: `更正是让代码做到规则本来就要求的事，不升版本号，但同样带日期列在这里。` },
      { h2: "全部变化（新的在前）", id: "entries" },
      { changelog: true },
    ],
  },
};
