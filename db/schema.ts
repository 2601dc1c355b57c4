import { sqliteTable, text, integer, real, index, uniqueIndex, primaryKey } from "drizzle-orm/sqlite-core";
import {
  CHECK_IDS,
  CHECK_STATES,
  HINT_CODES,
  NO_FALLBACK_RULES,
  NOT_CHECKED_CAUSES,
  OBSERVATION_CODES,
  REACHES,
  REFUSAL_CODES,
} from "../lib/vocabulary/checks";
import { ERAS, TRANSPORTS } from "../lib/probe/protocol";
import {
  ALERT_KINDS,
  CENSUS_SOURCES,
  ALERT_STATES,
  CROSS_READ_EXPLANATIONS,
  CROSS_READ_OUTCOMES,
  EVENT_COUNTERS,
  OPT_OUT_SOURCES,
  REGISTRY_STATUSES,
  TOOL_CHANGE_KINDS,
  UPTIME_OUTCOMES,
} from "../lib/vocabulary/store";
import { LOCAL_REGION, RUN_ROLES } from "../lib/vocabulary/regions";
import { DISCOVER_FIRST_STATES, INITIALIZE_FIRST_STATES } from "../lib/vocabulary/clients";
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  OUTBOX_KINDS,
  OUTBOX_STATES,
  SUBSCRIBE_LIMIT_SCOPES,
  WEBHOOK_FLAVORS,
} from "../lib/vocabulary/notifications";
import { CLAIM_STATES, OWNER_LIMIT_SCOPES, OWNER_PROBE_OUTCOMES, OWNER_SECRET_KINDS } from "../lib/vocabulary/owners";

// Times are ISO-8601 UTC strings throughout: sortable, readable in evidence, no tz surprises.

/** One row per registry server name (latest version). Latest check states are denormalised here
 * so the index page can filter and page 30,000 rows on indexes alone. */
export const servers = sqliteTable(
  "servers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    title: text("title"),
    description: text("description"),
    version: text("version"),
    remoteUrl: text("remote_url"),
    transport: text("transport", { enum: TRANSPORTS }),
    host: text("host"),
    registryStatus: text("registry_status", { enum: REGISTRY_STATUSES }).notNull().default("active"),
    /** The owner's words on the registry status (the registry's `statusMessage`, e.g. why it was deprecated); shown escaped. */
    registryStatusMessage: text("registry_status_message"),
    /** Why the server cannot be probed as listed (URL template, required secret header); null when probeable. */
    needsConfig: text("needs_config"),
    firstSeenAt: text("first_seen_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    leftRegistryAt: text("left_registry_at"),
    era: text("era", { enum: ERAS }),
    protocolVersion: text("protocol_version"),
    lastProbedAt: text("last_probed_at"),
    /** The last complete read (architecture.md §2.2); the API's `lastSuccessAt`. */
    lastSuccessAt: text("last_success_at"),
    stateHandshake: text("state_handshake", { enum: CHECK_STATES }),
    stateProtocolVersion: text("state_protocol_version", { enum: CHECK_STATES }),
    stateToolsList: text("state_tools_list", { enum: CHECK_STATES }),
    stateErrorTaxonomy: text("state_error_taxonomy", { enum: CHECK_STATES }),
    stateAuthMetadata: text("state_auth_metadata", { enum: CHECK_STATES }),
    /** The overall state (architecture.md §2, lib/checks/overall.ts), written with the states above; null until the first run. */
    overall: text("overall", { enum: CHECK_STATES }),
    /** When the overall state is Not checked: the kind of its first Not checked discovery check. */
    overallCause: text("overall_cause", { enum: NOT_CHECKED_CAUSES }),
    // Schedule
    nextDueAt: text("next_due_at"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** Runs in a row whose results did not change (stretches the healthy interval). */
    unchangedStreak: integer("unchanged_streak").notNull().default(0),
    scheduleReason: text("schedule_reason"),
    toolCount: integer("tool_count"),
    currentToolHash: text("current_tool_hash"),
    /** The registry's own updatedAt for the listed version. */
    registryUpdatedAt: text("registry_updated_at"),
    /** Latest run, for the detail page's evidence. */
    lastRunId: integer("last_run_id"),
    /** JSON: every listed remote with its transport and standing (architecture.md §2.6, suite 0.13.0); null before 0.13.0. */
    remotes: text("remotes"),
    /** Which clients can connect (architecture.md §2.10, suite 0.15.0), from the latest probe: each kind's state, and
     * JSON ClientsVerdict (codes and facts, lib/checks/clients.ts); null before the first probe under 0.15.0. */
    clientsInitializeFirst: text("clients_initialize_first", { enum: INITIALIZE_FIRST_STATES }),
    clientsDiscoverFirst: text("clients_discover_first", { enum: DISCOVER_FIRST_STATES }),
    clients: text("clients"),
    /** JSON list of the header names the probed remote lists as needed (suite 0.15.0), never sent; null when none. */
    configHeaders: text("config_headers"),
    /** What the latest probe that could tell found of a server that needs configuration (architecture.md §2.6, 0.15.0). */
    reach: text("reach", { enum: REACHES }),
    /** JSON {status, shape} of the refusal when `reach` is refused; null otherwise. */
    reachRefusal: text("reach_refusal"),
    /** JSON {template, names, headers} (lib/registry/remotes.ts UrlVariables): the URL variables without a default an owner
     * may fill in for the owner's view (architecture.md §11); null when no remote lacks an address only for them. */
    urlVariables: text("url_variables"),
  },
  (t) => [
    uniqueIndex("servers_name_uq").on(t.name),
    index("servers_due_idx").on(t.nextDueAt),
    index("servers_host_idx").on(t.host),
    index("servers_hs_idx").on(t.stateHandshake, t.name),
    index("servers_pv_idx").on(t.stateProtocolVersion, t.name),
    index("servers_tl_idx").on(t.stateToolsList, t.name),
    index("servers_et_idx").on(t.stateErrorTaxonomy, t.name),
    index("servers_am_idx").on(t.stateAuthMetadata, t.name),
    index("servers_left_idx").on(t.leftRegistryAt, t.name),
    index("servers_overall_idx").on(t.overall, t.name),
    index("servers_probed_idx").on(t.lastProbedAt, t.name),
    index("servers_clients_if_idx").on(t.clientsInitializeFirst, t.name),
    // /metrics counts listed servers per overall state, check and state on every scrape: an index-only scan.
    index("servers_states_idx").on(
      t.leftRegistryAt,
      t.overall,
      t.stateHandshake,
      t.stateProtocolVersion,
      t.stateToolsList,
      t.stateErrorTaxonomy,
      t.stateAuthMetadata,
    ),
  ],
);

/** One row per server probe. Exchanges are kept for the latest run and for runs that changed a state;
 * older ones are pruned to null so growth stays bounded. */
export const runs = sqliteTable(
  "runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    roundId: integer("round_id"),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    suiteVersion: text("suite_version").notNull(),
    era: text("era", { enum: ERAS }).notNull(),
    protocolVersion: text("protocol_version"),
    requests: integer("requests").notNull().default(0),
    requestsOk: integer("requests_ok").notNull().default(0),
    /** A complete read (architecture.md §2.2): the tool list read to its end, malformed definitions or not. */
    read: integer("read", { mode: "boolean" }).notNull().default(false),
    /** JSON Exchange[]; null once pruned. */
    exchanges: text("exchanges"),
    keepEvidence: integer("keep_evidence", { mode: "boolean" }).notNull().default(false),
    /** Wall time of the handshake exchanges (discover, initialize, initialized); null when none was answered. */
    handshakeMs: integer("handshake_ms"),
    /** Wall time of the tools/list pages; null when no page was answered. */
    toolsListMs: integer("tools_list_ms"),
    /** JSON: the server's TLS certificate as the probe saw it (issuer, expiry; architecture.md §2.8); null for http. */
    certificate: text("certificate"),
    /** The overall state this run left the server in (architecture.md §2), and its Not checked kind: what the state feed
     * says beside each change. Null for runs stored before it was. */
    overall: text("overall", { enum: CHECK_STATES }),
    overallCause: text("overall_cause", { enum: NOT_CHECKED_CAUSES }),
    /** How this probe counts for uptime (architecture.md §4); null for runs recorded before uptime was kept. */
    uptime: text("uptime", { enum: UPTIME_OUTCOMES }),
    /** The region that probed (architecture.md §8): `local` for the site in-process, and for every run without regions. */
    region: text("region").notNull().default(LOCAL_REGION),
    /** What the run was in its round: the one that set the state, a confirmation, or a copy sent to a region that is down. */
    role: text("role", { enum: RUN_ROLES }).notNull().default("primary"),
    /** For a run that did not set the state: the run of the same round that did (its confirmations point at it). */
    verdictRunId: integer("verdict_run_id"),
    /** JSON QuorumFacts (lib/regions/quorum.ts) on the run that set the state, when several regions voted; else null. */
    quorum: text("quorum"),
    /** JSON: this run's own discovery states and handshake reason, for the per-region view; null without regions. */
    discovery: text("discovery"),
  },
  (t) => [
    index("runs_server_idx").on(t.serverId, t.startedAt),
    index("runs_started_idx").on(t.startedAt),
    index("runs_verdict_idx").on(t.verdictRunId),
  ],
);

/** Latest result per (server, check). */
export const checkResults = sqliteTable(
  "check_results",
  {
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    check: text("check", { enum: CHECK_IDS }).notNull(),
    state: text("state", { enum: CHECK_STATES }).notNull(),
    reason: text("reason").notNull(),
    /** JSON number[]: exchange seqs in the run's exchanges. */
    evidence: text("evidence").notNull().default("[]"),
    suiteVersion: text("suite_version").notNull(),
    runId: integer("run_id").notNull(),
    decidedAt: text("decided_at").notNull(),
    /** When the current state began. */
    since: text("since").notNull(),
    /** error_taxonomy only: the refusal code the judge decided on; null for other checks and older rows. */
    code: text("code", { enum: REFUSAL_CODES }),
    /** The known misconfiguration the evidence matched (architecture.md §2.8); null when none. */
    hintCode: text("hint_code", { enum: HINT_CODES }),
    /** JSON: the facts the hint's sentence is rendered from (a redirect's target, a host, …). */
    hintFacts: text("hint_facts"),
    /** Not checked only: the kind the judge decided on; null for other states and for rows stored before kinds were. */
    notCheckedCause: text("not_checked_cause", { enum: NOT_CHECKED_CAUSES }),
    /** Failed discovery by a rule that forbids the fallback to initialize, and the number behind it (JSON-RPC code
     * or HTTP status): what makes a cross-reader's legacy read an explained difference (architecture.md §6). */
    noFallback: text("no_fallback", { enum: NO_FALLBACK_RULES }),
    noFallbackCode: integer("no_fallback_code"),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.check] })],
);

export const transitions = sqliteTable(
  "transitions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    check: text("check", { enum: CHECK_IDS }).notNull(),
    fromState: text("from_state", { enum: CHECK_STATES }),
    toState: text("to_state", { enum: CHECK_STATES }).notNull(),
    reason: text("reason").notNull(),
    suiteVersion: text("suite_version").notNull(),
    runId: integer("run_id").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("transitions_server_idx").on(t.serverId, t.at), index("transitions_at_idx").on(t.at)],
);

export const toolSnapshots = sqliteTable(
  "tool_snapshots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    hash: text("hash").notNull(),
    /** JSON of the tool list, canonicalised. */
    tools: text("tools").notNull(),
    toolCount: integer("tool_count").notNull(),
    firstSeenAt: text("first_seen_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    /** `serverInfo.version` of the latest read that saw this list (architecture.md §2.9); null when the server gave none
     * and for snapshots stored before 0.14.0, so an upgrade never claims a change under the same version. */
    serverVersion: text("server_version"),
  },
  (t) => [uniqueIndex("tool_snapshots_uq").on(t.serverId, t.hash)],
);

export const toolChanges = sqliteTable(
  "tool_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    at: text("at").notNull(),
    toolName: text("tool_name").notNull(),
    kind: text("kind", { enum: TOOL_CHANGE_KINDS }).notNull(),
    /** Field path inside the tool, e.g. "description" or "inputSchema.properties.q.type"; "" for a whole tool. */
    path: text("path").notNull(),
    before: text("before"),
    after: text("after"),
    fromSnapshotId: integer("from_snapshot_id"),
    toSnapshotId: integer("to_snapshot_id"),
    /** `serverInfo.version` of the read before and of the read that saw the change (architecture.md §2.9): when both are
     * known and equal, the definition changed while the version stayed the same. */
    serverVersionBefore: text("server_version_before"),
    serverVersionAfter: text("server_version_after"),
  },
  (t) => [index("tool_changes_at_idx").on(t.at), index("tool_changes_server_idx").on(t.serverId, t.at)],
);

export const optOuts = sqliteTable("opt_outs", {
  host: text("host").primaryKey(),
  source: text("source", { enum: OPT_OUT_SOURCES }).notNull(),
  reason: text("reason").notNull(),
  since: text("since").notNull(),
});

/** robots.txt per host, fetched at most once a day. */
export const robotsCache = sqliteTable("robots_cache", {
  host: text("host").primaryKey(),
  fetchedAt: text("fetched_at").notNull(),
  status: integer("status"),
  body: text("body"),
  /** Whether our user agent may probe the server paths on this host, as last evaluated. */
  disallowed: integer("disallowed", { mode: "boolean" }).notNull().default(false),
  /** Crawl-delay for our token in seconds (architecture.md §2.5): the minimum gap between requests to the host. */
  crawlDelaySeconds: real("crawl_delay_seconds"),
});

/** A host that answered 429, or 503 with Retry-After: no new probe to it before `until`, across rounds. */
export const hostPauses = sqliteTable("host_pauses", {
  host: text("host").primaryKey(),
  until: text("until").notNull(),
  /** The answer that asked for it, e.g. "HTTP 429 with Retry-After 120". */
  cause: text("cause").notNull(),
});

/** architecture.md §2.5: one gate per host for all of the site's traffic (rounds, the cross-reader, re-probes), across the
 * processes that share this file. When the last request any of them sent to the host ended (ms since the epoch):
 * a Crawl-delay counts from it. */
export const hostGate = sqliteTable("host_gate", {
  host: text("host").primaryKey(),
  lastEndMs: integer("last_end_ms").notNull(),
});

/** A request slot to a host held by one process (`holder`); it lapses at `expiresMs` if the holder dies. */
export const hostLeases = sqliteTable(
  "host_leases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    host: text("host").notNull(),
    holder: text("holder").notNull(),
    expiresMs: integer("expires_ms").notNull(),
  },
  (t) => [index("host_leases_host_idx").on(t.host)],
);

/** A process waiting for a slot to a host since `sinceMs`: the oldest waiter goes first, so no process starves
 * another; the row lapses at `expiresMs` unless the waiter keeps polling. */
export const hostWaits = sqliteTable(
  "host_waits",
  {
    host: text("host").notNull(),
    holder: text("holder").notNull(),
    sinceMs: integer("since_ms").notNull(),
    expiresMs: integer("expires_ms").notNull(),
  },
  (t) => [primaryKey({ columns: [t.host, t.holder] })],
);

/** A process using the host gate on this file (architecture.md §2.5), renewed while it lives; it lapses at `expiresMs`
 * if the process dies. `shared` is false while the process, alone on the file, keeps its slots in memory: a process that
 * arrives takes no slot before every other holder has written its slots and last ends here and set `shared`. */
export const hostGateHolders = sqliteTable("host_gate_holders", {
  holder: text("holder").primaryKey(),
  shared: integer("shared", { mode: "boolean" }).notNull(),
  expiresMs: integer("expires_ms").notNull(),
});

export const ROUND_STATUSES = ["running", "done", "failed", "abandoned"] as const;

export const rounds = sqliteTable(
  "rounds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    status: text("status", { enum: ROUND_STATUSES }).notNull(),
    trigger: text("trigger").notNull(),
    due: integer("due").notNull().default(0),
    probed: integer("probed").notNull().default(0),
    read: integer("read").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    gated: integer("gated").notNull().default(0),
    /** Handshake fine, tool list not read to its end (endless pages, the probe's deadline). */
    partlyRead: integer("partly_read").notNull().default(0),
    slowedDown: integer("slowed_down").notNull().default(0),
    /** Servers answered without a request: opted out, needs configuration. */
    skipped: integer("skipped").notNull().default(0),
    heartbeatAt: text("heartbeat_at"),
    error: text("error"),
    /** architecture.md §2.7: distinct hosts the round sent a probe to, and those whose latest probe failed at the network
     * level; their ratio over 7 days is the level the host-share guard compares with. */
    hostsTried: integer("hosts_tried"),
    hostsNetworkFailed: integer("hosts_network_failed"),
    /** The guard presumed the probe's own network down during this round (its figures are left out of the level). */
    networkPaused: integer("network_paused", { mode: "boolean" }),
  },
  (t) => [index("rounds_started_idx").on(t.startedAt)],
);

/** A single-row lock: a round holds it while running; a stale heartbeat lets the next round take it. */
export const roundLock = sqliteTable("round_lock", {
  id: integer("id").primaryKey(),
  roundId: integer("round_id").notNull(),
  holder: text("holder").notNull(),
  acquiredAt: text("acquired_at").notNull(),
  heartbeatAt: text("heartbeat_at").notNull(),
});

export const coverageDaily = sqliteTable("coverage_daily", {
  day: text("day").primaryKey(),
  serversRead: integer("servers_read").notNull().default(0),
  serversAttempted: integer("servers_attempted").notNull().default(0),
  requests: integer("requests").notNull().default(0),
  requestsOk: integer("requests_ok").notNull().default(0),
});

/** Distinct-server bookkeeping behind coverage_daily. */
export const coverageServers = sqliteTable(
  "coverage_servers",
  {
    day: text("day").notNull(),
    serverId: integer("server_id").notNull(),
    read: integer("read", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.day, t.serverId] })],
);

export const alerts = sqliteTable(
  "alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    day: text("day").notNull(),
    kind: text("kind", { enum: ALERT_KINDS }).notNull(),
    message: text("message").notNull(),
    value: real("value"),
    baseline: real("baseline"),
    /** When the alert opened ("since"). */
    createdAt: text("created_at").notNull(),
    resolvedAt: text("resolved_at"),
    /** Why it resolved, one sentence. */
    resolvedMessage: text("resolved_message"),
    /** What the alert is about when a kind opens one per thing: the region of a region_down; null otherwise. */
    subject: text("subject"),
  },
  // Not unique per (day, kind): rounds can go stale, recover and go stale again within one UTC day.
  (t) => [index("alerts_day_kind_idx").on(t.day, t.kind), index("alerts_open_idx").on(t.resolvedAt, t.kind)],
);

/** Each opening and resolution of an alert: the Atom feed's entries and the webhook's outbox. Delivery is
 * recorded, so an event reaches the webhook once even across restarts. */
export const alertEvents = sqliteTable(
  "alert_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    alertId: integer("alert_id").notNull(),
    state: text("state", { enum: ALERT_STATES }).notNull(),
    at: text("at").notNull(),
    deliveredAt: text("delivered_at"),
    attempts: integer("attempts").notNull().default(0),
    lastAttemptAt: text("last_attempt_at"),
    lastError: text("last_error"),
  },
  (t) => [uniqueIndex("alert_events_uq").on(t.alertId, t.state), index("alert_events_pending_idx").on(t.deliveredAt, t.at)],
);

/** The cross-reader's outcome per UTC day and sampled server (architecture.md §6). */
export const crossReads = sqliteTable(
  "cross_reads",
  {
    day: text("day").notNull(),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    outcome: text("outcome", { enum: CROSS_READ_OUTCOMES }).notNull(),
    /** JSON string[]: field paths where the two tool lists differ (disagreed only). */
    paths: text("paths").notNull().default("[]"),
    /** The cross-reader's negotiated revision, or why it could not read. */
    detail: text("detail"),
    crossToolCount: integer("cross_tool_count"),
    probeToolCount: integer("probe_tool_count"),
    readAt: text("read_at").notNull(),
    /** A difference the probe's own rules account for (architecture.md §6): not counted by the cross_read alert. */
    explained: integer("explained", { mode: "boolean" }).notNull().default(false),
    /** Which rule explains it, and the number behind it (JSON-RPC code or HTTP status), when explained. */
    explanation: text("explanation", { enum: CROSS_READ_EXPLANATIONS }),
    explanationCode: integer("explanation_code"),
  },
  (t) => [primaryKey({ columns: [t.day, t.serverId] }), index("cross_reads_server_idx").on(t.serverId, t.day)],
);

/** Small key/value facts: registry refreshed at, demo markers, … */
export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** One row per server and UTC day it was probed: the history strip outlives the 30-day run retention.
 * `state` is the worst discovery state of the day's runs (failed > observed_risk > not_checked > verified). */
export const serverDays = sqliteTable(
  "server_days",
  {
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    day: text("day").notNull(),
    state: text("state", { enum: CHECK_STATES }).notNull(),
    probes: integer("probes").notNull().default(0),
    lastRunId: integer("last_run_id").notNull(),
    handshakeMsSum: integer("handshake_ms_sum").notNull().default(0),
    handshakeMsCount: integer("handshake_ms_count").notNull().default(0),
    handshakeMsMax: integer("handshake_ms_max"),
    toolsListMsSum: integer("tools_list_ms_sum").notNull().default(0),
    toolsListMsCount: integer("tools_list_ms_count").notNull().default(0),
    /** Uptime counters (architecture.md §4): probes that reached the server, and those whose handshake completed or
     * met a credential gate. Zero on days recorded before uptime was kept. */
    uptimeReached: integer("uptime_reached").notNull().default(0),
    uptimeUp: integer("uptime_up").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.day] })],
);

/** Accepted "probe again now" requests; refusals are answered, not stored. A request is done once a run of
 * its server started after `requestedAt`. */
export const reprobeRequests = sqliteTable(
  "reprobe_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    requestedAt: text("requested_at").notNull(),
  },
  (t) => [index("reprobe_server_idx").on(t.serverId, t.requestedAt), index("reprobe_at_idx").on(t.requestedAt)],
);

/** A stretch of time in which a server's discovery checks were Failed (architecture.md §4): opened by the run that turned
 * one of them Failed, closed by the first later run that reached the server with none Failed. Written in the
 * run's own transaction. */
export const incidents = sqliteTable(
  "incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    startedAt: text("started_at").notNull(),
    /** Null while the incident is open. */
    endedAt: text("ended_at"),
    /** The first Failed discovery check of the opening run, and its reason. */
    check: text("check", { enum: CHECK_IDS }).notNull(),
    reason: text("reason").notNull(),
    openedRunId: integer("opened_run_id").notNull(),
    closedRunId: integer("closed_run_id"),
  },
  (t) => [
    index("incidents_server_idx").on(t.serverId, t.startedAt),
    index("incidents_started_idx").on(t.startedAt),
    index("incidents_open_idx").on(t.endedAt, t.serverId),
  ],
);

/** Running totals of events for `/metrics` (rounds started and finished, round durations by bucket, servers
 * probed, probe requests): written in the transaction of the event itself, read by whichever process answers
 * a scrape. Never pruned: Prometheus reads them as counters. */
export const eventCounters = sqliteTable(
  "event_counters",
  {
    name: text("name", { enum: EVENT_COUNTERS }).notNull(),
    /** The one label value: a trigger, round status, run kind, request outcome or bucket bound; "" for none. */
    label: text("label").notNull(),
    value: real("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.name, t.label] })],
);

/** architecture.md §8: each region's health as the site last judged it, written by rounds and read by /api/status, /coverage
 * and a restarted process (a region that was down stays down until it reads again). */
export const regionStates = sqliteTable("region_states", {
  id: text("id").primaryKey(),
  up: integer("up", { mode: "boolean" }).notNull(),
  lastAnswerAt: text("last_answer_at"),
  /** Share of the latest distinct hosts that failed at the network level from this region; null before any answer. */
  hostShare: real("host_share"),
  hostsTried: integer("hosts_tried").notNull().default(0),
  /** JSON DownCause (lib/regions/health.ts) while down; null while up. */
  down: text("down"),
  downSince: text("down_since"),
  updatedAt: text("updated_at").notNull(),
});

/** The census over time (architecture.md §3): one row of aggregates per UTC day, written after the day's first round or
 * rebuilt from stored runs, never pruned. Each count column is a JSON object of key → servers (lib/store/census.ts defines
 * every key); null when the row's source could not know it (a rebuilt day has no transports or refusal shapes). */
export const censusDays = sqliteTable("census_days", {
  day: text("day").primaryKey(),
  source: text("source", { enum: CENSUS_SOURCES }).notNull(),
  /** The moment the counts describe: the end of the day's first round. */
  asOf: text("as_of").notNull(),
  writtenAt: text("written_at").notNull(),
  roundId: integer("round_id"),
  /** Servers listed in the registry at `asOf`, and those of them with a stored result. */
  registry: integer("registry").notNull(),
  probed: integer("probed").notNull(),
  /** Rebuilt rows: listed servers whose latest stored run is older than the run retention, so a later run may be missing. */
  uncertain: integer("uncertain").notNull().default(0),
  needsConfiguration: integer("needs_configuration").notNull(),
  revisions: text("revisions").notNull(),
  eras: text("eras").notNull(),
  transports: text("transports"),
  auth: text("auth").notNull(),
  refusals: text("refusals"),
  overall: text("overall").notNull(),
  notCheckedCauses: text("not_checked_causes").notNull(),
  /** Servers per observation code (architecture.md §2.9) of their latest complete read; null until observations are recorded. */
  observations: text("observations"),
  /** Servers that need configuration, per reach (architecture.md §2.6, suite 0.15.0); null before 0.15.0 and when rebuilt. */
  reach: text("reach"),
  /** Servers per state of each kind of client (architecture.md §2.10, suite 0.15.0): JSON {initializeFirst, discoverFirst};
   * null on rows written before it was counted and on rebuilt rows (runs do not record it). */
  clients: text("clients"),
});

/** Observations on tool definitions (architecture.md §2.9), stored with the run whose complete read they were made on:
 * the code and its facts; the sentence is worded from them (lib/checks/observation-text.ts). */
export const observations = sqliteTable(
  "observations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    code: text("code", { enum: OBSERVATION_CODES }).notNull(),
    tool: text("tool"),
    pointer: text("pointer").notNull(),
    offset: integer("offset"),
    count: integer("count"),
    decoded: text("decoded"),
    /** JSON: the rest of the facts (code points, excerpt, names, value, whether it sits in a key). */
    facts: text("facts"),
  },
  (t) => [index("observations_run_idx").on(t.runId)],
);

/** Per server, the codes of its latest complete read and how many observations of each: what the index filter, the
 * census and the daily census row count. Replaced by every complete read, in the run's transaction. */
export const serverObservations = sqliteTable(
  "server_observations",
  {
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id),
    code: text("code", { enum: OBSERVATION_CODES }).notNull(),
    count: integer("count").notNull(),
    runId: integer("run_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.serverId, t.code] }), index("server_observations_code_idx").on(t.code, t.serverId)],
);

/** Who is told of changes (architecture.md §10): one email address or one webhook URL, with every subscription it holds.
 * The address is never shown, logged or answered; a subscriber left with no subscription is deleted with it. */
export const subscribers = sqliteTable(
  "subscribers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channel: text("channel", { enum: NOTIFICATION_CHANNELS }).notNull(),
    /** The email address (lower-cased domain) or the webhook URL: read by the sender alone, never indexed. */
    address: text("address").notNull(),
    /** HMAC-SHA256 of the channel and address under the site's subscriptions key, what a sign-up finds its subscriber by. An
     * index's pages can keep a deleted key's bytes, so the index holds this, never the address (architecture.md §10). */
    addressHash: text("address_hash"),
    /** Webhooks: the message shape the URL's host displays; null for email. */
    flavor: text("flavor", { enum: WEBHOOK_FLAVORS }),
    /** The language of the page it subscribed on ("en", "zh"): its messages and manage page speak it. */
    lang: text("lang").notNull().default("en"),
    createdAt: text("created_at").notNull(),
    /** Webhooks: the first failed try since the last delivery; null while deliveries succeed. */
    failingSince: text("failing_since"),
    /** A webhook failing for 3 days is paused: nothing more is tried until its manage page resumes it. */
    pausedAt: text("paused_at"),
  },
  (t) => [uniqueIndex("subscribers_address_hash_idx").on(t.addressHash)],
);

/** One subscriber's interest in one server. `token` is the capability in its links (confirm, manage, unsubscribe). */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subscriberId: integer("subscriber_id")
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    /** JSON array of NOTIFICATION_EVENTS. */
    events: text("events").notNull(),
    /** Webhooks with the JSON shape: the HMAC-SHA256 key of X-Mcp-Status-Signature, shown once at creation. */
    secret: text("secret"),
    createdAt: text("created_at").notNull(),
    /** Null until the confirmation link was opened (email); a webhook is confirmed by its test message at creation. */
    confirmedAt: text("confirmed_at"),
    /** When the latest message of this subscription was first tried: the flap rule's hour counts from it. */
    lastSentAt: text("last_sent_at"),
    /** An owner's subscription (architecture.md §11): the claim whose manage page made it; owner events go to it alone. */
    claimId: integer("claim_id").references(() => claims.id, { onDelete: "cascade" }),
  },
  (t) => [
    uniqueIndex("subscriptions_token_idx").on(t.token),
    uniqueIndex("subscriptions_pair_idx").on(t.subscriberId, t.serverId),
    index("subscriptions_server_idx").on(t.serverId, t.confirmedAt),
    index("subscriptions_unconfirmed_idx").on(t.confirmedAt, t.createdAt),
  ],
);

/** The outbox: one row per message to one subscription, written in the transaction of the change it tells of, so a change is
 * told at least once whatever stops the process. `messageId` stays the same across tries (receivers drop duplicates). */
export const outbox = sqliteTable(
  "outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: text("message_id").notNull(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: OUTBOX_KINDS }).notNull(),
    event: text("event", { enum: NOTIFICATION_EVENTS }),
    /** JSON facts of the change: {from?, to?, reason, at, …}; the message is worded from them when it is sent. */
    facts: text("facts").notNull(),
    createdAt: text("created_at").notNull(),
    state: text("state", { enum: OUTBOX_STATES }).notNull().default("pending"),
    /** When the row became a message of its own (the flap rule decides): its first try is due then. Null while it waits, and
     * for a row folded into another. */
    dueAt: text("due_at"),
    /** When the next try may be made (a retry's back-off, or the lease of a try under way); null until `dueAt` is set. */
    nextTryAt: text("next_try_at"),
    attempts: integer("attempts").notNull().default(0),
    /** Why the latest try failed, as a status or an error code (never an address). */
    lastError: text("last_error"),
    /** How many other changes were folded into this message. */
    folded: integer("folded").notNull().default(0),
    foldedInto: integer("folded_into"),
    doneAt: text("done_at"),
  },
  (t) => [
    uniqueIndex("outbox_message_idx").on(t.messageId),
    index("outbox_state_idx").on(t.state, t.nextTryAt),
    index("outbox_subscription_idx").on(t.subscriptionId, t.state),
  ],
);

/** Sign-ups counted for the abuse limits: per client address (hourly) and per email address (confirmations a day). `key` is an
 * HMAC of the address with the site's key, so no address is kept here; rows older than a day are deleted. */
export const subscribeAttempts = sqliteTable(
  "subscribe_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    scope: text("scope", { enum: SUBSCRIBE_LIMIT_SCOPES }).notNull(),
    key: text("key").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("subscribe_attempts_idx").on(t.scope, t.key, t.at)],
);

/** A claim on a listed server (architecture.md §11): a secret claim token (kept as its SHA-256, never itself), the proof to
 * publish at the probed remote's origin, and once verified a manage token (also kept as its hash). Several verified claims may
 * hold one server; a claim whose proof was gone at two weekly re-checks in a row lapses, and its configuration is deleted. */
export const claims = sqliteTable(
  "claims",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    claimHash: text("claim_hash").notNull(),
    manageHash: text("manage_hash"),
    /** The body the proof file must carry (one of its lines). Public once published, so kept as it is. */
    proof: text("proof").notNull(),
    /** The probed remote's origin when the claim was made: where the proof is fetched and the owner's values may go. */
    origin: text("origin").notNull(),
    state: text("state", { enum: CLAIM_STATES }).notNull().default("pending"),
    lang: text("lang").notNull().default("en"),
    createdAt: text("created_at").notNull(),
    verifiedAt: text("verified_at"),
    lapsedAt: text("lapsed_at"),
    lastCheckedAt: text("last_checked_at"),
    /** When the weekly re-check of the proof is due (verified claims only). */
    nextCheckAt: text("next_check_at"),
    /** Re-checks in a row that did not find the proof; two lapse the claim. */
    misses: integer("misses").notNull().default(0),
  },
  (t) => [
    uniqueIndex("claims_claim_hash_idx").on(t.claimHash),
    uniqueIndex("claims_manage_hash_idx").on(t.manageHash),
    index("claims_server_idx").on(t.serverId, t.state, t.verifiedAt),
    index("claims_recheck_idx").on(t.state, t.nextCheckAt),
  ],
);

/** An owner's configured values, sealed with AES-256-GCM under SECRETS_KEY (`v1:<key id>:<iv>:<tag>:<ciphertext>`, the claim,
 * kind and name bound in as associated data). Never answered back: pages show the name and when it was set. */
export const ownerSecrets = sqliteTable(
  "owner_secrets",
  {
    claimId: integer("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: OWNER_SECRET_KINDS }).notNull(),
    name: text("name").notNull(),
    sealed: text("sealed").notNull(),
    setAt: text("set_at").notNull(),
    /** A JWT value's `exp` (read without verifying it); null for any other value. */
    expiresAt: text("expires_at"),
    /** When owner_token_expiring was enqueued for this value (once per value). */
    expiryToldAt: text("expiry_told_at"),
  },
  (t) => [primaryKey({ columns: [t.claimId, t.kind, t.name] })],
);

/** One owner's-view probe (architecture.md §11): its five results and evidence with every configured value replaced by
 * ‹redacted›, and its outcome for the owner's uptime. */
export const ownerRuns = sqliteTable(
  "owner_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    claimId: integer("claim_id")
      .notNull()
      .references(() => claims.id, { onDelete: "cascade" }),
    serverId: integer("server_id")
      .notNull()
      .references(() => servers.id, { onDelete: "cascade" }),
    roundId: integer("round_id"),
    at: text("at").notNull(),
    outcome: text("outcome", { enum: OWNER_PROBE_OUTCOMES }).notNull(),
    /** Tools read to the end of the list; null when the list was not read. */
    tools: integer("tools"),
    /** JSON CheckResult[] (reasons say nothing of any value). */
    results: text("results").notNull(),
    /** JSON Exchange[], redacted. */
    exchanges: text("exchanges"),
  },
  (t) => [index("owner_runs_claim_idx").on(t.claimId, t.at), index("owner_runs_server_idx").on(t.serverId, t.at)],
);

/** Owner requests counted for the abuse limits, per client address (an HMAC of it, as for subscriptions): claims made, and
 * tokens that named nothing. Rows older than a day are deleted. */
export const ownerAttempts = sqliteTable(
  "owner_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    scope: text("scope", { enum: OWNER_LIMIT_SCOPES }).notNull(),
    key: text("key").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("owner_attempts_idx").on(t.scope, t.key, t.at)],
);
