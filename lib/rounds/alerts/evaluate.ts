// The operated alerts (architecture.md §6): each opens and resolves on its own, judged from stored facts only,
// so the same verdict comes out whether the clock, the end of a round or a restarted process asks.
import type { Db } from "../../../db/client";
import { addDays, judgeCoverageDay, utcDay } from "../coverage";
import { lastRoundFinishedAt, openAlert, openAlertOf, resolveAlerts } from "../../store/alerts";
import { coverageBetween, firstCoverageDay } from "../../store/coverage";
import { crossReadCounts, latestCrossReadDay, type CrossReadCounts } from "../../store/cross-reads";
import { getMeta, META_KEYS, setMeta } from "../../store/meta";
import { firstRoundWithNetwork } from "../../store/rounds";
import { counted, WORDS } from "../../site/plural";
import { outboxLateness } from "../../store/subscriptions";

/** cross_read opens when more than this share of the servers either reader could read disagree… */
export const CROSS_READ_ALERT_RATE = 0.05;
/** …and at least this many do (one flaky server in a small sample is not a blind spot). */
export const CROSS_READ_ALERT_MIN = 3;

export interface AlertOptions {
  staleMinutes: number;
  /** The flap rule's window (NOTIFY_FOLD_MINUTES), so a message it holds back is not counted late. */
  notifyFoldMs?: number;
  log?: (line: string) => void;
}

/** Judges every alert kind once; cheap enough to run every minute and after every round. */
export function evaluateAlerts(db: Db, now: Date, options: AlertOptions): void {
  const log = options.log ?? ((l: string) => console.log(l));
  evaluateRoundsStale(db, now, options.staleMinutes, log);
  evaluateCoverage(db, now, log);
  evaluateCrossRead(db, now, log);
  evaluateProbeNetwork(db, now, log);
  evaluateNotifications(db, now, options.notifyFoldMs ?? 60 * 60_000, log);
}

/** notifications_failing (architecture.md §10): the oldest message that should have gone out is 15 minutes late; it resolves
 * once nothing due is left waiting. */
export const NOTIFICATIONS_LATE_MS = 15 * 60_000;

export function evaluateNotifications(db: Db, now: Date, foldMs: number, log: (line: string) => void): void {
  const late = outboxLateness(db, now, foldMs);
  const open = openAlertOf(db, "notifications_failing");
  if (late && late.lateMs >= NOTIFICATIONS_LATE_MS) {
    const minutes = Math.floor(late.lateMs / 60_000);
    const message = `The oldest message due to subscribers has waited ${counted(minutes, WORDS.minute)} (${late.due} due); the limit is 15 minutes.`;
    if (openAlert(db, { kind: "notifications_failing", day: utcDay(now), message, value: minutes, baseline: 15, at: now.toISOString() }))
      log(`[alerts] notifications_failing opened: ${message}`);
  } else if (!late && open) {
    resolveAlerts(db, "notifications_failing", {
      at: now.toISOString(),
      message: "The outbox drained: no message due to subscribers is waiting.",
    });
    log("[alerts] notifications_failing resolved: the outbox drained");
  }
}

/** probe_network is opened by the round that paused (architecture.md §2.7); it resolves once a later round's probes mostly
 * reached their hosts (or at once, when the pausing round saw them answer again). */
export function evaluateProbeNetwork(db: Db, now: Date, log: (line: string) => void): void {
  const open = openAlertOf(db, "probe_network");
  if (!open) return;
  const r = firstRoundWithNetwork(db, open.createdAt);
  if (!r) return;
  const message = `Probes succeed again: round ${r.id} reached its hosts, ${r.hostsNetworkFailed} of ${r.hostsTried} failing at the network level.`;
  resolveAlerts(db, "probe_network", { at: now.toISOString(), message });
  log(`[alerts] probe_network resolved: ${message}`);
}

export function evaluateRoundsStale(db: Db, now: Date, staleMinutes: number, log: (line: string) => void): void {
  const nowIso = now.toISOString();
  let watched = getMeta(db, META_KEYS.alertsWatchedSince);
  if (!watched) {
    watched = nowIso;
    setMeta(db, META_KEYS.alertsWatchedSince, watched);
  }
  const last = lastRoundFinishedAt(db);
  const reference = last ?? watched;
  const ageMin = Math.floor((now.getTime() - Date.parse(reference)) / 60_000);
  if (ageMin >= staleMinutes) {
    const minutes = (n: number) => counted(n, WORDS.minute);
    const message = last
      ? `No round has finished for ${minutes(ageMin)} (the last finished at ${last}); the limit is ${minutes(staleMinutes)}.`
      : `No round has finished in the ${minutes(ageMin)} since this site started watching; the limit is ${minutes(staleMinutes)}.`;
    const opened = openAlert(db, { kind: "rounds_stale", day: utcDay(now), message, value: ageMin, baseline: staleMinutes, at: nowIso });
    if (opened) log(`[alerts] rounds_stale opened: ${message}`);
  } else if (last && openAlertOf(db, "rounds_stale")) {
    resolveAlerts(db, "rounds_stale", { at: nowIso, message: `A round finished at ${last}.` });
    log(`[alerts] rounds_stale resolved: a round finished at ${last}`);
  }
}

/** Judges every complete UTC day not judged yet (at most the last 30) against its 7-day median: a day clearly
 * below opens coverage_drop, a later day back at its level resolves it. */
export function evaluateCoverage(db: Db, now: Date, log: (line: string) => void): void {
  const first = firstCoverageDay(db);
  if (!first) return;
  const yesterday = addDays(utcDay(now), -1);
  const through = getMeta(db, META_KEYS.coverageEvaluatedThrough);
  let day = through ? addDays(through, 1) : first;
  if (day < addDays(yesterday, -30)) day = addDays(yesterday, -30);
  if (day > yesterday) return;
  const history = new Map(coverageBetween(db, addDays(day, -7), yesterday).map((c) => [c.day, c.serversRead]));
  for (; day <= yesterday; day = addDays(day, 1)) {
    const v = judgeCoverageDay(day, history, first);
    const open = openAlertOf(db, "coverage_drop");
    if (v.alert) {
      const opened = openAlert(db, {
        kind: "coverage_drop",
        day,
        message: v.message,
        value: v.value,
        baseline: v.baseline,
        at: now.toISOString(),
      });
      if (opened) log(`[coverage] ALERT ${v.message}`);
    } else if (open && v.baseline !== null && day > open.day) {
      resolveAlerts(db, "coverage_drop", {
        at: now.toISOString(),
        message: `Coverage is back: ${v.value} servers read on ${day} (7-day median ${v.baseline}).`,
      });
      log(`[coverage] alert resolved: ${v.value} servers read on ${day}`);
    }
    setMeta(db, META_KEYS.coverageEvaluatedThrough, day);
  }
}

/** The day's disagreement rate: servers where the readers disagree or only the cross-reader read and the probe's own
 * rules do not explain it (architecture.md §6), over the servers at least one of them read. */
export function disagreementRate(c: CrossReadCounts): { disagreeing: number; compared: number; rate: number } {
  const disagreeing = Math.max(0, c.disagreed + c.only_cross_reader - c.explained);
  const compared = c.agreed + c.disagreed + c.only_probe + c.only_cross_reader;
  return { disagreeing, compared, rate: compared > 0 ? disagreeing / compared : 0 };
}

export function crossReadAlarming(c: CrossReadCounts): boolean {
  const r = disagreementRate(c);
  return r.disagreeing >= CROSS_READ_ALERT_MIN && r.rate > CROSS_READ_ALERT_RATE;
}

export function evaluateCrossRead(db: Db, now: Date, log: (line: string) => void): void {
  const day = latestCrossReadDay(db);
  if (!day || getMeta(db, META_KEYS.crossReadEvaluatedDay) === day) return;
  const counts = crossReadCounts(db, day);
  const r = disagreementRate(counts);
  const pct = `${Math.round(r.rate * 1000) / 10}%`;
  const open = openAlertOf(db, "cross_read");
  if (crossReadAlarming(counts)) {
    const explained = counts.explained > 0 ? `; ${counted(counts.explained, WORDS.difference)} more explained by the probe's rules` : "";
    const message = `The cross-reader disagreed with the probe, for no reason the probe's rules give, on ${r.disagreeing} of ${r.compared} servers on ${day} (${pct}; ${counts.only_cross_reader} read only by the cross-reader${explained}).`;
    const opened = openAlert(db, {
      kind: "cross_read",
      day,
      message,
      value: r.rate,
      baseline: CROSS_READ_ALERT_RATE,
      at: now.toISOString(),
    });
    if (opened) log(`[alerts] cross_read opened: ${message}`);
  } else if (open && day > open.day) {
    resolveAlerts(db, "cross_read", {
      at: now.toISOString(),
      message: `On ${day} the readers disagreed unexplained on ${r.disagreeing} of ${r.compared} servers (${pct}).`,
    });
    log(`[alerts] cross_read resolved on ${day}`);
  }
  setMeta(db, META_KEYS.crossReadEvaluatedDay, day);
}
