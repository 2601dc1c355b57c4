import { UPTIME_WINDOWS, type ServerUptime, type UptimeFigure, type UptimeWindow } from "../store/uptime";
import type { Lang } from "./labels";

// How uptime and incidents are worded on pages, badges and feeds.

export const UPTIME_WINDOW_LABELS: Record<Lang, Record<UptimeWindow, string>> = {
  en: { last24h: "24 hours", last7d: "7 days", last30d: "30 days", last90d: "90 days" },
  zh: { last24h: "24 小时", last7d: "7 天", last30d: "30 天", last90d: "90 天" },
};

/** The badge's `?window=` values, and the window each names. */
export const UPTIME_BADGE_WINDOWS: Record<string, UptimeWindow> = { "24h": "last24h", "7d": "last7d", "30d": "last30d", "90d": "last90d" };
export const DEFAULT_UPTIME_BADGE_WINDOW = "30d";

/** "99.2%", never rounded up: a server that missed one probe in 10,000 shows 99.99%, not 100%. */
export function formatUptime(f: Pick<UptimeFigure, "up" | "reached">): string {
  if (f.reached === 0) return "no data";
  if (f.up === f.reached) return "100%";
  const p = (f.up / f.reached) * 100;
  const digits = p >= 99 ? 2 : 1;
  const floored = Math.floor(p * 10 ** digits) / 10 ** digits;
  return `${floored.toFixed(digits)}%`;
}

/** "118 of 119 probes". */
export function uptimeCounts(f: Pick<UptimeFigure, "up" | "reached">, lang: Lang = "en"): string {
  if (lang === "zh") return `${f.reached} 次探测中 ${f.up} 次正常`;
  return `${f.up.toLocaleString("en-US")} of ${f.reached.toLocaleString("en-US")} ${f.reached === 1 ? "probe" : "probes"}`;
}

/** One sentence for screen readers and tooltips: "Uptime: 100% over 24 hours (12 of 12 probes), …". */
export function uptimeSummary(u: ServerUptime): string {
  const parts = UPTIME_WINDOWS.map(
    (w) => `${formatUptime(u[w])} over ${UPTIME_WINDOW_LABELS.en[w]}${u[w].reached ? ` (${uptimeCounts(u[w])})` : ""}`,
  );
  return `Uptime: ${parts.join(", ")}.`;
}

/** Colour steps for an uptime ratio: at least 99 %, 95 %, 90 %, else the failed colour. */
const UPTIME_STEPS: [number, string][] = [
  [0.99, "#2e7d32"],
  [0.95, "#5b8c00"],
  [0.9, "#b26a00"],
];

export function uptimeColor(ratio: number, failed: string): string {
  return UPTIME_STEPS.find(([min]) => ratio >= min)?.[1] ?? failed;
}

const DURATION_UNITS: Record<Lang, { s: string; min: string; h: string; days: string }> = {
  en: { s: "s", min: "min", h: "h", days: "days" },
  zh: { s: "秒", min: "分钟", h: "小时", days: "天" },
};

/** "3 h 10 min", "2 days 4 h", "45 s": an incident's length, to the minute past the first hour. */
export function formatIncidentDuration(ms: number, lang: Lang = "en"): string {
  const u = DURATION_UNITS[lang];
  const min = Math.floor(ms / 60_000);
  if (min < 1) return `${Math.max(0, Math.round(ms / 1000))} ${u.s}`;
  if (min < 60) return `${min} ${u.min}`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} ${u.h} ${min % 60} ${u.min}` : `${h} ${u.h}`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} ${u.days} ${h % 24} ${u.h}` : `${d} ${u.days}`;
}
