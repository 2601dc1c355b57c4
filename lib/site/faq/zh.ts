import { CHECK_LABELS, STATE_LABELS } from "../labels";
import { LEGACY_REVISIONS, MODERN_REVISION, RESERVED_TOOL_NAME } from "../../probe/protocol";
import {
  OPT_OUT_COMMAND,
  PROBE_COMMAND,
  ROBOTS_EXAMPLE,
  ROBOTS_TOKEN,
  SELF_TEST_CLI,
  SELF_TEST_CURL,
  USER_AGENT_EXAMPLE,
} from "./facts";
import type { FaqBook, FaqChrome } from "./types";

const S = STATE_LABELS.zh;
const C = CHECK_LABELS.zh;

export const FAQ_CHROME_ZH: FaqChrome = {
  indexTitle: "常见问题",
  indexLede: "探测器怎样判定每种状态，它会做什么、不会做什么，以及怎样让它不再访问你的主机。",
  otherLanguage: "English",
  otherLanguageLabel: "阅读本页英文版",
  changesSince: (d) => `本页首次发布（${d}）以来的规则变化`,
  noChangesSince: (d) => `本页首次发布（${d}）以来，规则没有变化。`,
  unversioned: "未单独升版本",
  suite: (v) => `套件 ${v}`,
  currentSuite: (v) => `当前检查套件版本为 ${v}。`,
  backToIndex: "全部问题",
};

export const FAQ_ZH: FaqBook = {
  refusals: {
    title: "server 拒绝请求的四种方式，以及哪些会记在它名下",
    summary: "错误分类和鉴权元数据两项检查，怎样区分得体的拒绝和有问题的拒绝。",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `一切顺利时，server 报出协议版本和工具列表，没什么可说的。真正会伤到客户端的是拒绝：用客户端看得懂的形式拒绝，是尽职；用谁都解析不了的形式拒绝，迟早会让某个 agent 在半夜崩溃。\`error_taxonomy\`（${C.error_taxonomy}）和 \`auth_metadata\`（${C.auth_metadata}）两项检查，就是为了把这两类情况分开。`,
      },
      { h2: "一、格式规范的 JSON-RPC 错误", id: "jsonrpc-error" },
      {
        p: `探测器会调用一个不可能存在的工具（见[被扣下的那次调用](/zh/faq/withheld-call)）。正确的答复是一个 JSON-RPC 错误对象：\`jsonrpc\`、请求的 \`id\`，以及带整数 \`code\` 和字符串 \`message\` 的 \`error\`；不论以普通 JSON 还是 SSE 流返回，也不论 HTTP 状态码是多少。${C.error_taxonomy}记为**${S.verified}**，原因里写明错误码。规范为未知工具规定的是 \`-32602\`，其他错误码同样算作规范的拒绝。`,
      },
      {
        p: `带 \`isError: true\` 的结果也记为**${S.verified}**：不少 SDK 通过工具错误通道而不是 \`-32602\` 报告未知工具，客户端能够处理。原因里会说明用的是哪条通道。`,
      },
      { h2: "二、协议开始之前就回一个光秃秃的 401 或 403", id: "pre-dispatch" },
      {
        p: `很多 endpoint 前面有一层鉴权。没有凭据的请求在这一层就被挡下，JSON-RPC 处理程序根本看不到它，所以响应体往往不是 JSON-RPC。这没有问题：拒绝发生在分派之前，说明不了 server 的错误格式是否规范。${C.error_taxonomy}把光秃秃的 401 或 403 当作正当的拒绝，记为**${S.verified}**。`,
      },
      {
        p: `握手阶段的 401 影响更大，探测器会仔细判断。对第一个 \`server/discover\` 请求回 401，本身不决定任何事：和其他不带新版拒绝码的 4xx 一样，它让探测器改走旧版 \`initialize\` 握手。算数的是结束握手的那个答复：`,
      },
      {
        ul: [
          `带结构合法的 \`WWW-Authenticate\` 质询的 401，意思是「需要凭据」。我们从不发送凭据，所以${C.handshake}、${C.protocol_version}、${C.tools_list}记为**${S.not_checked}**，原因是需要凭据。这不是失败：我们看不到门后面，不代表门坏了。如果你有意把发现放在鉴权后面，这就是预期结果，无需修改。`,
          `不带合法质询的 401 不是凭据门控，只是一个没有任何说明的拒绝。发现类检查记为**${S.failed}**。`,
        ],
      },
      { h2: "三、新版协议对握手的拒绝", id: "modern-rejection" },
      {
        p: `${MODERN_REVISION} 修订定义了三个用于有意拒绝握手的 JSON-RPC 错误码：\`-32020\`、\`-32021\`、\`-32022\`。\`server/discover\` 收到其中之一（任何 HTTP 状态码，JSON 或 SSE 均可）时，说明新版握手到达了 server 并被拒绝。这是客户端与 server 的真实不匹配，而不是「我是旧版 server」的信号，所以探测器**不会**回退。发现类检查记为**${S.failed}**，原因里写明错误码和消息。`,
      },
      {
        p: `除此之外，\`server/discover\` 收到的任何 4xx，只要响应体不是这三个错误码之一，就是旧版信号，探测器改用 \`initialize\` 重试，不管响应体里的状态码、错误码或 id 是什么。自套件 0.10.0 起，既不是发现结果、也不是这三个错误码的 2xx 答复同样回退。429，或带 \`Retry-After\` 的 503，不是回退信号，而是「慢一点」：这一轮里探测器不再向该 server 发送任何请求。早先一条只认精确 400 的规则，曾把一台完全合规的旧版 server 标成三项检查未通过；修复方法和自测步骤见[已观测，未签名](/zh/faq/observed-unsigned)。`,
      },
      { h2: "四、格式不规范的拒绝", id: "malformed" },
      {
        p: `既不是规范的 JSON-RPC 错误、也不是分派前 401 或 403 的一切答复：HTML 错误页、带堆栈跟踪的 500、内容为 \`{"error":"nope"}\` 却没有 \`jsonrpc\` 字段的 200、空响应体，或者对不存在的工具返回成功结果。server 确实拒绝了，但客户端无从得知原因，也不知道下一步怎么办。${C.error_taxonomy}记为**${S.observed_risk}**：不记为${S.failed}，因为拒绝本身是正确的行为；但要标出来，因为这种形式迟早会让某个客户端抛出没人处理的异常。`,
      },
      {
        p: `唯一的例外是「慢一点」（429，或带 \`Retry-After\` 的 503）：探测器这一轮停下，${C.error_taxonomy}记为**${S.not_checked}**并写明原因。`,
      },
      { h2: "鉴权元数据记录什么", id: "auth-metadata" },
      {
        p: `server 给出规范的质询时，${C.auth_metadata}会像客户端一样再往前走一步：质询应当指向一份客户端可以获取的受保护资源元数据。所用的质询优先取凭据门控给出的那个，否则取探测过程中第一个带合法质询的 401 或 403。`,
      },
      {
        table: {
          head: ["探测器看到的情况", "记为"],
          rows: [
            ["根本没有收到质询", S.not_checked],
            ["质询里没有 `resource_metadata` URL", `${S.not_checked}，附原因`],
            ["元数据 URL 位于另一台已要求停止探测的主机上（不会去取；套件 0.11.0）", `${S.not_checked}，附原因`],
            ["元数据 URL 被地址策略拒绝（私有网段）", `${S.not_checked}，附原因`],
            ["元数据 URL 返回 HTTP 错误或重定向", S.observed_risk],
            ["响应体不是合法的 JSON", S.observed_risk],
            ["是合法 JSON，但只是裸的字符串、数字、布尔值、null 或数组", S.observed_risk],
            ["质询的 `scope` 里有元数据没有列出的范围", S.observed_risk],
            ["429，或带 `Retry-After` 的 503", `${S.not_checked}（慢一点）`],
            ["JSON 对象，且 scope 一致", `${S.verified}；原因里写明资源和授权服务器`],
          ],
        },
      },
      {
        p: `这些都不是对你的鉴权是否可靠的判决。它们回答的是：遵循规范的客户端，能否发现该怎样鉴权。这是鉴权中唯一能从外部看到的部分，也是我们声称能看到的唯一部分。`,
      },
      { h2: "为什么要分成四种结果", id: "why" },
      {
        p: `把所有拒绝都显示成${S.failed}更省事，却会在两个方向上说错：一边惩罚有意把发现放在门后的 server，一边把格式不规范的拒绝和诚实的 401 藏在同一个红色标记后面。四种拒绝，四种记录，各有原因和证据；哪些对你要连接的 agent 重要，由读者自己判断。`,
      },
    ],
  },

  "observed-unsigned": {
    title: "已观测，未签名：这里的判定是什么、不是什么",
    summary: "本站的状态意味着什么，旧版回退怎样判定，以及怎样自己测试你的 server。",
    firstPublished: "2026-09-14",
    body: [
      { h2: "判定是什么", id: "is" },
      {
        p: `本站的每个状态，都是一次匿名探测在某个时间点从外部看到的情况，附带做出判定的套件版本、一句原因，以及它所依据的 HTTP 往来记录。探测器的行为像一个谨慎的客户端：不发送凭据，不带 \`Origin\`，不跟随重定向，不调用任何真实工具，对同一主机一次只发一个请求。`,
      },
      { h2: "判定不是什么", id: "is-not" },
      {
        ul: [
          "不是认证、背书或签名：这里没有人为任何 server 担保，我们自己也不。",
          "不是安全审计：鉴权后面的东西我们看不到，鉴权相关的检查只问客户端能否发现如何鉴权。",
          "不是可用率数字：每 30 分钟到 24 小时探测一次，看到的是一个瞬间，而不是服务水平。",
          "不是对工具的评价：我们只读工具定义，从不运行它们。",
        ],
      },
      {
        p: `如果某个状态看起来不对，请在 server 页面打开该检查的证据，复制每条往来记录旁边的 curl 命令，自己发送同样的请求。`,
      },
      { h2: "旧版回退怎样判定", id: "fallback" },
      {
        p: `server 使用 ${MODERN_REVISION} 修订（握手为 \`server/discover\`），或者更早的修订（${LEGACY_REVISIONS.join("、")}；握手为 \`initialize\`）。探测器先试新版握手，最多回退一次：`,
      },
      {
        ol: [
          `发现结果的 \`supportedVersions\` 包含 ${MODERN_REVISION}：新版。没有 \`supportedVersions\`、或只列出旧修订的结果，不算发现结果。`,
          "`-32020`、`-32021` 或 `-32022`，任何 HTTP 状态码，JSON 或 SSE：server 有意拒绝。不回退；发现类检查未通过，原因里写明错误码和消息。",
          "429，或带 `Retry-After` 的 503：慢一点。本轮不再发送任何请求，尚未判定的检查记为未检查，下次探测至少等待对方要求的时间。",
          "其他任何 4xx（400、401、403、404、405、406、415、422 等）：回退到 `initialize`。响应体可以是任何内容：另一个 id（如 `\"server-error\"` 或 `null`）下的错误、HTML 页面、什么都没有。从不要求特定的状态码、错误码或 id。",
          "既不是发现结果、也不是这三个错误码的 2xx（空结果、`-32601` 错误、HTML）：同样回退（套件 0.10.0）。",
          "重定向（从不跟随）、其他 5xx、超时或网络错误：发现类检查未通过，并写明原因。",
          "回退之后，由结束握手的答复决定：合法的 initialize 结果是旧版；带合法质询的 401 是凭据门控（未检查）；不带质询的 401 或其他任何情况，未通过并写明原因。",
        ],
      },
      {
        p: `还有一种情况来自真实环境：某台 server 宣称支持 ${MODERN_REVISION}，却在第一页 \`tools/list\`、尚未读到任何工具时以旧式方式拒绝。这种拒绝也可以触发那唯一一次回退。`,
      },
      { h2: "我们避开的过窄回退", id: "too-narrow" },
      {
        p: `另一支记录 MCP 工具定义的团队，其采集器曾经只在以下条件同时满足时才认旧版信号：状态码为 400、404 或 405，JSON-RPC 错误码为 \`-32600\`、\`-32601\` 或 \`-32602\`，并且错误的 id 与请求一致。真实的 server 没这么整齐。有一台在 id \`"server-error"\` 下回 \`-32600\`（某个官方 SDK 在读到请求 id 之前出错时就用这个值），同时列出了它支持的旧修订；另一些允许匿名的 \`initialize\` 和 \`tools/list\`，却对陌生的 \`server/discover\` 回 401。`,
      },
      {
        p: `结果约 2,195 个 server 连续三天没被读到，而看板上的请求成功率是 98.8%，因为失败的 server 重试得越来越少。每天读到的不同 server 数从约 28,200 跌到约 23,000，却没有任何告警。他们的修复把回退放宽到其他 id、401 和 403、非 JSON-RPC 响应体，以及早于 ${MODERN_REVISION} 的版本列表，并保持每次探测只回退一次。我们的规则从一开始就更宽：任何不带新版拒绝码的 4xx 都回退；我们盯的是[覆盖数](/zh/faq/coverage)，而不是成功率。`,
      },
      { h2: "自己测试你的 server", id: "self-test" },
      {
        p: `命令行探测器运行的正是本站背后的同一份代码。只要探测执行了，不论结果如何都以 0 退出；用法错误时以 2 退出。私有地址和回环地址会被拒绝，除非设置 \`PROBE_ALLOW_PRIVATE_NETWORKS=1\`。用法：\`${PROBE_COMMAND}\`。`,
      },
      { code: SELF_TEST_CLI, label: "用命令行自测" },
      {
        p: `也可以用 curl 手动测试。server 页面上的每条往来记录也都附有可复制的 curl 命令。`,
      },
      { code: SELF_TEST_CURL, label: "用 curl 自测" },
    ],
  },

  "withheld-call": {
    title: "探测器有时会扣下的那一次调用",
    summary: "保留的工具名、探测器为什么调用它，以及所有不调用它的情形。",
    firstPublished: "2026-09-23",
    body: [
      {
        p: `为了观察 server 怎样拒绝，探测器会发送一次 \`tools/call\`，调用一个不可能存在的工具：\`${RESERVED_TOOL_NAME}\`，参数为 \`arguments: {}\`。它从不调用任何别的工具，所以你的 server 上不会有任何东西替我们运行。答复决定${C.error_taxonomy}的结果，各种结果见[四种拒绝方式](/zh/faq/refusals)。`,
      },
      { h2: "什么时候扣下这次调用", id: "conditions" },
      {
        p: `只有在安全且有意义时才会发出这次调用。否则就扣下，${C.error_taxonomy}记为**${S.not_checked}**，原因里写明是哪一种情形：`,
      },
      {
        ul: [
          "读不到工具列表；",
          "工具列表还有未读的页（分页被截断或永不结束）；",
          `列表里恰好有一个名为 \`${RESERVED_TOOL_NAME}\` 的工具，这次调用就不再是对不存在工具的调用；`,
          `握手或工具列表被凭据门控挡住；此时${C.auth_metadata}改读门控本身给出的质询；`,
          "server 要求探测器慢一点（429，或带 `Retry-After` 的 503）；",
          "握手失败。",
        ],
      },
      {
        p: `常见的情况是整个 endpoint 都在鉴权后面：发现类检查记为未检查，原因是需要凭据；这次调用被扣下；${C.auth_metadata}顺着门控给出的质询继续检查。`,
      },
      { h2: "如果你的 server 真有这个工具", id: "collision" },
      {
        p: `不会出问题：探测器在列表里看到这个名字，就不会调用它。你的 server 的${C.error_taxonomy}保持未检查，并在原因里说明。`,
      },
    ],
  },

  "opting-out": {
    title: "停止探测",
    summary: "怎样用 robots.txt 或联系运营者，要求我们不再探测你的主机，以及探测器怎样表明身份。",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `要求停止探测的主机不会再收到我们的任何请求：没有握手，没有工具列表，也不抓取元数据。它上面的 server 保留页面，所有检查记为${S.not_checked}，原因就是停止探测。`,
      },
      { h2: "使用 robots.txt", id: "robots" },
      {
        p: `在提供 MCP endpoint 的主机的 \`/robots.txt\` 里，针对 user-agent 标记 \`${ROBOTS_TOKEN}\` 写规则。我们每台主机每天最多读取一次，并遵守禁止访问 endpoint 路径的规则。`,
      },
      { code: ROBOTS_EXAMPLE, label: "robots.txt" },
      { h2: "联系运营者", id: "ask" },
      {
        p: `写信给运营本站的人，注明主机名。他们会用下面的运营命令记录下来；停止探测的设置保存在数据库里，从下一轮起生效。`,
      },
      { code: OPT_OUT_COMMAND, label: "运营命令" },
      { h2: "探测器怎样表明身份", id: "user-agent" },
      {
        p: `每个请求都带有一个 \`User-Agent\`，写明探测器的名字并链接到本页，例如 \`${USER_AGENT_EXAMPLE}\`。其中的标记是 \`${ROBOTS_TOKEN}\`。`,
      },
      { h2: "即使没有要求，探测器也会做到的礼貌", id: "politeness" },
      {
        ul: [
          "不发送凭据，不带 `Origin` 头，从不跟随重定向。",
          "对同一主机一次只发一个请求。",
          "主动退避：健康的 server 每 30 分钟到 6 小时一次；失败后依次间隔 6、12、24 小时；遇到凭据门控后至少 24 小时；被要求「慢一点」后至少等待你在 `Retry-After` 里要求的时间。",
          "如果授权元数据 URL 位于另一台已要求停止探测的主机上，从不去取（套件 0.11.0）。",
        ],
      },
    ],
  },

  coverage: {
    title: "为什么看覆盖数，而不是成功率",
    summary: "重试退避会让请求成功率恰好在 server 失联时变得更好看。",
    firstPublished: "2026-11-05",
    body: [
      {
        p: `对失败的 server 退避重试的探测器，会改变自己的样本。失败的 server 依次在 6、12、24 小时后才重试，遇到凭据门控的至少隔一天，于是实际发出的请求越来越集中在正常的 server 上。请求成功率就在 server 从视野里消失的同时往上走。`,
      },
      {
        p: `这不是纸上谈兵。另一支团队的 MCP 采集器在修复前一小时，9,514 次请求的成功率是 98.8%，而约 2,195 个 server 已经好几天没被读到。每天读到的不同 server 数从约 28,200 跌到约 23,000，却没有任何告警。背后的回退缺陷见[已观测，未签名](/zh/faq/observed-unsigned#too-narrow)。`,
      },
      { h2: "我们改为衡量什么", id: "measure" },
      {
        ul: [
          "覆盖数：每个 UTC 日成功读取的不同 server 数，作为首要指标。",
          "请求成功率放在旁边，并明确标注它不是覆盖数。",
          "每个 server 距上次成功读取的时间，显示在它的页面和[失败最久列表](/coverage#failing-h)里。",
          "覆盖数明显低于近期水平时发出告警。",
        ],
      },
      {
        p: `失败一周的 server 依然可见：它保留页面，排在失败最久列表的前面，没读到的那些天也会体现在覆盖图里。见[覆盖页面](/coverage)。`,
      },
    ],
  },

  changelog: {
    title: "检查套件的更新记录",
    summary: "每一次规则变化，附日期和对应的套件版本。",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `每条保存的结果都带有产生它的套件版本，因此可以分辨哪些结果是按旧规则判定的。按时间倒序：`,
      },
      { changelog: true },
    ],
  },
};
