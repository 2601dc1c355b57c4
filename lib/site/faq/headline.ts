// The FAQ's blocks on the overall state, the kinds of Not checked and explained cross-read differences, in both
// languages: the server page links each Not checked kind to its row here (`notCheckedAnchor`).
import type { NotCheckedCause } from "../../vocabulary/checks";
import { MODERN_REVISION } from "../../probe/protocol";
import { CHECK_LABELS, NOT_CHECKED_CAUSE_LABELS, STATE_LABELS, type Lang } from "../labels";
import { faqPath } from "../paths";
import type { Block, FaqSlug } from "./types";

/** The row of the kinds table that explains one kind of Not checked. */
export const notCheckedAnchor = (cause: NotCheckedCause) => `not-checked-${cause.replace(/_/g, "-")}`;

type KindText = Record<NotCheckedCause, [what: string, todo: string]>;

const at = (lang: Lang, slug: FaqSlug, anchor?: string) => `${faqPath(lang, slug)}${anchor ? `#${anchor}` : ""}`;

const KINDS_EN: KindText = {
  credential_required: [
    "The step that mattered answered 401 with a challenge a client can parse. The probe carries no credentials, so it stopped there.",
    `Nothing, if the server is meant to need a login. [How the gate is read](${at("en", "credential-gate")}).`,
  ],
  slow_down: [
    "The server answered 429, or 503 with `Retry-After`, and got nothing more from the probe that round.",
    "Nothing; the probe comes back after the wait it was given.",
  ],
  opted_out: [
    "The host asked not to be probed, on the operator list or in its `robots.txt`, so no request was sent to it.",
    `To be probed again, [undo the opt-out](${at("en", "opting-out", "undo")}).`,
  ],
  needs_configuration: [
    "Every remote the registry lists needs a value only a user can supply: a URL variable without a default, or a required header.",
    `List one remote an anonymous client can reach, or give the variable a default ([details](${at("en", "which-servers", "needs-configuration")})).`,
  ],
  withheld: [
    "The reserved-tool call was held back on purpose: no complete list to check the name against, a credential gate, a slow-down, a failed handshake, or the reserved name in the list.",
    `Nothing; the reason names the condition ([every condition](${at("en", "withheld-call", "withheld")})).`,
  ],
  probe_network: [
    `The probe's own network was failing while the server was due, so nothing was concluded about the server ([how the site tells](${at("en", "own-network", "pause")})).`,
    "Nothing; the server is due again in the next round.",
  ],
  address_policy: [
    "The address, of the server or of its metadata, lies in a private or loopback range, which the probe never contacts.",
    "Publish it at a public address.",
  ],
  invalid_url: ["The URL in the registry entry is not one a client can send a request to.", "Correct the URL in the registry entry."],
  no_challenge: [
    "No 401 or 403 with a challenge was seen, so there was no auth metadata to look for; open servers usually end here.",
    "Nothing.",
  ],
  no_metadata_url: [
    "A challenge arrived without a `resource_metadata` URL.",
    "Add `resource_metadata`, so clients can find the authorization server.",
  ],
  deadline: [
    "The probe's own time budget for the server ran out while the server was still answering.",
    "Nothing is wrong with the server; fewer round trips (fewer, larger pages) let the probe finish.",
  ],
  not_reached: [
    "The probe stopped before this step, for the reason given under an earlier check.",
    "Read the first check above that is not Verified.",
  ],
};

const KINDS_ZH: KindText = {
  credential_required: [
    "关键的那一步返回了 401，并附有客户端能解析的质询。探测器不带任何凭据，所以停在这里。",
    `如果服务端本来就要求登录，无需处理。[凭据拦截的判定方式](${at("zh", "credential-gate")})。`,
  ],
  slow_down: [
    "服务端返回 429，或带 `Retry-After` 的 503；这一轮探测器不再向它发送任何请求。",
    "无需处理；等到对方要求的时间过去后，探测器会再来。",
  ],
  opted_out: [
    "主机通过运营方名单或自己的 `robots.txt` 要求不被探测，所以没有向它发送任何请求。",
    `想重新被探测，请[撤销退出](${at("zh", "opting-out", "undo")})。`,
  ],
  needs_configuration: [
    "注册表里列出的每个远程端点都需要只有用户才能提供的值：没有默认值的 URL 变量，或必填的请求头。",
    `至少列出一个匿名客户端就能连上的远程端点，或给变量设默认值（[详情](${at("zh", "which-servers", "needs-configuration")})）。`,
  ],
  withheld: [
    "保留工具调用是有意不发的：没有完整列表可供核对名称、遇到凭据拦截、被要求放慢、握手失败，或列表里恰好有保留名。",
    `无需处理；原因里写明了是哪种情况（[全部条件](${at("zh", "withheld-call", "withheld")})）。`,
  ],
  probe_network: [
    `轮到这个服务端时，探测器自己的网络出了故障，因此没有对它下任何结论（[如何判断](${at("zh", "own-network", "pause")})）。`,
    "无需处理；下一轮会再次探测它。",
  ],
  address_policy: ["服务端或其元数据的地址落在私有或回环地址段，探测器从不访问这些地址。", "把它发布在公网地址上。"],
  invalid_url: ["注册表条目里的 URL 无法用来发送请求。", "更正注册表条目里的 URL。"],
  no_challenge: ["没有见到带质询的 401 或 403，因此没有鉴权元数据可找；开放的服务端通常就是这种情况。", "无需处理。"],
  no_metadata_url: ["收到的质询里没有 `resource_metadata` URL。", "加上 `resource_metadata`，让客户端能找到授权服务器。"],
  deadline: ["服务端还在响应时，探测器给它的时间预算先用完了。", "服务端本身没有问题；减少往返次数（页数更少、每页更大）就能让探测读完。"],
  not_reached: ["探测器在这一步之前就停下了，原因写在前面的某项检查里。", "看上面第一项不是已通过的检查。"],
};

const TEXT = {
  en: {
    overallH: "The overall state",
    overall: (S: Record<string, string>, C: Record<string, string>) =>
      `A server's headline, on its page, its badge, the index and as \`overall\` in the JSON, sums the five checks up in one state. It is ${S.failed} when any check is ${S.failed}; otherwise ${S.observed_risk} when any check is; otherwise ${S.verified} only when ${C.handshake} and ${C.tools_list} are both ${S.verified}, since only then did a client get a session and the tools on offer. In every other case it is ${S.not_checked}, naming the kind of the first discovery check that was not checked. So a server behind a login whose metadata is in order is ${S.not_checked} overall: its ${C.auth_metadata} is ${S.verified}, yet nobody outside could read what it serves.`,
    kindsH: "Kinds of Not checked",
    kindsCaption: "What each kind means and what to do",
    kindsHead: ["Kind", "What happened", "What to do"],
    explainedH: "Explained and unexplained differences",
    explained: () =>
      `A \`disagreed\` or \`only_cross_reader\` outcome is explained when the probe's own verdict follows a rule that forbids what the second reader did: the server declined the ${MODERN_REVISION} handshake with \`-32020\`, \`-32021\` or \`-32022\`, answered \`server/discover\` with a 5xx or a redirect, or sent a discover result that lists only newer revisions, and in each of these the probe never falls back; or the probe was asked to slow down, or the host opted out. Such a difference is a fact about the server (clients that open with \`initialize\` get in, clients that open with \`server/discover\` do not), so the server's page says it beside the checks. The \`cross_read\` alert counts only differences no rule explains, and \`/api/cross-reads\` marks every outcome with \`explained\`.`,
  },
  zh: {
    overallH: "总体状态",
    overall: (S: Record<string, string>, C: Record<string, string>) =>
      `服务端的总体状态（显示在它的页面、徽章和首页列表上，JSON 里是 \`overall\`）用一个状态概括五项检查：任何一项${S.failed}，总体就是${S.failed}；否则只要有一项${S.observed_risk}，总体就是${S.observed_risk}；否则只有${C.handshake}和${C.tools_list}都${S.verified}时才算${S.verified}，因为只有这样客户端才真正建立了会话、拿到了工具。其余情况都是${S.not_checked}，并注明第一项未检查的发现类检查属于哪种情况。所以，登录之后才能访问、元数据又没有问题的服务端，总体是${S.not_checked}：它的${C.auth_metadata}虽然${S.verified}，但外部没有人能读到它提供的内容。`,
    kindsH: "未检查的几种情况",
    kindsCaption: "每种情况的含义与处理方式",
    kindsHead: ["情况", "发生了什么", "该怎么做"],
    explainedH: "有解释与无解释的差异",
    explained: () =>
      `如果探测器自己的结论遵循的规则恰好不允许第二读取器那样做，\`disagreed\` 或 \`only_cross_reader\` 结果就算有解释：服务端用 \`-32020\`、\`-32021\` 或 \`-32022\` 拒绝了 ${MODERN_REVISION} 握手，对 \`server/discover\` 返回 5xx 或重定向，或返回只列出更新修订的 discover 结果，这些情况下探测器从不回退；或者探测器被要求放慢，或主机已退出探测。这样的差异说明的是服务端本身（先发 \`initialize\` 的客户端能连上，先发 \`server/discover\` 的客户端连不上），所以服务端页面会把它写在检查结果旁边。\`cross_read\` 告警只统计没有任何规则能解释的差异，\`/api/cross-reads\` 的每条结果都带有 \`explained\` 标记。`,
  },
} as const;

const KINDS: Record<Lang, KindText> = { en: KINDS_EN, zh: KINDS_ZH };

/** The overall-state paragraph and the kinds-of-Not-checked table (page observed-unsigned). */
export function overallBlocks(lang: Lang): Block[] {
  const t = TEXT[lang];
  const S = STATE_LABELS[lang];
  const C = lang === "zh" ? Object.fromEntries(Object.entries(CHECK_LABELS.zh).map(([k, v]) => [k, `「${v}」`])) : CHECK_LABELS.en;
  const labels = NOT_CHECKED_CAUSE_LABELS[lang];
  return [
    { h2: t.overallH, id: "overall" },
    { p: t.overall(S, C) },
    { h2: t.kindsH, id: "not-checked" },
    {
      table: {
        caption: t.kindsCaption,
        head: [...t.kindsHead],
        rows: (Object.keys(KINDS[lang]) as NotCheckedCause[]).map((cause) => ({
          id: notCheckedAnchor(cause),
          cells: [`**${labels[cause]}**`, ...KINDS[lang][cause]],
        })),
      },
    },
  ];
}

/** Explained and unexplained cross-read differences (page operating). */
export function explainedBlocks(lang: Lang): Block[] {
  return [{ h2: TEXT[lang].explainedH, id: "explained" }, { p: TEXT[lang].explained() }];
}
