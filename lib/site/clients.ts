// architecture.md §2.10: the server page's one line per kind of client, in both languages, rendered from the stored codes
// and facts (never from another sentence). Only statuses, JSON-RPC codes and revisions reach the line: a server's own
// message stays in the JSON and the evidence, so nothing it says can become markup on the page.
import type { ClientFactMethod, ClientFacts, ClientVerdict } from "../checks/clients";
import type { ClientKind } from "../vocabulary/clients";
import type { Lang } from "./labels";

const WHO: Record<ClientKind, Record<Lang, string>> = {
  initializeFirst: {
    en: "Clients that start with `initialize` (the TypeScript SDK by default, the MCP Inspector, 2025-era clients)",
    zh: "先发 `initialize` 的客户端（默认设置下的 TypeScript SDK、MCP Inspector、2025 年代的客户端）",
  },
  discoverFirst: {
    en: "Clients that start with `server/discover` (the Python SDK v2 by default, the C# SDK 2, the Go SDK 1.7)",
    zh: "先发 `server/discover` 的客户端（默认设置下的 Python SDK v2、C# SDK 2、Go SDK 1.7）",
  },
};

const METHOD: Record<ClientFactMethod, Record<Lang, string>> = {
  initialize: { en: "`initialize`", zh: "`initialize`" },
  "notifications/initialized": { en: "`notifications/initialized`", zh: "`notifications/initialized`" },
  "tools/list": { en: "the first `tools/list` page", zh: "`tools/list` 的第一页" },
  "server/discover": { en: "`server/discover`", zh: "`server/discover`" },
  sse_stream: { en: "the SSE stream's GET", zh: "SSE 流的 GET 请求" },
};

/** "-32602", "HTTP 404", "an answer": what the line may name of an answer. */
function answer(f: ClientFacts, lang: Lang): string {
  if (f.rpcCode !== undefined) return String(f.rpcCode);
  if (f.status !== undefined) return `HTTP ${f.status}`;
  return lang === "en" ? "no usable answer" : "无法使用的应答";
}

function why(v: ClientVerdict<string>, lang: Lang): string {
  const f = v.facts;
  const m = f.method ? METHOD[f.method][lang] : lang === "en" ? "the handshake" : "握手";
  const en = lang === "en";
  switch (v.code) {
    case "read":
      if (v.state === "yes_after_fallback")
        return en
          ? `after one fallback to \`initialize\`, ${f.revision ?? "a legacy revision"} is agreed and the tools are listed`
          : `回退到 \`initialize\` 一次之后，商定 ${f.revision ?? "旧版修订"}，并能列出工具`;
      return en ? `${f.revision ?? "a revision"} is agreed and the tools are listed` : `商定 ${f.revision ?? "修订"}，并能列出工具`;
    case "refused":
      return en ? `the server answers ${m} with ${answer(f, lang)}` : `服务端对 ${m} 的应答是 ${answer(f, lang)}`;
    case "no_common_revision":
      return en
        ? `the server answers ${m} with revision ${f.revision ?? "unknown"}, which they do not speak`
        : `服务端对 ${m} 答以修订 ${f.revision ?? "未知"}，这类客户端不支持`;
    case "declined":
      return en ? `the server declines ${m} with ${answer(f, lang)}` : `服务端以 ${answer(f, lang)} 拒绝了 ${m}`;
    case "credential_required":
      return en ? `${m} needs a credential` : `${m} 需要凭据`;
    case "slow_down":
      return en ? "the server asked the probe to slow down first" : "服务端先要求探测器放慢";
    case "deadline":
      return en ? "the probe ran out of time first" : "探测器先用完了时间";
    case "no_answer":
      return en ? `${m} got no HTTP answer` : `${m} 没有收到 HTTP 应答`;
    case "not_tried":
      return en ? `the probe did not send ${m === "the handshake" ? "it" : m}` : `探测器没有发送${m === "握手" ? "它" : m}`;
    case "not_probed":
      return en ? "the server has not been probed" : "这个服务端没有被探测";
  }
}

const VERDICT: Record<string, Record<Lang, string>> = {
  yes: { en: "can connect", zh: "能连上" },
  yes_after_fallback: { en: "can connect", zh: "能连上" },
  no: { en: "cannot connect", zh: "连不上" },
  unknown: { en: "not known whether they can connect", zh: "能否连上尚不清楚" },
};

/** One plain line per kind of client, with `code` in backticks (rendered by <Inline>). */
export function clientLine(kind: ClientKind, v: ClientVerdict<string>, lang: Lang): string {
  const verdict = VERDICT[v.state]?.[lang] ?? VERDICT.unknown![lang];
  const sep = lang === "en" ? ": " : "：";
  const end = lang === "en" ? "." : "。";
  const who = WHO[kind][lang];
  if (v.state === "unknown")
    return lang === "en" ? `${who}: ${verdict}, because ${why(v, lang)}.` : `${who}${sep}${verdict}，因为${why(v, lang)}${end}`;
  return lang === "en" ? `${who} ${verdict}: ${why(v, lang)}.` : `${who}${verdict}${sep}${why(v, lang)}${end}`;
}

/** The line's state as the page marks it. */
export const CLIENT_STATE_LABELS: Record<string, Record<Lang, string>> = {
  yes: { en: "Yes", zh: "能" },
  yes_after_fallback: { en: "Yes, after the fallback", zh: "能，回退后" },
  no: { en: "No", zh: "不能" },
  unknown: { en: "Unknown", zh: "未知" },
};
