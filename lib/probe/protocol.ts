// Wire and suite facts the probe speaks: revisions, the reserved tool, the suite version. No display text here.

/** The version of the check suite; every stored result carries the one that produced it. */
export const SUITE_VERSION = "0.15.0";

export const MODERN_REVISION = "2026-07-28";
export const LEGACY_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
/** Revisions this prober speaks, newest first. */
export const KNOWN_REVISIONS = [MODERN_REVISION, ...LEGACY_REVISIONS] as const;

/** Codes by which a 2026-07-28 server declines the modern handshake; never a fallback signal. */
export const MODERN_DECLINE_CODES = [-32020, -32021, -32022] as const;

/** The tool the probe calls to see how a server refuses; it never calls any other. */
export const RESERVED_TOOL_NAME = "mcp_status_probe_no_such_tool";

export const ERAS = ["modern", "legacy", "unknown"] as const;
export type Era = (typeof ERAS)[number];

export const TRANSPORTS = ["streamable-http", "sse"] as const;
export type Transport = (typeof TRANSPORTS)[number];

/**
 * How one listed remote of a registry server stands (architecture.md §2.6, suite 0.13.0): the one probed, one that
 * needs the user's own values first, or one passed over because another remote of the server was probed.
 */
export const REMOTE_STANDINGS = ["probed", "needs_configuration", "passed_over"] as const;
export type RemoteStanding = (typeof REMOTE_STANDINGS)[number];

/** The shown remote's URL with its defaults filled and `{name}` left for each variable without one, those names, and the
 * headers that remote lists as needed (an owner may send them with the filled URL). */
export interface UrlVariables {
  template: string;
  names: string[];
  headers: string[];
}

/** One listed remote of a registry server (architecture.md §2.6), as the registry client reads it and the store keeps it. */
export interface RegistryRemote {
  /** As listed (a template when it has `{variables}`). */
  url: string;
  /** The URL with its variables' defaults filled in, when that differs from the listed one. */
  filledUrl?: string;
  transport: Transport;
  standing: RemoteStanding;
  /** Why it needs configuration, as a clause (no final period); null for the probed and passed-over ones. */
  why: string | null;
}

/** A -32022 whose `data` names the revisions a server speaks; `supportedVersions` has been seen in the wild. */
export const SUPPORTED_VERSIONS_FIELDS = ["supported", "supportedVersions"] as const;

/** JSON-RPC error for "rate limited" (draft SEP-3304): a slow-down, its `data.retryAfterMs` read like Retry-After. */
export const RATE_LIMITED_CODE = -32023;
