import { NO_FALLBACK_RULES } from "./checks";

// Kinds the store records besides check verdicts.

/** Where an opt-out came from: an operator's command, or the host's own robots.txt. */
export const OPT_OUT_SOURCES = ["operator", "robots"] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** How a tool definition changed between two complete lists. */
export const TOOL_CHANGE_KINDS = ["added", "removed", "changed"] as const;
export type ToolChangeKind = (typeof TOOL_CHANGE_KINDS)[number];

/** What an operated alert is about (architecture.md §6). */
export const ALERT_KINDS = [
  "coverage_drop",
  "rounds_stale",
  "cross_read",
  "probe_network",
  "region_down",
  "database_unwritable",
  "notifications_failing",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The two events in an alert's life; each is delivered to the webhook once. */
export const ALERT_STATES = ["open", "resolved"] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** How the cross-reader's tool list compares with the probe's latest complete read (architecture.md §6). */
export const CROSS_READ_OUTCOMES = ["agreed", "disagreed", "only_probe", "only_cross_reader", "neither"] as const;
export type CrossReadOutcome = (typeof CROSS_READ_OUTCOMES)[number];

/** What explains a cross-read difference (architecture.md §6): a rule that forbids what the legacy reader did (the no-fallback
 * rules of the handshake), a probe that was told to hold back (a slow-down, an opt-out), or a server whose initialize-first
 * clients cannot connect (§2.10), where the legacy reader fails as they do. */
export const CROSS_READ_EXPLANATIONS = [...NO_FALLBACK_RULES, "slow_down", "opted_out", "initialize_refused"] as const;
export type CrossReadExplanation = (typeof CROSS_READ_EXPLANATIONS)[number];

/** The trigger of a one-server round started by "Probe again now" on a server page. */
export const REPROBE_ROUND_TRIGGER = "reprobe";

/** How the server list can be ordered (the index's and GET /api/servers' `sort`), and in which direction. */
export const SERVER_SORTS = ["name", "overall", "last_probed"] as const;
export type ServerSort = (typeof SERVER_SORTS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** How one probe counts for uptime (architecture.md §4): `up` when the handshake completed or met a credential gate,
 * `down` when it reached the server and failed; `left_out` when it did not reach the server on the server's
 * account (a slow-down, an opt-out, needing configuration, the probe's own network or deadline). */
export const UPTIME_OUTCOMES = ["up", "down", "left_out"] as const;
export type UptimeOutcome = (typeof UPTIME_OUTCOMES)[number];

/** Events counted in the database for `/metrics` (each with one label: a trigger, round status, run kind,
 * request outcome or duration bucket), so every process serves the same totals and a restart loses none. */
export const EVENT_COUNTERS = [
  "rounds_started",
  "rounds_finished",
  "round_duration_bucket",
  "round_duration_sum",
  "servers_probed",
  "probe_requests",
  "notification_deliveries",
] as const;
export type EventCounter = (typeof EVENT_COUNTERS)[number];

/** How one request of a probe ended: the status class of its answer, or no answer because of the network
 * (architecture.md §2.7) or for another reason (a timeout after connecting, a size cap, the address policy). */
export const PROBE_REQUEST_OUTCOMES = ["2xx", "3xx", "4xx", "5xx", "other_status", "network", "no_answer"] as const;
export type ProbeRequestOutcome = (typeof PROBE_REQUEST_OUTCOMES)[number];

/** Where a daily census row came from (architecture.md §3): written after the day's first round, or rebuilt later from
 * the runs and transitions still stored. */
export const CENSUS_SOURCES = ["round", "backfill"] as const;
export type CensusSource = (typeof CENSUS_SOURCES)[number];

/** How an anonymous client fares with a server's auth (architecture.md §3, the census): it connects without credentials
 * (`open`), or meets a credential gate whose protected-resource metadata is usable (auth_metadata Verified) or is not;
 * `not_reached` when the latest probe neither completed a handshake nor met a gate (failed, slowed down, opted out,
 * needs configuration, never probed); `unknown` when the stored result does not say which. */
export const AUTH_OUTCOMES = ["open", "gate_usable_metadata", "gate_no_usable_metadata", "not_reached", "unknown"] as const;
export type AuthOutcome = (typeof AUTH_OUTCOMES)[number];

/** A server's standing in the registry: listed (`active`), withdrawn by its owner (`deprecated`, `deleted`: the owner's
 * status message is kept), or no longer listed at all (`left`). Only `active` servers are probed; all keep their history. */
export const REGISTRY_STATUSES = ["active", "deprecated", "deleted", "left"] as const;
export type RegistryStatus = (typeof REGISTRY_STATUSES)[number];

/** The statuses an owner sets on a version in the registry to withdraw it. */
export const REGISTRY_WITHDRAWALS = ["deprecated", "deleted"] as const satisfies readonly RegistryStatus[];
export type RegistryWithdrawal = (typeof REGISTRY_WITHDRAWALS)[number];
