import type { FaqPage } from "./types";

// The FAQ page on which clients can connect (architecture.md §2.10, suite 0.15.0), in both languages, in our own words.

export const CLIENTS_PAGE_EN: FaqPage = {
  title: "Which clients can connect",
  summary: "Clients start the conversation in one of two ways; a server can work for one kind and not the other.",
  firstPublished: "2026-12-05",
  body: [
    { h2: "Two ways to start", id: "who-starts-how" },
    {
      p: "Before a client can list or call tools, it has to open the conversation, and clients in use today open it in one of two ways. A server page shows one line for each, near the top.",
    },
    {
      table: {
        caption: "What clients send first",
        head: ["Kind", "Sends first", "Clients"],
        rows: [
          {
            id: "initialize-first",
            cells: [
              "Initialize-first",
              "`initialize`, then `notifications/initialized`; never `server/discover`",
              "The official TypeScript SDK client in its default mode, the MCP Inspector, and every client written for the 2025 revisions",
            ],
          },
          {
            id: "discover-first",
            cells: [
              "Discover-first",
              "`server/discover` in the 2026-07-28 shape; on a legacy answer, one fallback to `initialize`",
              "The Python SDK v2 in its default mode, the C# SDK 2, the Go SDK 1.7, and this site's probe",
            ],
          },
        ],
      },
    },
    {
      p: "So a server that speaks only the 2026-07-28 revision can be Verified here, because our probe is discover-first, and still turn away the most common client. The other way round, a legacy server is reached by both kinds: discover-first clients get there after their one fallback.",
    },
    { h2: "What each state means", id: "states" },
    {
      ul: [
        "**Yes**: the handshake completed and the first page of the tool list came back, as that kind of client would see it.",
        "**Yes, after the fallback** (discover-first only): a legacy server, reached after `server/discover` was refused and `initialize` worked.",
        "**No**: the server gave an answer that kind of client cannot get past. The line names it, for example `initialize` answered with -32602 or with HTTP 404, or a revision the client does not speak. The full answer is in the JSON and in the evidence.",
        "**Unknown**: nobody could tell. A credential is required, the server asked us to slow down, the probe ran out of time, it got no HTTP answer, the handshake was decided before that kind's first request was sent, or the server was not probed (opted out, needs configuration).",
      ],
    },
    { h2: "How we find out", id: "how-we-find-out" },
    {
      p: "Discover-first clients connect the way our probe does, so its own handshake and first `tools/list` page answer for them. For initialize-first clients, after a modern handshake completes the same probe sends one legacy handshake to the same address: `initialize`, `notifications/initialized` and the first `tools/list` page, plus a `DELETE` only when the server handed out a session. It goes through the same per-host limits and `Crawl-delay` as every other request, is kept as an exchange group of its own in the evidence, and changes no check, badge, uptime or incident. A legacy server gets nothing extra: its handshake already began with `initialize`.",
    },
    {
      p: "The daily second reader (see [operating](/faq/operating#cross-reader)) also starts with `initialize`. When it fails on a server whose initialize-first line is No, the server page says so in the same words, and the difference counts as explained.",
    },
    { h2: "Serving both kinds", id: "operators" },
    {
      ul: [
        "Answer `initialize` as well as `server/discover`. A dual-era server picks the era per request: a request carrying the 2026-07-28 `_meta` is modern, a plain `initialize` is legacy. The TypeScript SDK's server handler does this by default; do not switch its legacy mode to reject unless you mean to turn these clients away.",
        "If you do serve only 2026-07-28, say so in the refusal: answer `initialize` with a JSON-RPC error that lists the revisions you support, so a client can tell its user why.",
        "After a legacy handshake, answer `notifications/initialized` with 202 and the first `tools/list` page without `_meta` in the request. A server that accepts `initialize` but then refuses legacy `tools/list` is still No for these clients.",
        "If you hand out an `Mcp-Session-Id`, accept it back on every request and on the closing `DELETE`.",
      ],
    },
    {
      p: "You can check both paths yourself with the [self-test](/faq/self-test): `npm run probe -- <url>` prints a line per kind of client, and `--legacy` runs the initialize-first path alone.",
    },
  ],
};

export const CLIENTS_PAGE_ZH: FaqPage = {
  title: "哪些客户端能连上",
  summary: "客户端开启对话的方式有两种；一个服务端可能只对其中一种可用。",
  firstPublished: "2026-12-05",
  body: [
    { h2: "两种开始方式", id: "who-starts-how" },
    {
      p: "客户端要列出或调用工具，得先开启对话，而如今在用的客户端有两种开启方式。服务端页面的顶部为每种方式各显示一行。",
    },
    {
      table: {
        caption: "客户端最先发送的请求",
        head: ["类型", "最先发送", "客户端"],
        rows: [
          {
            id: "initialize-first",
            cells: [
              "先发 initialize",
              "`initialize`，然后 `notifications/initialized`；从不发 `server/discover`",
              "默认设置下的官方 TypeScript SDK 客户端、MCP Inspector，以及所有为 2025 年各修订编写的客户端",
            ],
          },
          {
            id: "discover-first",
            cells: [
              "先发 discover",
              "2026-07-28 形式的 `server/discover`；若得到旧版式的应答，回退到 `initialize` 一次",
              "默认设置下的 Python SDK v2、C# SDK 2、Go SDK 1.7，以及本站的探测器",
            ],
          },
        ],
      },
    },
    {
      p: "所以，一个只支持 2026-07-28 修订的服务端在本站可以是已通过（因为我们的探测器先发 discover），却仍然把最常见的客户端拒之门外。反过来，旧版服务端两类客户端都能连上：先发 discover 的客户端在回退一次之后到达。",
    },
    { h2: "各个状态的含义", id: "states" },
    {
      ul: [
        "**能**：握手完成，工具列表的第一页也返回了，和这类客户端看到的一样。",
        "**能，回退后**（仅先发 discover 的客户端）：旧版服务端，`server/discover` 被拒、`initialize` 成功之后连上。",
        "**不能**：服务端给出了这类客户端过不去的应答。这一行会写明是什么，例如 `initialize` 得到 -32602 或 HTTP 404，或是客户端不支持的修订。完整的应答在 JSON 和证据里。",
        "**未知**：无从判断。需要凭据、服务端要求放慢、探测用完了时间、没有收到 HTTP 应答、这类客户端的第一个请求发出之前握手已经有了结论，或者服务端没有被探测（退出探测、需要配置）。",
      ],
    },
    { h2: "我们怎样得知", id: "how-we-find-out" },
    {
      p: "先发 discover 的客户端和我们的探测器连接方式相同，所以探测器自己的握手和 `tools/list` 第一页就代表了它们。对先发 initialize 的客户端，新版握手完成后，同一次探测会向同一个地址再发一次旧版握手：`initialize`、`notifications/initialized` 和 `tools/list` 的第一页；只有服务端发了会话时才再发一个 `DELETE`。这些请求和其他请求一样遵守每台主机的限制和 `Crawl-delay`，在证据里单独成组，不改变任何检查、徽章、可用率或故障记录。旧版服务端不会多收到任何请求：它的握手本来就是从 `initialize` 开始的。",
    },
    {
      p: "每天运行的第二读取器（见[运维](/zh/faq/operating#cross-reader)）同样先发 `initialize`。它在一个「先发 initialize：不能」的服务端上失败时，服务端页面会用同样的话说明，这一差异算作已有解释。",
    },
    { h2: "让两类客户端都能连上", id: "operators" },
    {
      ul: [
        "在支持 `server/discover` 的同时也回应 `initialize`。双版本服务端按请求决定：带 2026-07-28 `_meta` 的请求是新版，普通的 `initialize` 是旧版。TypeScript SDK 的服务端处理器默认就是这样；除非有意拒绝这些客户端，不要把它的旧版模式改为拒绝。",
        "如果确实只支持 2026-07-28，就在拒绝里说明：用列出所支持修订的 JSON-RPC 错误回应 `initialize`，让客户端能告诉用户原因。",
        "旧版握手之后，用 202 回应 `notifications/initialized`，并回应请求里不带 `_meta` 的第一页 `tools/list`。接受 `initialize`、却拒绝旧版 `tools/list` 的服务端，对这类客户端仍然是「不能」。",
        "如果发放了 `Mcp-Session-Id`，就要在之后的每个请求和结束时的 `DELETE` 上接受它。",
      ],
    },
    {
      p: "你可以用[自测](/zh/faq/self-test)亲自检查两条路径：`npm run probe -- <url>` 会为每类客户端打印一行，`--legacy` 只走先发 initialize 的路径。",
    },
  ],
};
