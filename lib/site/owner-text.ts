// The words of the owners' pages in both languages (architecture.md §11): the server page's "Is this your server?", the claim
// page, the manage page, and every refusal code worded from its facts. No value ever reaches a sentence here.
import type { ClaimError, ConfigurationError } from "../vocabulary/owners";
import type { Lang } from "./labels";

export const OWNER_TEXT = {
  en: {
    sectionTitle: "Is this your server?",
    sectionIntro:
      "If you run it, claim this listing: publish one line at your server's origin to prove it, then give the site the key the registry asks for. The site then also probes it the way a client with your key would, and shows that beside the public checks. The public state stays what an anonymous client sees.",
    sectionOff: "Owner features are off on this site: it has no key to keep owners' values with.",
    claimButton: "Claim this listing",
    faqLink: "What a claim proves, and what the site does with a key",
    ownerViewTitle: "With the owner's key",
    ownerViewNone: "No owner has set a configuration for this server yet.",
    ownerViewAt: (at: string) => `Probed with the owner's configuration on ${at}.`,
    ownerViewUptime: (pct: string) => `Uptime with the owner's key over 30 days: ${pct}.`,
    publicStays: "The public state above is what an anonymous client sees; the owner's view does not change it.",
    claimTitle: "Claim a listing",
    claimKeep: "This page's address is the claim token: keep it private until the claim is verified. It is shown only here.",
    claimStep1: "Publish this line in a plain-text file at this URL (keep any lines other owners put there):",
    claimUrl: "Proof URL",
    claimBody: "Line to publish",
    claimStep2: "Then ask the site to fetch it. It fetches that URL once, follows no redirect, and says what it found.",
    verifyButton: "Verify now",
    claimPending: "Waiting for the proof.",
    claimLapsed: "This claim lapsed or was given up. Make a new one from the server page.",
    claimRules:
      "The proof is fetched again every 7 days; if it is gone twice in a row, the claim lapses and any configuration is deleted. A claim proves control of the server's address, nothing more: it is not a review of the server.",
    manageTitle: "Manage your listing",
    manageKeep: "This page's address is the key to your claim: anyone with it can change the configuration. Keep it private.",
    verifiedAt: (at: string) => `Verified on ${at}.`,
    nextCheck: (at: string) => `The proof is fetched again around ${at}.`,
    configTitle: "Configuration",
    configIntro:
      "The values are sent only to your server's own origin, with the owner's-view probe, and stored encrypted. They are never shown again, here or anywhere: this page lists names and when they were set.",
    configNone: "No value is set.",
    configSet: (name: string, at: string) => `${name}: set on ${at}`,
    configExpires: (at: string) => ` (token expires ${at})`,
    configAllowed: (names: string) => `Headers the site will send: ${names}.`,
    configVariables: (names: string) =>
      `URL variables the site fills in, for the owner's view only (the public listing keeps its URL as listed): ${names}. Each value is one path segment, or one DNS label in the host.`,
    configNoHeaders: "The registry lists no header for this remote and no credential gate was met, so there is nothing to set.",
    saveConfig: "Save configuration",
    removeConfig: "Remove the configuration",
    probeNow: "Probe now",
    probeNote: "One probe of the server, the owner's view included, within the same limits as the server page's probe again now.",
    subscribeTitle: "Get told",
    subscribeIntro:
      "A webhook or an email address for this listing: it hears when the server's state changes, and when your key is refused or your token is about to expire.",
    subscribeWebhook: "Webhook URL or email address",
    subscribeButton: "Subscribe",
    subscriptions: (n: number) => (n === 0 ? "No confirmed subscription yet." : `${n} confirmed subscription${n === 1 ? "" : "s"}.`),
    giveUpTitle: "Give up the claim",
    giveUpText: "Deletes the configuration and your subscriptions for this listing; this link stops working.",
    giveUpButton: "Give up the claim",
    back: "Back to the server page",
    secretTitle: "Webhook subscribed",
    secretSubscribed: (server: string) => `The test message got a 2xx: this webhook hears about ${server} and about your configuration.`,
    secretShown: "Signing secret (shown this once: keep it now):",
    secretSigned: "Every message carries X-Mcp-Status-Signature: sha256=<hex HMAC-SHA256 of the body> made with it.",
    secretGone: "It is not shown again, on the manage page or anywhere else.",
    backToManage: "Back to the manage page",
    done: {
      verified: "Verified: this is your manage page. Keep its address.",
      configured: "Saved. The next round probes the server with it.",
      removed: "The configuration is removed.",
      probe_queued: "A probe is queued.",
      subscribed: "Subscribed.",
      confirmation_sent: "A confirmation email is on its way.",
      given_up: "The claim is given up.",
    } as Record<string, string>,
  },
  zh: {
    sectionTitle: "这是你的服务端吗？",
    sectionIntro:
      "如果你运营它，可以认领这个条目：在服务端的源地址发布一行文字来证明，再把注册表要求的密钥交给本站。之后本站还会像持有你密钥的客户端那样探测它，并把结果显示在公开检查旁边。公开状态仍然是匿名客户端看到的样子。",
    sectionOff: "本站未开启所有者功能：没有用于保管所有者配置的密钥。",
    claimButton: "认领此条目",
    faqLink: "认领能证明什么，本站如何使用密钥",
    ownerViewTitle: "使用所有者的密钥",
    ownerViewNone: "还没有所有者为此服务端设置配置。",
    ownerViewAt: (at: string) => `于 ${at} 使用所有者的配置探测。`,
    ownerViewUptime: (pct: string) => `使用所有者密钥的 30 天可用率：${pct}。`,
    publicStays: "上面的公开状态是匿名客户端看到的；所有者视图不会改变它。",
    claimTitle: "认领条目",
    claimKeep: "本页地址就是认领令牌：在验证完成前请勿公开。它只在这里显示。",
    claimStep1: "把下面这一行放进此 URL 的纯文本文件（其他所有者写入的行请保留）：",
    claimUrl: "证明 URL",
    claimBody: "要发布的一行",
    claimStep2: "然后让本站去读取。本站只读取该 URL 一次，不跟随重定向，并告诉你读到了什么。",
    verifyButton: "立即验证",
    claimPending: "等待证明。",
    claimLapsed: "此认领已失效或已被放弃。请从服务端页面重新认领。",
    claimRules:
      "证明每 7 天重新读取一次；连续两次找不到，认领即失效，配置也会被删除。认领只证明你能控制服务端的地址，仅此而已：它不是对服务端的评审。",
    manageTitle: "管理你的条目",
    manageKeep: "本页地址就是你认领的钥匙：任何拿到它的人都能更改配置。请勿公开。",
    verifiedAt: (at: string) => `于 ${at} 验证。`,
    nextCheck: (at: string) => `大约在 ${at} 再次读取证明。`,
    configTitle: "配置",
    configIntro:
      "这些值只会随所有者视图的探测发送到你服务端自己的源地址，并加密保存。它们不会再显示，这里和任何地方都不会：本页只列出名称和设置时间。",
    configNone: "尚未设置任何值。",
    configSet: (name: string, at: string) => `${name}：设置于 ${at}`,
    configExpires: (at: string) => `（令牌于 ${at} 过期）`,
    configAllowed: (names: string) => `本站会发送的请求头：${names}。`,
    configVariables: (names: string) =>
      `本站填入的 URL 变量，只用于所有者视图（公开条目仍使用注册表列出的 URL）：${names}。每个值是一个路径段，在主机里则是一个 DNS 标签。`,
    configNoHeaders: "注册表没有为此远程地址列出请求头，也没有遇到凭据关卡，因此没有可设置的内容。",
    saveConfig: "保存配置",
    removeConfig: "删除配置",
    probeNow: "立即探测",
    probeNote: "探测一次服务端（包括所有者视图），限制与服务端页面的“立即重新探测”相同。",
    subscribeTitle: "通知我",
    subscribeIntro: "为此条目设置一个 webhook 或邮箱：服务端状态变化时会收到通知，你的密钥被拒绝或令牌即将过期时也会收到。",
    subscribeWebhook: "Webhook URL 或邮箱地址",
    subscribeButton: "订阅",
    subscriptions: (n: number) => (n === 0 ? "还没有已确认的订阅。" : `${n} 个已确认的订阅。`),
    giveUpTitle: "放弃认领",
    giveUpText: "删除此条目的配置和你的订阅；此链接随即失效。",
    giveUpButton: "放弃认领",
    back: "返回服务端页面",
    secretTitle: "Webhook 已订阅",
    secretSubscribed: (server: string) => `测试消息已得到 2xx 回应：${server} 的变化和你的配置问题都会通知此 webhook。`,
    secretShown: "签名密钥（只显示这一次，请现在保存）：",
    secretSigned: "每条消息都带有 X-Mcp-Status-Signature: sha256=<正文的 HMAC-SHA256>，用它计算。",
    secretGone: "它不会再显示，管理页面和其他任何地方都不会。",
    backToManage: "返回管理页面",
    done: {
      verified: "已验证：这里是你的管理页面。请保存它的地址。",
      configured: "已保存。下一轮会用它探测服务端。",
      removed: "配置已删除。",
      probe_queued: "已排队探测。",
      subscribed: "已订阅。",
      confirmation_sent: "确认邮件已发出。",
      given_up: "已放弃认领。",
    } as Record<string, string>,
  },
} as const;

/** A claim refusal in words, from its code and what was fetched. */
export function claimErrorText(lang: Lang, error: ClaimError, status: number | null): string {
  const zh = lang === "zh";
  const got = status === null ? "" : zh ? `（HTTP ${status}）` : ` (HTTP ${status})`;
  const words: Record<ClaimError, [string, string]> = {
    proof_not_found: [
      `The proof URL did not answer with the file${got}. Publish it, then verify again.`,
      `证明 URL 没有返回该文件${got}。请发布后再验证。`,
    ],
    proof_mismatch: [
      `The file was found${got}, but no line of it is this claim's proof.`,
      `找到了文件${got}，但其中没有一行是本次认领的证明。`,
    ],
    proof_redirected: [
      `The proof URL answered with a redirect${got}; the site follows none, so serve the file at that URL itself.`,
      `证明 URL 返回了重定向${got}；本站不跟随重定向，请直接在该 URL 提供文件。`,
    ],
    proof_unreachable: ["The proof URL could not be fetched: no answer came.", "无法读取证明 URL：没有收到回应。"],
    opted_out: [
      "The server's host asked not to be probed, so the site sends it nothing, not even a proof check.",
      "该服务端的主机要求不被探测，因此本站不会向它发送任何请求，包括证明检查。",
    ],
    address_not_allowed: ["The proof's address is not one the site may fetch.", "证明的地址不在本站允许读取的范围内。"],
    no_remote: [
      "This server has no remote the site probes, so there is nowhere to publish a proof.",
      "此服务端没有本站探测的远程地址，因此无处发布证明。",
    ],
    unknown_server: ["No server by that registry name.", "没有这个注册表名称的服务端。"],
    unknown_claim: ["No claim by this link.", "没有与此链接对应的认领。"],
    claim_lapsed: ["This claim lapsed or was given up; make a new one.", "此认领已失效或已被放弃；请重新认领。"],
    rate_limited: ["Too many tries from this address; try again later.", "来自此地址的尝试过多；请稍后再试。"],
    owners_disabled: ["Owner features are off on this site.", "本站未开启所有者功能。"],
    variable_host: [
      "The host of this server's URL is a URL variable, so there is no one origin to publish a proof on: this listing cannot be claimed.",
      "此服务端 URL 的主机部分是 URL 变量，没有唯一的源地址可以发布证明，因此无法认领此条目。",
    ],
  };
  return words[error][zh ? 1 : 0];
}

/** A configuration refusal in words (the API's message carries the names; the page says what to do). */
export function configurationErrorText(lang: Lang, error: ConfigurationError): string {
  const words: Record<ConfigurationError, [string, string]> = {
    invalid_configuration: ["Fill in at least one value.", "请至少填写一个值。"],
    header_not_listed: [
      "The site only sends the headers the registry lists for this remote.",
      "本站只发送注册表为此远程地址列出的请求头。",
    ],
    invalid_header_name: ["That is not a header name.", "这不是有效的请求头名称。"],
    invalid_value: [
      "A value may not contain a line break or control character; a URL variable may not contain whitespace, / ? # @ or \\, and in the host it must be one DNS label.",
      "值不能包含换行符或控制字符；URL 变量不能包含空白、/ ? # @ 或 \\，在主机里必须是一个 DNS 标签。",
    ],
    value_too_long: ["A value may be at most 8 KB.", "值最多 8 KB。"],
    unknown_owner: ["No owner by this link.", "没有与此链接对应的所有者。"],
    rate_limited: ["Too many tries from this address; try again later.", "来自此地址的尝试过多；请稍后再试。"],
    owners_disabled: ["Owner features are off on this site.", "本站未开启所有者功能。"],
    variable_not_listed: [
      "The site only fills the URL variables the registry lists without a default for this remote.",
      "本站只填写注册表为此远程地址列出、且没有默认值的 URL 变量。",
    ],
    variable_missing: [
      "Fill in every URL variable: without all of them the URL has no address.",
      "请填写每一个 URL 变量：缺少任何一个，URL 都没有可用的地址。",
    ],
  };
  return words[error][lang === "zh" ? 1 : 0];
}
