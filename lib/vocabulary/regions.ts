import type { NetworkErrorKind } from "./network";

// The names of several-region probing (architecture.md §8) that outside configuration relies on: NATS subjects,
// queue groups, the region id form and the default region. Contracts: added to, never renamed.

/** The one region there is without NATS_URL: the site probing in-process, exactly as with no regions at all. */
export const LOCAL_REGION = "local";

/** The form of a region id (architecture.md §8), which the configuration checks PROBE_REGIONS against: short, lower case,
 * safe as one NATS subject token and in a URL. */
export const REGION_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The subject the site sends a region's probes on. */
export function probeSubject(region: string): string {
  return `mcp-status.probe.${region}`;
}

/** The queue group the agents of one region answer in, so each probe is answered by one of them. */
export function agentQueue(region: string): string {
  return `mcp-status.agents.${region}`;
}

/** Every region's probe subject, for the site's publish permission. */
export const ALL_PROBE_SUBJECTS = "mcp-status.probe.>";

/** Why a region gave no usable answer to one probe: never a verdict on the server (architecture.md §8). */
export const NO_ANSWER_CAUSES = ["no_responders", "timeout", "invalid", "too_large", "nats_down"] as const;
export type NoAnswerCause = (typeof NO_ANSWER_CAUSES)[number];

/** What a run did in its round (architecture.md §8): `primary` set the state, `confirmation` was sent after a failing
 * primary, `recovery` went to a region that is down (it counts for nothing but the region's own health). */
export const RUN_ROLES = ["primary", "confirmation", "recovery"] as const;
export type RunRole = (typeof RUN_ROLES)[number];

/** Why one region failed the server, as facts a sentence is rendered from (lib/site words it). */
export type FailureFacts =
  | { kind: "network"; network: NetworkErrorKind }
  | { kind: "status"; status: number }
  | { kind: "declined"; code: number }
  | { kind: "other" };

/** A failing minority: who failed, when and how, and who read the server (architecture.md §8). */
export interface RegionalNote {
  failed: { region: string; at: string; facts: FailureFacts }[];
  readFrom: string[];
}

/** What `quorum` says in the API (`{regions, failed, note}`), kept as facts on the run that set the state. */
export interface QuorumFacts {
  /** Regions whose reads voted, primary first. */
  regions: string[];
  /** Those whose discovery failed. */
  failed: string[];
  note: RegionalNote | null;
}
