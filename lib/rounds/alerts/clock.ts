// The alert clock: runs in the site process whether or not the embedded scheduler does, so rounds that stop
// coming (from the scheduler or from an outside cron) raise rounds_stale instead of silence. Each tick judges
// the alerts, starts the day's cross-read once a round has finished that day, and delivers webhook events.
// While the database cannot be written (database_unwritable, held in memory), a tick only tries the write that
// proves it writable again and sends the held opening: nothing else it does could be recorded.
import type { Db } from "../../../db/client";
import type { UnwritableAlert } from "../../../db/write-watch";
import { runCrossRead, type CrossReadDeps, type CrossReadSummary } from "../crossread/run";
import { utcDay } from "../coverage";
import { lastRoundFinishedAt } from "../../store/alerts";
import { getMeta, META_KEYS, setMeta } from "../../store/meta";
import { evaluateAlerts } from "./evaluate";
import { tendUnwritable } from "./unwritable";
import { deliverHeldOpening, deliverPendingAlerts } from "./webhook";

export const ALERT_CLOCK_MS = 30_000;

export interface AlertClockDeps {
  db: Db;
  staleMinutes: number;
  notifyFoldMs?: number;
  webhookUrl?: string;
  /** PUBLIC_BASE_URL, for the link in webhook bodies. */
  siteUrl?: string;
  /** How the cross-reader reads; null turns it off (CROSS_READ_SAMPLE=0). */
  crossRead: Omit<CrossReadDeps, "db" | "day" | "now" | "log"> | null;
  webhookBackoffMs?: number;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface AlertClock {
  /** One evaluation and delivery pass (what the timer runs); resolves when delivery is done. */
  tick(): Promise<void>;
  /** The cross-read started by a tick, while it runs. */
  readonly crossReading: Promise<CrossReadSummary | null> | null;
  stop(): void;
}

export function startAlertClock(deps: AlertClockDeps, intervalMs = ALERT_CLOCK_MS): AlertClock {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((l: string) => console.log(l));
  let delivering: Promise<void> | null = null;
  let crossReading: Promise<CrossReadSummary | null> | null = null;
  const told = new WeakSet<UnwritableAlert>();

  const evaluate = () => {
    try {
      evaluateAlerts(deps.db, now(), { staleMinutes: deps.staleMinutes, notifyFoldMs: deps.notifyFoldMs, log });
    } catch (e) {
      log(`[alerts] evaluation failed: ${(e as Error).message}`);
    }
  };

  const deliver = async () => {
    if (!deps.webhookUrl) return;
    // One delivery pass at a time, so an event is never POSTed twice by overlapping ticks.
    while (delivering) await delivering;
    const o = { url: deps.webhookUrl, now, siteUrl: deps.siteUrl, backoffMs: deps.webhookBackoffMs, log };
    const held = deps.db.$writes.unwritable;
    // A stored event's delivery could not be recorded while the alert is held: it would be sent again every tick.
    delivering = (held ? deliverHeldOpening(deps.db, held, o) : deliverPendingAlerts(deps.db, o))
      .then(() => undefined)
      .catch((e: unknown) => log(`[alerts] delivery failed: ${(e as Error).message}`))
      .finally(() => (delivering = null));
    await delivering;
  };

  const maybeCrossRead = () => {
    if (!deps.crossRead || crossReading) return;
    const today = utcDay(now());
    const last = lastRoundFinishedAt(deps.db);
    if (!last || utcDay(new Date(last)) !== today || getMeta(deps.db, META_KEYS.crossReadStartedDay) === today) return;
    setMeta(deps.db, META_KEYS.crossReadStartedDay, today);
    crossReading = runCrossRead({ ...deps.crossRead, db: deps.db, day: today, now, log })
      .then(async (s) => {
        evaluate();
        await deliver();
        return s;
      })
      .catch((e: unknown) => {
        log(`[crossread] ${today} failed: ${(e as Error).message}`);
        return null;
      })
      .finally(() => (crossReading = null));
  };

  const tick = async () => {
    if (!tendUnwritable(deps.db, now(), { log, told })) {
      evaluate();
      try {
        maybeCrossRead();
      } catch (e) {
        log(`[crossread] could not start: ${(e as Error).message}`);
      }
    }
    await deliver();
  };

  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref?.();
  // An opening is told and sent at once, not at the next tick.
  const unwatch = deps.db.$writes.onOpen(() => void tick());
  void tick();
  return {
    tick,
    get crossReading() {
      return crossReading;
    },
    stop: () => {
      clearInterval(timer);
      unwatch();
    },
  };
}
