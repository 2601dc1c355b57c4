import { hintSentence, type Hint } from "../checks/hints";
import { observationSentence } from "../checks/observation-text";
import type { ObservationFacts } from "../checks/observations";
import type { HintCode } from "../vocabulary/checks";
import type { Lang } from "./labels";

// The sentences of hints and observations on the server pages, in both languages. English is lib/checks' own wording,
// unchanged (the API, the CLI and /mcp give it); the Chinese is rendered here from the same stored code and facts, with
// the FAQ's terms (lib/site/faq/zh.ts). Facts (hosts, URLs, names, codes) stay as recorded, inside the sentence.

type HintOf<C extends HintCode> = Extract<Hint, { code: C }>;

function dayOf(iso: string | undefined): string | undefined {
  return iso && !Number.isNaN(Date.parse(iso)) ? iso.slice(0, 10) : undefined;
}

/** "`X-Api-Key` 请求头", "`A`、`B` 和 `C` 请求头", "`A`…`E` 等 7 个请求头": hintSentence's header list in Chinese. */
export function headerListZh(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((n) => `\`${n}\``);
  if (names.length > 5) return `${shown.join("、")} 等 ${names.length} 个请求头`;
  if (shown.length <= 1) return `${shown.join("")} 请求头`;
  return `${shown.slice(0, -1).join("、")} 和 ${shown[shown.length - 1]} 请求头`;
}

/** One Chinese sentence per hint code: the mapped type makes a code added to HINT_CODES fail to compile until worded. */
const HINT_ZH: { [C in HintCode]: (h: HintOf<C>) => string } = {
  invalid_host: (h) =>
    `把服务端对外使用的主机名加进它的 Host 白名单：Host 不在仅限 localhost 的名单上的请求，它一律拒绝${h.host ? `（它报出的是 ${h.host}）` : ""}，MCP SDK 的应用辅助函数默认就是这样设置的。`,
  redirect: (h) =>
    h.target === "remote"
      ? `在注册表中把 ${h.location} 登记为远程端点的 URL：${h.from} 重定向到那里，而 MCP 客户端发 POST 时不跟随重定向。`
      : `让 resource_metadata 直接指向 ${h.location}：${h.from} 重定向到那里，而客户端查找元数据时不跟随重定向。`,
  transport_mismatch: (h) =>
    `在注册表中把这个远程端点登记为 ${h.speaks}：它登记的是 ${h.listed}，却应答了 ${h.speaks === "sse" ? "2024-11-05 HTTP+SSE" : "Streamable HTTP"} 握手。`,
  tls_expired: (h) => {
    const day = dayOf(h.validTo);
    return `为 ${h.host} 续期 TLS 证书：它已${day ? `于 ${day} ` : ""}过期，客户端因此拒绝连接。`;
  },
  tls_wrong_name: (h) =>
    `换一张覆盖 ${h.host} 的 TLS 证书：现在出示的证书${h.names?.length ? `写的是 ${h.names.join("、")}` : "属于别的名称"}，客户端因此拒绝连接。`,
  tls_unknown_issuer: (h) =>
    `在 ${h.host} 上提供由公共可信 CA 签发的完整证书链：客户端无法验证所出示证书的签发者${h.issuer ? `（${h.issuer}）` : ""}（${h.errorCode}），这通常意味着缺了中间证书。`,
  connection_refused: (h) => `确认服务端正在 ${h.host} 上运行并监听，或在注册表中改正主机和端口：那里的连接被拒绝。`,
  name_not_found: (h) => `为 ${h.host} 发布 DNS 记录，或在注册表中改正主机名：这个名称不存在。`,
  not_acceptable: (h) => `接受 Accept 请求头为“${h.accept.slice(0, 80)}”的请求，MCP 规范要求客户端发送的正是它：服务端对它回了 406。`,
  unsupported_media_type: (h) =>
    `接受 Content-Type 为“${h.contentType.slice(0, 80)}”的 POST 请求体，MCP 客户端正是这样发送的：服务端对它回了 415。`,
  unreadable_refusal: (h) =>
    `对不带 ${headerListZh(h.headers)} 的请求，请回 HTTP 401 加 WWW-Authenticate 质询，或回 JSON-RPC 错误，而不是现在的 HTTP ${h.status}：这样客户端才能告诉用户该配置哪个密钥。`,
};

/** What the operator should change, in the page's language. */
export function hintSentenceIn(lang: Lang, h: Hint): string {
  if (lang === "en") return hintSentence(h);
  return (HINT_ZH[h.code] as (h: Hint) => string)(h);
}

/** One observation in the page's language: lib/checks' exhaustive switch words both (the FAQ's examples use it too). */
export function observationSentenceIn(lang: Lang, f: ObservationFacts): string {
  return observationSentence(f, lang);
}
