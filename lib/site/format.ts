// Times are stored as ISO-8601 UTC strings; these helpers keep the site's wording of them in one place.

export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return "never";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${Math.round(abs)} ms`;
  if (abs < 60_000) return `${(abs / 1_000).toFixed(abs < 10_000 ? 1 : 0)} s`;
  if (abs < 3_600_000) return `${Math.round(abs / 60_000)} min`;
  if (abs < 172_800_000) return `${Math.round(abs / 3_600_000)} h`;
  return `${Math.round(abs / 86_400_000)} days`;
}

/** "3 h ago" / "in 20 min" relative to `now`. */
export function formatRelative(iso: string | null | undefined, now: Date): string {
  if (!iso) return "never";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const diff = t - now.getTime();
  if (Math.abs(diff) < 30_000) return "just now";
  return diff < 0 ? `${formatDuration(diff)} ago` : `in ${formatDuration(diff)}`;
}

export function formatPercent(part: number, whole: number): string {
  if (whole <= 0) return "–";
  const p = (part / whole) * 100;
  return `${p >= 99.95 || p < 10 ? p.toFixed(1) : p.toFixed(1)}%`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

export function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
