import type { Db } from "../../db/client";
import { ROUND_STATUSES } from "../../db/schema";
import { CHECK_IDS, CHECK_STATES } from "../vocabulary/checks";
import { siteStatus } from "../rounds/alerts/status";
import { RUN_KINDS } from "../rounds/persist";
import { eventCounts, ROUND_DURATION_BUCKETS_SECONDS, type EventCount } from "../store/counters";
import { summaryCounts } from "../store/servers/counts";
import { ALERT_KINDS, CROSS_READ_OUTCOMES, PROBE_REQUEST_OUTCOMES, type EventCounter } from "../vocabulary/store";
import { DELIVERY_OUTCOMES, NOTIFICATION_CHANNELS } from "../vocabulary/notifications";
import { family, histogramSamples, labelled, METRICS, type Family } from "./families";

// What the database says, read at scrape time, so whichever process answers a scrape gives the same figures:
// counters of events (written in each event's own transaction) and gauges of stored data. Coverage, cross-read
// counts and open alerts come from the same function as /api/status, so the two never disagree.

const FINISHED_STATUSES = ROUND_STATUSES.filter((s) => s !== "running");
const seconds = (iso: string) => Date.parse(iso) / 1000;

export function storedFamilies(db: Db, now: Date): Family[] {
  const counts = eventCounts(db);
  const of = (name: EventCounter): [string, number][] => counts.filter((c: EventCount) => c.name === name).map((c) => [c.label, c.value]);
  const status = siteStatus(db, now);
  const summary = summaryCounts(db);
  const alertsByKind = status.alerts.map((a): [string, number] => [a.kind, 1]);
  return [
    family(METRICS.roundsStarted, labelled("trigger", of("rounds_started"))),
    family(METRICS.roundsFinished, labelled("status", of("rounds_finished"), FINISHED_STATUSES)),
    family(
      METRICS.roundDuration,
      histogramSamples(
        METRICS.roundDuration.name,
        ROUND_DURATION_BUCKETS_SECONDS,
        of("round_duration_bucket"),
        of("round_duration_sum")[0]?.[1] ?? 0,
      ),
    ),
    family(METRICS.serversProbed, labelled("kind", of("servers_probed"), RUN_KINDS)),
    family(METRICS.probeRequests, labelled("outcome", of("probe_requests"), PROBE_REQUEST_OUTCOMES)),
    family(
      METRICS.notificationDeliveries,
      NOTIFICATION_CHANNELS.flatMap((channel) =>
        DELIVERY_OUTCOMES.map((outcome) => ({
          value: of("notification_deliveries").find(([label]) => label === `${channel}:${outcome}`)?.[1] ?? 0,
          labels: { channel, outcome },
        })),
      ),
    ),
    family(METRICS.coverageToday, [{ value: status.coverage.today, labels: {} }]),
    family(METRICS.coverageMedian, status.coverage.median7d === null ? [] : [{ value: status.coverage.median7d, labels: {} }]),
    family(METRICS.alertsOpen, labelled("kind", alertsByKind, ALERT_KINDS)),
    family(
      METRICS.regionUp,
      status.regions.map((r) => ({ value: r.up ? 1 : 0, labels: { region: r.id } })),
    ),
    family(
      METRICS.regionHostShare,
      status.regions.flatMap((r) => (r.hostShare === null ? [] : [{ value: r.hostShare, labels: { region: r.id } }])),
    ),
    family(
      METRICS.checkStates,
      CHECK_IDS.flatMap((check) => CHECK_STATES.map((state) => ({ value: summary.byCheck[check][state], labels: { check, state } }))),
    ),
    family(
      METRICS.overallStates,
      CHECK_STATES.map((state) => ({ value: summary.byOverall[state], labels: { state } })),
    ),
    family(METRICS.registryServers, [{ value: summary.servers, labels: {} }]),
    family(
      METRICS.crossReads,
      labelled(
        "outcome",
        status.crossRead ? CROSS_READ_OUTCOMES.map((o): [string, number] => [o, status.crossRead![o]]) : [],
        CROSS_READ_OUTCOMES,
      ),
    ),
    family(METRICS.crossReadDay, status.crossRead ? [{ value: seconds(`${status.crossRead.day}T00:00:00Z`), labels: {} }] : []),
    family(METRICS.lastRoundFinished, status.lastRoundFinishedAt ? [{ value: seconds(status.lastRoundFinishedAt), labels: {} }] : []),
  ];
}
