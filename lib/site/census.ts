import { CHECK_STATES, REFUSAL_CODES } from "../vocabulary/checks";
import { KNOWN_REVISIONS, TRANSPORTS } from "../probe/protocol";
import { REACH_KEYS, type CensusDay } from "../store/census";
import { DISCOVER_FIRST_STATES, INITIALIZE_FIRST_STATES } from "../vocabulary/clients";
import { CLIENT_STATE_LABELS } from "./clients";
import type { Lang } from "./labels";
import { NOT_CHECKED_CAUSE_LABELS, STATE_LABELS } from "./labels";

// What /census and /zh/census draw from the daily census rows (architecture.md §3): the window in the URL, and for each chart
// its series, one value per day (null: no row that day, or a row that does not carry this count) and its words in both
// languages. Pure: the page reads the rows and hands them here.

export const CENSUS_WINDOWS = ["90d", "1y", "all"] as const;
export type CensusWindow = (typeof CENSUS_WINDOWS)[number];
export const DEFAULT_CENSUS_WINDOW: CensusWindow = "90d";
const WINDOW_DAYS: Record<Exclude<CensusWindow, "all">, number> = { "90d": 90, "1y": 365 };

/** The `window` query parameter: absent means the default; any other value than the allowed ones is an error. */
export function parseCensusWindow(v: string | string[] | null | undefined): CensusWindow | { error: string } {
  if (v === undefined || v === null) return DEFAULT_CENSUS_WINDOW;
  const s = Array.isArray(v) ? v[0] : v;
  if ((CENSUS_WINDOWS as readonly string[]).includes(s ?? "")) return s as CensusWindow;
  return { error: `window must be one of ${CENSUS_WINDOWS.join(", ")}; ${JSON.stringify(s)} is not.` };
}

/** The window a page renders: proxy.ts answers a value that is not allowed with 400 before any page renders. */
export function censusWindowOf(sp: Record<string, string | string[] | undefined>): CensusWindow {
  const w = parseCensusWindow(sp.window);
  return typeof w === "string" ? w : DEFAULT_CENSUS_WINDOW;
}

export const censusPath = (lang: Lang, window: CensusWindow = DEFAULT_CENSUS_WINDOW) =>
  `${lang === "zh" ? "/zh" : ""}/census${window === DEFAULT_CENSUS_WINDOW ? "" : `?window=${window}`}`;

const DAY_MS = 86_400_000;
const addDay = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** Every UTC day of the window, oldest first, ending today; "all" starts at the first row (today alone without one). */
export function windowDays(window: CensusWindow, today: string, firstRow: string | undefined): string[] {
  const first = window === "all" ? (firstRow && firstRow < today ? firstRow : today) : addDay(today, -(WINDOW_DAYS[window] - 1));
  const days: string[] = [];
  for (let d = first; d <= today; d = addDay(d, 1)) days.push(d);
  return days;
}

export interface Series {
  key: string;
  label: string;
  /** The CSS class of its colour. */
  tone: string;
}

export interface ChartModel {
  id: string;
  title: string;
  /** What the shares are of, one sentence. */
  of: string;
  kind: "share" | "count";
  series: Series[];
  /** Per window day: counts per series key, or null where there is nothing to draw. */
  values: (Record<string, number> | null)[];
}

const TONES = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"];
const tone = (i: number) => TONES[i % TONES.length]!;
/** Client states in the colours of the check states they read like: yes as Verified, no as Failed, unknown as not probed. */
const CLIENT_TONES: Record<string, string> = {
  yes: "state-verified",
  yes_after_fallback: "t4",
  no: "state-failed",
  unknown: "state-none",
};

interface Words {
  revisions: [string, string];
  eras: [string, string];
  modern: string;
  legacy: string;
  transports: [string, string];
  transportLabels: Record<(typeof TRANSPORTS)[number], string>;
  auth: [string, string];
  authLabels: { open: string; gate_usable_metadata: string; gate_no_usable_metadata: string };
  overall: [string, string];
  never: string;
  refusals: [string, string];
  registry: [string, string];
  registryLabel: string;
  otherRevision: string;
  reach: [string, string];
  reachLabels: Record<(typeof REACH_KEYS)[number], string>;
  initializeFirst: [string, string];
  discoverFirst: [string, string];
}

export const CENSUS_WORDS: Record<Lang, Words> = {
  en: {
    revisions: ["Share of each agreed revision", "Of the servers with which a protocol revision was agreed."],
    eras: [
      "Modern against legacy",
      "Of the servers whose handshake completed: server/discover (modern) or initialize and HTTP+SSE (legacy).",
    ],
    modern: "Modern (server/discover)",
    legacy: "Legacy (initialize, HTTP+SSE)",
    transports: ["Transports", "Of the servers with a remote the probe can use, by that remote's transport."],
    transportLabels: { "streamable-http": "Streamable HTTP", sse: "HTTP+SSE (2024-11-05)" },
    auth: ["Auth outcomes", "Of the servers that answered: open to an anonymous client, or behind a credential gate."],
    authLabels: {
      open: "Open, no credential needed",
      gate_usable_metadata: "Credential gate, usable metadata",
      gate_no_usable_metadata: "Credential gate, no usable metadata",
    },
    overall: ["Overall states", "Of every server in the registry, by its latest result."],
    never: "Not probed yet",
    refusals: [
      "Refusal shapes over time",
      "Of the servers with an error taxonomy result: how each answered a call to a tool that does not exist.",
    ],
    registry: ["Registry size", "Servers with a remote listed in the registry, each day."],
    registryLabel: "Servers listed",
    otherRevision: "other",
    reach: [
      "Reaching servers that need a key",
      "Of the servers whose registry entry needs configuration: what probing them without the listed headers found (from suite 0.15.0).",
    ],
    reachLabels: {
      answered: "Answered without the key",
      refused: "Refused without the key",
      gated: "Credential gate",
      unreachable: "No HTTP answer",
      no_address: "No address (URL variable)",
      unknown: "Not known yet",
    },
    initializeFirst: [
      "Can clients that start with initialize connect?",
      "Of every server in the registry: the TypeScript SDK by default, the MCP Inspector and 2025-era clients (from suite 0.15.0; unknown until a server is probed under it).",
    ],
    discoverFirst: [
      "Can clients that start with server/discover connect?",
      "Of every server in the registry: the Python SDK v2, the C# SDK 2 and the Go SDK 1.7, which fall back to initialize once (from suite 0.15.0).",
    ],
  },
  zh: {
    revisions: ["各协议版本所占比例", "分母是已与探测器商定协议版本的服务端。"],
    eras: ["新版握手与旧版握手", "分母是握手完成的服务端：server/discover 为新版，initialize 和 HTTP+SSE 为旧版。"],
    modern: "新版（server/discover）",
    legacy: "旧版（initialize、HTTP+SSE）",
    transports: ["传输方式", "分母是有可探测远程地址的服务端，按该地址的传输方式计。"],
    transportLabels: { "streamable-http": "Streamable HTTP", sse: "HTTP+SSE（2024-11-05）" },
    auth: ["鉴权情况", "分母是有应答的服务端：匿名即可连接，或挡在凭据拦截之后。"],
    authLabels: {
      open: "无需凭据即可连接",
      gate_usable_metadata: "需要凭据，元数据可用",
      gate_no_usable_metadata: "需要凭据，元数据不可用",
    },
    overall: ["总体状态", "分母是注册表里的全部服务端，按各自最近一次结果计。"],
    never: "尚未探测",
    refusals: ["拒绝调用的方式（逐日）", "分母是有错误分类结果的服务端：调用一个不存在的工具时，它如何回应。"],
    registry: ["注册表规模", "每天注册表中列有远程地址的服务端数量。"],
    registryLabel: "列出的服务端",
    otherRevision: "其他",
    reach: ["需要密钥的服务端能否到达", "分母是注册表条目需要配置的服务端：不带所列请求头探测时的结果（自套件 0.15.0 起）。"],
    reachLabels: {
      answered: "不带密钥也作了应答",
      refused: "缺少密钥被拒绝",
      gated: "凭据拦截",
      unreachable: "没有 HTTP 应答",
      no_address: "没有地址（URL 变量）",
      unknown: "尚无结论",
    },
    initializeFirst: [
      "先发 initialize 的客户端能否连接",
      "分母是注册表里的全部服务端：默认设置下的 TypeScript SDK、MCP Inspector 以及 2025 年代的客户端（自套件 0.15.0 起；在此之前未探测的服务端计为未知）。",
    ],
    discoverFirst: [
      "先发 server/discover 的客户端能否连接",
      "分母是注册表里的全部服务端：Python SDK v2、C# SDK 2 和 Go SDK 1.7，它们会回退到 initialize 一次（自套件 0.15.0 起）。",
    ],
  },
};

/** Refusal codes in both languages (the English ones are the snapshot table's, lib/site/refusals.ts). */
export const REFUSAL_LABELS_ZH: Record<(typeof REFUSAL_CODES)[number], string> = {
  jsonrpc_invalid_params: "JSON-RPC 错误 -32602（规范要求的做法）",
  jsonrpc_other_code: "其他错误码的 JSON-RPC 错误",
  pre_dispatch_refusal: "分发前直接回 401/403",
  is_error_result: "返回 isError: true 的工具结果",
  malformed_html: "一张 HTML 页面",
  malformed_no_jsonrpc: "没有 JSON-RPC 外壳的 JSON 错误",
  malformed_empty: "空响应体",
  malformed_success: "对不存在的工具返回成功",
  malformed_other: "其他不合格式的回应",
  no_answer: "没有可读的回应（网络、超时）",
  withheld: "有意不发这次调用",
  slow_down: "被要求放慢",
  deadline: "探测器时限先到",
  not_probed: "未探测（已退出、需要配置）",
};

/** The charts of the census page for one window. `refusalLabel` names a refusal code in the page's language. */
export function censusCharts(
  rows: readonly CensusDay[],
  days: readonly string[],
  lang: Lang,
  refusalLabel: (code: string) => string,
): ChartModel[] {
  const w = CENSUS_WORDS[lang];
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const at = (pick: (r: CensusDay) => Record<string, number> | null) =>
    days.map((d) => {
      const r = byDay.get(d);
      return r ? pick(r) : null;
    });
  const inWindow = days.map((d) => byDay.get(d)).filter((r): r is CensusDay => r !== undefined);

  // Revisions: the known ones newest first, then any other seen in the window.
  const seenRevisions = new Set(inWindow.flatMap((r) => Object.keys(r.revisions)));
  const revisions = [
    ...KNOWN_REVISIONS.filter((v) => seenRevisions.has(v)),
    ...[...seenRevisions].filter((v) => !(KNOWN_REVISIONS as readonly string[]).includes(v)).sort(),
  ];
  const refusalCodes = [...REFUSAL_CODES, "uncoded"].filter((c) =>
    inWindow.some((r) => (r.refusals?.[c as keyof typeof r.refusals] ?? 0) > 0),
  );

  return [
    {
      id: "revisions",
      title: w.revisions[0],
      of: w.revisions[1],
      kind: "share",
      series: revisions.map((v, i) => ({ key: v, label: v, tone: tone(i) })),
      values: at((r) => r.revisions),
    },
    {
      id: "eras",
      title: w.eras[0],
      of: w.eras[1],
      kind: "share",
      series: [
        { key: "modern", label: w.modern, tone: "t0" },
        { key: "legacy", label: w.legacy, tone: "t2" },
      ],
      values: at((r) => ({ modern: r.eras.modern, legacy: r.eras.legacy })),
    },
    {
      id: "transports",
      title: w.transports[0],
      of: w.transports[1],
      kind: "share",
      series: TRANSPORTS.map((k, i) => ({ key: k, label: w.transportLabels[k], tone: tone(i * 3) })),
      values: at((r) => (r.transports ? { "streamable-http": r.transports["streamable-http"], sse: r.transports.sse } : null)),
    },
    {
      id: "auth",
      title: w.auth[0],
      of: w.auth[1],
      kind: "share",
      series: (["open", "gate_usable_metadata", "gate_no_usable_metadata"] as const).map((k, i) => ({
        key: k,
        label: w.authLabels[k],
        tone: ["t0", "t4", "t5"][i]!,
      })),
      values: at((r) => ({
        open: r.auth.open,
        gate_usable_metadata: r.auth.gate_usable_metadata,
        gate_no_usable_metadata: r.auth.gate_no_usable_metadata,
      })),
    },
    {
      id: "overall",
      title: w.overall[0],
      of: w.overall[1],
      kind: "share",
      series: [
        ...CHECK_STATES.map((s) => ({ key: s, label: STATE_LABELS[lang][s], tone: `state-${s}` })),
        { key: "none", label: w.never, tone: "state-none" },
      ],
      values: at((r) => {
        const { unknown: _, ...rest } = r.overall;
        return rest;
      }),
    },
    {
      id: "refusals",
      title: w.refusals[0],
      of: w.refusals[1],
      kind: "share",
      series: refusalCodes.map((c, i) => ({ key: c, label: refusalLabel(c), tone: tone(i) })),
      values: at((r) => r.refusals),
    },
    {
      id: "reach",
      title: w.reach[0],
      of: w.reach[1],
      kind: "share",
      series: REACH_KEYS.map((k, i) => ({ key: k, label: w.reachLabels[k], tone: tone(i) })),
      values: at((r) => r.reach),
    },
    {
      id: "initialize-first",
      title: w.initializeFirst[0],
      of: w.initializeFirst[1],
      kind: "share",
      series: INITIALIZE_FIRST_STATES.map((k, i) => ({ key: k, label: CLIENT_STATE_LABELS[k]![lang], tone: CLIENT_TONES[k] ?? tone(i) })),
      values: at((r) => r.clients?.initializeFirst ?? null),
    },
    {
      id: "discover-first",
      title: w.discoverFirst[0],
      of: w.discoverFirst[1],
      kind: "share",
      series: DISCOVER_FIRST_STATES.map((k, i) => ({ key: k, label: CLIENT_STATE_LABELS[k]![lang], tone: CLIENT_TONES[k] ?? tone(i) })),
      values: at((r) => r.clients?.discoverFirst ?? null),
    },
    {
      id: "registry",
      title: w.registry[0],
      of: w.registry[1],
      kind: "count",
      series: [{ key: "registry", label: w.registryLabel, tone: "t0" }],
      values: at((r) => ({ registry: r.registry })),
    },
  ];
}

/** The first day from which every row carries every count (a row the round wrote), and the first rebuilt one. */
export function censusCompleteness(rows: readonly CensusDay[]): { completeFrom: string | null; rebuiltFrom: string | null; days: number } {
  let completeFrom: string | null = null;
  for (let i = rows.length - 1; i >= 0 && rows[i]!.source === "round"; i--) completeFrom = rows[i]!.day;
  const rebuilt = rows.find((r) => r.source === "backfill");
  return { completeFrom, rebuiltFrom: rebuilt?.day ?? null, days: rows.length };
}

export const notCheckedCauseLabel = (lang: Lang, cause: string) =>
  cause in NOT_CHECKED_CAUSE_LABELS[lang] ? NOT_CHECKED_CAUSE_LABELS[lang][cause as keyof (typeof NOT_CHECKED_CAUSE_LABELS)["en"]] : cause;
