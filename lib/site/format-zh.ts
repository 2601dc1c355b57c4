import { formatDuration, formatRelative, formatUtc } from "./format";
import type { Lang } from "./labels";

// Durations and relative times in both languages, for the pages under /zh; English is format.ts's own wording, unchanged.

/** "3 分钟", "1.2 秒", "2 天": formatDuration's steps in Chinese units. */
export function formatDurationIn(lang: Lang, ms: number): string {
  if (lang === "en") return formatDuration(ms);
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${Math.round(abs)} 毫秒`;
  if (abs < 60_000) return `${(abs / 1_000).toFixed(abs < 10_000 ? 1 : 0)} 秒`;
  if (abs < 3_600_000) return `${Math.round(abs / 60_000)} 分钟`;
  if (abs < 172_800_000) return `${Math.round(abs / 3_600_000)} 小时`;
  return `${Math.round(abs / 86_400_000)} 天`;
}

/** "3 小时前" / "20 分钟后" relative to `now`; English as formatRelative says it. */
export function formatRelativeIn(lang: Lang, iso: string | null | undefined, now: Date): string {
  if (lang === "en") return formatRelative(iso, now);
  if (!iso) return "从未";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const diff = t - now.getTime();
  if (Math.abs(diff) < 30_000) return "刚刚";
  return diff < 0 ? `${formatDurationIn("zh", diff)}前` : `${formatDurationIn("zh", diff)}后`;
}

/** A UTC time; "从未" for none in Chinese. */
export const formatUtcIn = (lang: Lang, iso: string | null | undefined): string => (lang === "zh" && !iso ? "从未" : formatUtc(iso));
