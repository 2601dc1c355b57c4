// Coverage arithmetic (pure): UTC days, the 7-day median and the alert rule.

export const COVERAGE_WINDOW_DAYS = 7;
/** A day is alerted when its coverage is more than this fraction below the window's median. */
export const COVERAGE_DROP_THRESHOLD = 0.05;
/** Fewer days of history than this and there is no baseline to compare with. */
export const COVERAGE_MIN_HISTORY = 3;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  const t = Date.parse(`${day}T00:00:00Z`) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface CoverageVerdict {
  day: string;
  value: number;
  baseline: number | null;
  alert: boolean;
  message: string;
}

/** Judges one day's distinct-servers-read count against the median of the previous 7 days. `history` maps day →
 * servers read; a day inside the service's lifetime with no entry counts as 0 (nothing was read at all). */
export function judgeCoverageDay(day: string, history: ReadonlyMap<string, number>, firstDay: string): CoverageVerdict {
  const value = history.get(day) ?? 0;
  const window: number[] = [];
  for (let i = 1; i <= COVERAGE_WINDOW_DAYS; i++) {
    const d = addDays(day, -i);
    if (d < firstDay) break;
    window.push(history.get(d) ?? 0);
  }
  if (window.length < COVERAGE_MIN_HISTORY) {
    return { day, value, baseline: null, alert: false, message: `${day}: ${value} servers read; not enough history for a baseline` };
  }
  const baseline = median(window);
  const floor = baseline * (1 - COVERAGE_DROP_THRESHOLD);
  const alert = value < floor;
  const pct = baseline > 0 ? Math.round(((baseline - value) / baseline) * 1000) / 10 : 0;
  return {
    day,
    value,
    baseline,
    alert,
    message: alert
      ? `coverage fell: ${value} distinct servers read on ${day}, ${pct}% below the 7-day median of ${baseline}`
      : `${day}: ${value} servers read (7-day median ${baseline})`,
  };
}
