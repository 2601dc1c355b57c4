// Every metric the site exports under its own name, with its type and HELP text: the one list the families
// below, the README and the tests read. Default process metrics (process_*, nodejs_*) keep prom-client's
// standard names and carry a `process` label (front or renderer).

export type MetricKind = "counter" | "gauge" | "histogram";

export interface MetricSpec {
  name: string;
  type: MetricKind;
  help: string;
}

export const METRICS = {
  roundsStarted: {
    name: "mcp_status_rounds_started_total",
    type: "counter",
    help: "Rounds started, by trigger (scheduler, api, cli, reprobe, demo-start, ...).",
  },
  roundsFinished: {
    name: "mcp_status_rounds_finished_total",
    type: "counter",
    help: "Rounds finished, by status: done, failed, or abandoned (its holder stopped heartbeating).",
  },
  roundDuration: {
    name: "mcp_status_round_duration_seconds",
    type: "histogram",
    help: "Wall time of rounds that finished as done or failed.",
  },
  serversProbed: {
    name: "mcp_status_servers_probed_total",
    type: "counter",
    help: "Servers probed by rounds, by run kind: read, partly_read, failed, gated, slowed_down, skipped.",
  },
  probeRequests: {
    name: "mcp_status_probe_requests_total",
    type: "counter",
    help: "Requests of the probe, by outcome: the answer's status class, network (no answer, the network failed) or no_answer.",
  },
  notificationDeliveries: {
    name: "mcp_status_notification_deliveries_total",
    type: "counter",
    help: "Tries to deliver subscribers' messages, by channel (email, webhook) and outcome: delivered, retry (tried again later), failed (given up), refused (the address policy refused the webhook).",
  },
  coverageToday: {
    name: "mcp_status_coverage_servers_read_today",
    type: "gauge",
    help: "Distinct servers read completely so far this UTC day (coverage.today of /api/status).",
  },
  coverageMedian: {
    name: "mcp_status_coverage_servers_read_median_7d",
    type: "gauge",
    help: "Median daily coverage of the 7 complete days before today (coverage.median7d of /api/status); absent until there is enough history.",
  },
  alertsOpen: {
    name: "mcp_status_alerts_open",
    type: "gauge",
    help: "Open alerts, by kind.",
  },
  regionUp: {
    name: "mcp_status_region_up",
    type: "gauge",
    help: "1 while a probing region is up, 0 while it is down (region_down open), by region; absent without regions.",
  },
  regionHostShare: {
    name: "mcp_status_region_host_share",
    type: "gauge",
    help: "Share of a region's latest distinct hosts that failed at the network level, by region; absent before its first answer.",
  },
  checkStates: {
    name: "mcp_status_check_state_servers",
    type: "gauge",
    help: "Registry servers by check and latest state (servers never evaluated are not counted).",
  },
  overallStates: {
    name: "mcp_status_overall_state_servers",
    type: "gauge",
    help: "Registry servers by overall state (architecture.md §2; servers never evaluated are not counted).",
  },
  registryServers: {
    name: "mcp_status_registry_servers",
    type: "gauge",
    help: "Servers currently listed in the registry.",
  },
  crossReads: {
    name: "mcp_status_cross_read_servers",
    type: "gauge",
    help: "Servers of the latest cross-read day, by outcome.",
  },
  crossReadDay: {
    name: "mcp_status_cross_read_day_timestamp_seconds",
    type: "gauge",
    help: "Start (UTC midnight, Unix seconds) of the latest cross-read day; absent before the first.",
  },
  lastRoundFinished: {
    name: "mcp_status_last_round_finished_timestamp_seconds",
    type: "gauge",
    help: "When the last round finished, in Unix seconds; absent before the first.",
  },
  frontAnswers: {
    name: "mcp_status_front_answers_total",
    type: "counter",
    help: "Requests the front answered, by outcome: hit, stale (previous version while the new renders), stale-if-error (held answer while the renderer cannot give the current one), fill (rendered and kept) or pass (handed to the renderer).",
  },
  frontRefusals: {
    name: "mcp_status_front_refusals_total",
    type: "counter",
    help: "Requests the front answered with an error of its own, by cause: renderer_away or busy (503), timeout (504), renderer_failed (502), bad_request (400), too_large (413).",
  },
  frontRendersInFlight: {
    name: "mcp_status_front_renders_in_flight",
    type: "gauge",
    help: "Requests the front has handed to the renderer that have not finished.",
  },
  frontRendersQueued: {
    name: "mcp_status_front_renders_queued",
    type: "gauge",
    help: "Requests waiting for a render slot (FRONT_MAX_RENDERS are running).",
  },
  frontCacheEntries: {
    name: "mcp_status_front_cache_entries",
    type: "gauge",
    help: "Answers the front holds in memory.",
  },
  frontCacheBytes: {
    name: "mcp_status_front_cache_bytes",
    type: "gauge",
    help: "Bytes of answers the front holds in memory.",
  },
  rendererRestarts: {
    name: "mcp_status_renderer_restarts_total",
    type: "counter",
    help: "Times the front started the renderer again after it exited.",
  },
  rendererUp: {
    name: "mcp_status_renderer_up",
    type: "gauge",
    help: "1 when this scrape includes the renderer's metrics, 0 when the renderer did not answer the front in time.",
  },
} as const satisfies Record<string, MetricSpec>;

/** One sample, as prom-client's registries hold it (`metricName` for a histogram's _bucket, _sum, _count). */
export interface Sample {
  value: number;
  labels: Record<string, string>;
  metricName?: string;
}

/** One metric family in prom-client's JSON form (`getMetricsAsJSON`), which its aggregation merges. */
export interface Family {
  name: string;
  help: string;
  type: MetricKind | "summary";
  aggregator: "sum";
  values: Sample[];
}

export function family(spec: MetricSpec, values: Sample[]): Family {
  return { name: spec.name, help: spec.help, type: spec.type, aggregator: "sum", values };
}

/** One sample per label value, zero for the known values not seen, so a rate starts at the first event. */
export function labelled(label: string, counts: Iterable<[string, number]>, known: readonly string[] = []): Sample[] {
  const byValue = new Map<string, number>(known.map((k) => [k, 0]));
  for (const [k, v] of counts) byValue.set(k, (byValue.get(k) ?? 0) + v);
  return [...byValue].map(([k, value]) => ({ value, labels: { [label]: k } }));
}

/** A histogram's samples from per-bucket counts (each event counted in the smallest bucket that held it when
 * it was stored; a bound no longer listed folds into the next one up). */
export function histogramSamples(name: string, bounds: readonly number[], perBucket: Iterable<[string, number]>, sum: number): Sample[] {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  for (const [le, n] of perBucket) {
    const i = bounds.findIndex((b) => Number(le) <= b);
    counts[i === -1 ? bounds.length : i]! += n;
  }
  const out: Sample[] = [];
  let cumulative = 0;
  [...bounds.map(String), "+Inf"].forEach((le, i) => {
    cumulative += counts[i]!;
    out.push({ metricName: `${name}_bucket`, value: cumulative, labels: { le } });
  });
  out.push({ metricName: `${name}_sum`, value: sum, labels: {} }, { metricName: `${name}_count`, value: cumulative, labels: {} });
  return out;
}
