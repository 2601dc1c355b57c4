import type { CheckState } from "../vocabulary/checks";
import type { HistoryDay, LatencySample } from "../store/history";

export const HISTORY_DAYS = 90;
const DAY_MS = 86_400_000;

/** The UTC day of an instant, and a UTC day moved by `n` days ("2026-11-30"). */
export const utcDayOf = (date: Date) => date.toISOString().slice(0, 10);
export const shiftDay = (day: string, n: number) => utcDayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** One strip cell: a UTC day with its worst discovery state, or null when nothing probed the server that day. */
export interface StripDay {
  day: string;
  state: CheckState | null;
  probes: number;
  runId: number | null;
}

/** The last `count` UTC days ending today, oldest first, gaps filled with "no probe". */
export function stripDays(stored: HistoryDay[], now: Date, count = HISTORY_DAYS): StripDay[] {
  const byDay = new Map(stored.map((d) => [d.day, d]));
  const today = utcDayOf(now);
  return Array.from({ length: count }, (_, i) => {
    const day = shiftDay(today, i - count + 1);
    const d = byDay.get(day);
    return { day, state: d?.state ?? null, probes: d?.probes ?? 0, runId: d?.runId ?? null };
  });
}

export const historyFromDay = (now: Date, count = HISTORY_DAYS) => shiftDay(utcDayOf(now), 1 - count);

/** Nearest-rank percentile (p in 0..100); null for no values. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
}

export interface Percentiles {
  p50: number | null;
  p95: number | null;
  /** Probes with a measured time. */
  samples: number;
}

function percentiles(values: number[]): Percentiles {
  return { p50: percentile(values, 50), p95: percentile(values, 95), samples: values.length };
}

export interface ResponseTimes {
  /** Over the 24 hours before now. */
  last24h: { handshake: Percentiles; toolsList: Percentiles };
  /** Over the 30 days before now (the runs kept). */
  last30d: { handshake: Percentiles; toolsList: Percentiles };
  /** Daily medians, oldest first, only days with a measurement. */
  daily: { day: string; handshakeP50: number | null; toolsListP50: number | null }[];
}

/** Response-time figures from the runs' stored timings (samples of at most 30 days, oldest first). */
export function responseTimes(samples: LatencySample[], now: Date): ResponseTimes {
  const since24h = new Date(now.getTime() - DAY_MS).toISOString();
  const since30d = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const pick = (from: string, key: "handshakeMs" | "toolsListMs") =>
    samples.filter((s) => s.startedAt >= from && s[key] !== null).map((s) => s[key] as number);
  const byDay = new Map<string, LatencySample[]>();
  for (const s of samples) {
    if (s.startedAt < since30d) continue;
    const day = s.startedAt.slice(0, 10);
    const list = byDay.get(day);
    if (list) list.push(s);
    else byDay.set(day, [s]);
  }
  const median = (list: LatencySample[], key: "handshakeMs" | "toolsListMs") =>
    percentile(
      list.filter((s) => s[key] !== null).map((s) => s[key] as number),
      50,
    );
  return {
    last24h: { handshake: percentiles(pick(since24h, "handshakeMs")), toolsList: percentiles(pick(since24h, "toolsListMs")) },
    last30d: { handshake: percentiles(pick(since30d, "handshakeMs")), toolsList: percentiles(pick(since30d, "toolsListMs")) },
    daily: [...byDay]
      .map(([day, list]) => ({ day, handshakeP50: median(list, "handshakeMs"), toolsListP50: median(list, "toolsListMs") }))
      .filter((d) => d.handshakeP50 !== null || d.toolsListP50 !== null),
  };
}

/** A server's strip and response times from its stored rows, as the page, the JSON API and the latency badge show them. */
export function shapeHistory(
  rows: { stored: HistoryDay[]; samples: LatencySample[] },
  now: Date,
): { days: StripDay[]; responseTimes: ResponseTimes } {
  return { days: stripDays(rows.stored, now), responseTimes: responseTimes(rows.samples, now) };
}
