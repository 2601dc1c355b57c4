// What the server page says of a server whose registry entry needs configuration (architecture.md §2.6, suite 0.15.0):
// which of the reach cases it was, in one plain sentence per language, worded from the stored codes. Header names come
// from the registry (hostile input): they are only ever rendered as text, which React escapes, and never sent.
import type { Reach, ReachRefusalShape } from "../vocabulary/checks";
import type { Lang } from "./labels";

export interface ReachFacts {
  needed: boolean;
  headers: string[];
  reach: Reach | null;
  refusal?: { status: number; shape: ReachRefusalShape };
}

/** Names as a reader sees them, at most five ("`X-Api-Key`", "`A` and `B`"). */
function names(headers: readonly string[], lang: Lang): string {
  const shown = headers.slice(0, 5).map((h) => `\`${h.slice(0, 80)}\``);
  const more = headers.length > 5 ? (lang === "en" ? ` and ${headers.length - 5} more` : ` 等 ${headers.length} 个`) : "";
  if (lang === "zh") return shown.join("、") + more;
  if (shown.length <= 1) return shown.join("") + more;
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}${more}`;
}

const SHAPE_WORDS: Record<Lang, Record<ReachRefusalShape, string>> = {
  en: {
    jsonrpc_error: "a JSON-RPC error a client can read",
    bare_status: "a plain refusal a client understands",
    malformed: "an answer a client cannot act on",
  },
  zh: {
    jsonrpc_error: "客户端能读懂的 JSON-RPC 错误",
    bare_status: "客户端能理解的普通拒绝",
    malformed: "客户端无从处理的应答",
  },
};

/** The plain sentence for the page, or null when the entry needs no configuration. */
export function reachSentence(c: ReachFacts, lang: Lang): string | null {
  if (!c.needed) return null;
  const h = names(c.headers, lang);
  const header = c.headers.length === 1 ? "header" : "headers";
  if (lang === "en") {
    switch (c.reach) {
      case "no_address":
        return "Not probed: the listed URL has a variable with no default, so there is no address to send a request to until a user fills it in.";
      case "answered":
        return `Answered without the ${h} ${header} the registry marks required: the checks below are what any client sees before it is configured.`;
      case "refused":
        return `Refused${c.refusal ? ` with ${c.refusal.status}` : ""} without the ${h} ${header} the registry marks required: configure the key to connect${c.refusal ? ` (the refusal was ${SHAPE_WORDS.en[c.refusal.shape]})` : ""}. A missing key is never counted as a failure.`;
      case "gated":
        return `Asked for credentials (401 with a valid challenge) without the ${h} ${header} the registry lists: configure the key or sign in to connect.`;
      case "unreachable":
        return `No HTTP answer at all, with the ${h} ${header} left out: a missing key does not explain silence, so this counts as a failure like any other.`;
      default:
        return `The registry marks the ${h} ${header} required; the site probes without ${c.headers.length === 1 ? "it" : "them"} and has no verdict on that yet.`;
    }
  }
  switch (c.reach) {
    case "no_address":
      return "未探测：登记的 URL 里有没有默认值的变量，在用户填写之前没有地址可以发送请求。";
    case "answered":
      return `缺少注册表标为必填的请求头 ${h} 时仍作了完整应答：下面的检查就是任何客户端在配置之前看到的情况。`;
    case "refused":
      return `缺少注册表标为必填的请求头 ${h} 时${c.refusal ? `以 ${c.refusal.status} ` : ""}拒绝：配置好密钥即可连接${c.refusal ? `（拒绝的形式是${SHAPE_WORDS.zh[c.refusal.shape]}）` : ""}。缺少密钥从不算作未通过。`;
    case "gated":
      return `缺少注册表列出的请求头 ${h} 时要求凭据（带合法质询的 401）：配置密钥或登录后即可连接。`;
    case "unreachable":
      return `不带请求头 ${h} 时完全没有 HTTP 应答：缺少密钥解释不了没有应答，所以和其他服务端一样算作未通过。`;
    default:
      return `注册表把请求头 ${h} 标为必填；本站不带它进行探测，目前还没有结论。`;
  }
}
