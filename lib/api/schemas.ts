import { z } from "zod";
import { ROUND_STATUSES } from "../../db/schema";
import {
  CHECK_IDS,
  CHECK_STATES,
  DISCOVERY_CHECKS,
  HINT_CODES,
  NO_FALLBACK_RULES,
  NOT_CHECKED_CAUSES,
  OBSERVATION_CODES,
  REACHES,
  REACH_REFUSAL_SHAPES,
  REFUSAL_CODES,
} from "../vocabulary/checks";
import { FRONT_OUTCOMES, FRONT_REFUSALS, RENDERER_STATES } from "../vocabulary/front";
import { ERAS, REMOTE_STANDINGS, TRANSPORTS } from "../probe/protocol";
import { NETWORK_ERROR_KINDS } from "../vocabulary/network";
import { EXCHANGE_PHASES } from "../probe/types";
import { RUN_ROLES } from "../vocabulary/regions";
import { DISCOVER_FIRST_STATES, INITIALIZE_FIRST_STATES } from "../vocabulary/clients";
import { NOTIFICATION_EVENTS, PUBLIC_NOTIFICATION_EVENTS, SUBSCRIBE_ERRORS } from "../vocabulary/notifications";
import { CLAIM_ERRORS, CONFIGURATION_ERRORS, OWNER_PROBE_OUTCOMES } from "../vocabulary/owners";
import {
  ALERT_KINDS,
  AUTH_OUTCOMES,
  CENSUS_SOURCES,
  CROSS_READ_EXPLANATIONS,
  CROSS_READ_OUTCOMES,
  REGISTRY_STATUSES,
  TOOL_CHANGE_KINDS,
  UPTIME_OUTCOMES,
} from "../vocabulary/store";
import { CAUSE_KEYS, ERA_KEYS, OVERALL_KEYS, REACH_KEYS, REFUSAL_KEYS, TRANSPORT_KEYS } from "../store/census";
import { UPTIME_WINDOWS } from "../store/uptime";

// The JSON API's answers, one zod schema each: the one place a shape is defined. The handlers' answers are
// typed by these (a missing or mistyped field fails tsc), /api/openapi.json is generated from them, and the
// e2e suite validates live answers against that document (a field the code adds but no schema names fails
// there, since every object is closed). A new field is one edit here.

const instant = z.iso.datetime().describe("ISO-8601 instant, UTC");
const day = z.iso.date().describe("UTC day, YYYY-MM-DD");
const count = z.number().int().min(0);
const checkState = z.enum(CHECK_STATES);
const notCheckedCause = z.enum(NOT_CHECKED_CAUSES);

/** An object with one property per vocabulary entry, all of one schema. */
function keyed<K extends string, S extends z.ZodType>(keys: readonly K[], value: S) {
  return z.object(Object.fromEntries(keys.map((k) => [k, value])) as Record<K, S>);
}

// ---- Errors --------------------------------------------------------------------------------------------

export const ErrorAnswer = z
  .object({ error: z.string().describe("A machine-readable code: bad_request, not_found, unauthorized, disabled, …"), message: z.string() })
  .describe("A refusal: its code and one sentence saying what to change.");

// ---- /api/servers --------------------------------------------------------------------------------------

export const CheckStates = keyed(CHECK_IDS, checkState.nullable()).describe(
  "The latest state of each check; null until the server's first run.",
);

export const Clients = z
  .object({
    initializeFirst: z
      .object({ state: z.enum(INITIALIZE_FIRST_STATES), reason: z.string() })
      .describe(
        "Clients that send initialize first (the TypeScript SDK by default, the MCP Inspector, 2025-era clients). unknown: not tried or not decidable.",
      ),
    discoverFirst: z
      .object({ state: z.enum(DISCOVER_FIRST_STATES), reason: z.string() })
      .describe(
        "Clients that send server/discover first and fall back once (the Python SDK v2 by default, the C# SDK 2, the Go SDK 1.7). yes_after_fallback: a legacy server reached after the fallback.",
      ),
  })
  .describe("Which clients can connect, from the latest probe (architecture.md §2.10, suite 0.15.0); a `no` names the answer.");

export const ServerRow = z
  .object({
    name: z.string().describe("The registry name (contains '/')."),
    title: z.string().nullable(),
    description: z.string().nullable(),
    remoteUrl: z.string().nullable().describe("The remote the probe reads."),
    transport: z.enum(TRANSPORTS).nullable(),
    host: z.string().nullable(),
    era: z.enum(ERAS).nullable().describe("modern (2026-07-28 discover) or legacy (initialize)."),
    protocolVersion: z.string().nullable().describe("The agreed protocol revision."),
    states: CheckStates,
    overall: checkState.nullable().describe("The overall state (architecture.md §2); null until the first run."),
    overallCause: notCheckedCause
      .nullable()
      .describe("When the overall state is Not checked: the kind of its first Not checked discovery check."),
    notCheckedCauses: z
      .object(
        Object.fromEntries(CHECK_IDS.map((id) => [id, notCheckedCause.optional()])) as Record<
          (typeof CHECK_IDS)[number],
          z.ZodOptional<typeof notCheckedCause>
        >,
      )
      .describe("The kind of each Not checked check, by check id."),
    clients: Clients,
    needsConfig: z.string().nullable().describe("Why the listed remote cannot be probed as listed; null when it can."),
    toolCount: count.nullable(),
    lastProbedAt: instant.nullable(),
    lastSuccessAt: instant.nullable().describe("The last complete read: the tool list read to its end."),
    nextDueAt: instant.nullable(),
    leftRegistryAt: instant.nullable().describe("When the server left the registry; null while it is listed."),
  })
  .describe("One server of the index.");

export const ServerListAnswer = z
  .object({ total: count, page: z.number().int().min(1), pageSize: z.number().int().min(1), rows: z.array(ServerRow) })
  .describe("One page of servers, ordered by registry name.");

// ---- /api/servers/<name> -------------------------------------------------------------------------------

export const CheckResult = z
  .object({
    check: z.enum(CHECK_IDS),
    state: checkState,
    reason: z.string().describe("One sentence: what was observed and what it means."),
    code: z.enum(REFUSAL_CODES).nullable().describe("error_taxonomy only: the refusal shape the census counts."),
    hint: z
      .string()
      .nullable()
      .describe("What to change, one sentence, when the evidence matches a known misconfiguration (architecture.md §2.8)."),
    hintCode: z.enum(HINT_CODES).nullable().describe("The misconfiguration the hint names."),
    notCheckedCause: notCheckedCause.nullable().describe("Not checked only: the kind the judge decided on."),
    noFallback: z.enum(NO_FALLBACK_RULES).nullable().describe("Failed discovery by a rule that forbids the fallback to initialize."),
    noFallbackCode: z.number().int().nullable().describe("The JSON-RPC code or HTTP status behind that rule."),
    evidence: z.array(z.number().int()).describe("Sequence numbers of the exchanges behind the verdict."),
    suiteVersion: z.string(),
    runId: z.number().int(),
    decidedAt: instant,
    since: instant.describe("When the current state began."),
  })
  .describe("The latest result of one check.");

export const Exchange = z
  .object({
    seq: z.number().int(),
    phase: z.enum(EXCHANGE_PHASES),
    method: z.enum(["GET", "POST", "DELETE"]),
    url: z.string(),
    requestHeaders: z.record(z.string(), z.string()),
    requestBody: z.string().optional(),
    status: z.number().int().optional().describe("Absent when no answer arrived."),
    responseHeaders: z.record(z.string(), z.string()),
    bodyExcerpt: z.string().optional(),
    bodyBytes: count.optional(),
    truncated: z.boolean().optional(),
    durationMs: z.number().min(0),
    error: z.string().optional(),
    network: z.enum(NETWORK_ERROR_KINDS).optional().describe("Why no HTTP answer arrived, when the network was the cause."),
    errorCode: z.string().optional(),
    sseAnswer: z.string().optional(),
  })
  .describe("One HTTP request of the probe and what came back.");

export const CertificateFacts = z
  .object({
    host: z.string().describe("host:port it was presented for."),
    subject: z.string().optional(),
    issuer: z.string().optional(),
    validFrom: z.string().optional(),
    validTo: z.string().optional(),
    altNames: z.array(z.string()).optional(),
    rejected: z.string().optional().describe("Why the probe did not accept it; absent when accepted."),
  })
  .describe("The TLS certificate the server's host presented, as the probe saw it.");

export const RunSummary = z.object({
  id: z.number().int(),
  startedAt: instant,
  finishedAt: instant,
  durationMs: count,
  suiteVersion: z.string(),
  era: z.enum(ERAS),
  protocolVersion: z.string().nullable(),
  requests: count,
  requestsOk: count,
  read: z.boolean().describe("A complete read (the tool list read to its end)."),
  handshakeMs: count.nullable(),
  toolsListMs: count.nullable(),
  certificate: CertificateFacts.nullable(),
  overall: checkState.nullable().describe("The overall state this run left the server in."),
  overallCause: notCheckedCause.nullable(),
  uptime: z.enum(UPTIME_OUTCOMES).nullable().describe("How this probe counts for uptime: up, down, or left out."),
  region: z.string().describe("The region that probed (architecture.md §8); `local` for the site itself."),
  role: z.enum(RUN_ROLES).describe("primary, or the confirmation that read the server when the primary failed alone."),
});

export const Transition = z.object({
  check: z.enum(CHECK_IDS),
  fromState: checkState.nullable(),
  toState: checkState,
  reason: z.string(),
  suiteVersion: z.string(),
  runId: z.number().int(),
  at: instant,
});

export const ToolChange = z.object({
  at: instant,
  toolName: z.string(),
  kind: z.enum(TOOL_CHANGE_KINDS),
  path: z.string().describe('Field path inside the tool; "" for a whole tool.'),
  before: z.string().nullable(),
  after: z.string().nullable(),
  serverVersionBefore: z.string().nullable().describe("serverInfo.version of the read before the change; null when unknown."),
  serverVersionAfter: z.string().nullable().describe("serverInfo.version of the read that saw the change; null when unknown."),
  sameServerVersion: z
    .string()
    .nullable()
    .describe("The serverInfo.version both reads reported when the definition changed while it stayed the same (a fact); else null."),
});

export const Observation = z
  .object({
    code: z.enum(OBSERVATION_CODES),
    tool: z.string().optional().describe("The tool's name as received (capped); absent for the server's instructions."),
    pointer: z.string().describe('JSON pointer into {tools, instructions}: "/tools/3/description", "/instructions".'),
    sentence: z.string().describe("What is there and where, in one English sentence."),
    offset: count.optional().describe("Code points before the first occurrence."),
    count: count.optional(),
    decoded: z.string().optional().describe("Hidden text decoded: tag characters, a variation-selector run, base64."),
    codePoints: z.array(z.string()).optional().describe('The distinct code points concerned, "U+E0072".'),
    excerpt: z.string().optional().describe("The words matched, or the name that breaks the format; capped with …"),
    names: z.array(z.string()).optional().describe("Colliding names, the hints that are not booleans, or the secret path."),
    value: z.string().optional().describe("annotation_not_boolean: the value given, as JSON."),
    inKey: z.boolean().optional().describe("The characters sit in an object key, not in its value."),
  })
  .describe("A fact about the tool definitions (architecture.md §2.9); never a verdict, it moves no state.");

export const HistoryDay = z
  .object({ day, state: checkState.nullable(), probes: count, runId: z.number().int().nullable() })
  .describe("One UTC day: the worst discovery state of its probes; state null when nothing probed the server.");

const Percentiles = z.object({ p50: z.number().nullable(), p95: z.number().nullable(), samples: count }).describe("Milliseconds.");
const Timings = z.object({ handshake: Percentiles, toolsList: Percentiles });

export const ResponseTimes = z.object({
  last24h: Timings,
  last30d: Timings,
  daily: z.array(z.object({ day, handshakeP50: z.number().nullable(), toolsListP50: z.number().nullable() })),
});

export const Remote = z
  .object({
    url: z.string().describe("As listed."),
    filledUrl: z.string().optional().describe("With its variables' defaults filled in, when that differs."),
    transport: z.enum(TRANSPORTS),
    standing: z.enum(REMOTE_STANDINGS),
    why: z.string().nullable().describe("Why it needs configuration; null otherwise."),
  })
  .describe("One listed remote and its standing (architecture.md §2.6).");

export const Certificate = z
  .object({
    issuer: z.string().nullable(),
    subject: z.string().nullable(),
    validTo: z.string().nullable(),
    daysLeft: z.number().int().nullable().describe("Whole days until it expires, negative once expired."),
    warn: z.boolean().describe("Expired, or close to it."),
    rejected: z.string().nullable(),
  })
  .describe("The certificate fact beside the checks (architecture.md §2.8).");

const crossReadFields = {
  explained: z.boolean().describe("The difference follows from the probe's own rules (architecture.md §6)."),
  explanation: z.enum(CROSS_READ_EXPLANATIONS).nullable().describe("The rule that explains it."),
};

export const ServerCrossRead = z
  .object({
    day,
    name: z.string(),
    outcome: z.enum(CROSS_READ_OUTCOMES),
    paths: z.array(z.string()),
    detail: z.string().nullable(),
    crossToolCount: count.nullable(),
    probeToolCount: count.nullable(),
    readAt: instant,
    ...crossReadFields,
    explanationCode: z.number().int().nullable(),
    sentence: z.string().describe("The outcome in one sentence."),
  })
  .describe("The server's latest cross-read (architecture.md §6).");

const UptimeFigure = z.object({
  ratio: z.number().min(0).max(1).nullable().describe("up / reached; null when no probe reached the server."),
  up: count,
  reached: count,
  from: instant.describe("Where the window starts."),
});

export const Uptime = keyed(UPTIME_WINDOWS, UptimeFigure).describe("Uptime per window (architecture.md §4).");

export const Incident = z
  .object({
    id: z.number().int(),
    startedAt: instant,
    endedAt: instant.nullable().describe("Null while it is open."),
    durationMs: count.nullable(),
    check: z.enum(CHECK_IDS).describe("The discovery check that opened it."),
    reason: z.string(),
    openedRunId: z.number().int(),
    closedRunId: z.number().int().nullable(),
  })
  .describe("A stretch of time in which a discovery check was Failed (architecture.md §4).");

export const Configuration = z
  .object({
    needed: z.boolean().describe("The registry entry needs the user's own values (a header, a URL variable) before a client can connect."),
    headers: z.array(z.string()).describe("Names of the headers the probed remote lists as needed; the probe never sends them."),
    reach: z
      .enum(REACHES)
      .nullable()
      .describe(
        "What probing without those headers found: not_needed, answered (the handshake completed anyway), refused (an HTTP answer that was not the handshake), gated (401 with a valid challenge), unreachable (no HTTP answer), no_address (a URL variable without a default: nothing sent). Null until a probe could tell.",
      ),
    refusal: z
      .object({ status: z.number().int(), shape: z.enum(REACH_REFUSAL_SHAPES) })
      .optional()
      .describe("When refused: the status and how a client could read it (jsonrpc_error, bare_status: 401 or 403, malformed)."),
  })
  .describe("A server's configuration need and what reaching it anonymously found (architecture.md §2.6, suite 0.15.0).");

const OwnerCheck = z
  .object({
    check: z.enum(CHECK_IDS),
    state: checkState,
    reason: z.string().describe("One sentence; it never carries a configured value."),
    notCheckedCause: notCheckedCause.nullable(),
  })
  .describe("One check of the owner's view.");

export const OwnerView = z
  .object({
    state: checkState.describe("The owner's view overall, by the same rule as the public state."),
    summary: z.string().describe('One sentence, e.g. "With the owner\'s key: Verified, 14 tools."'),
    outcome: z
      .enum(OWNER_PROBE_OUTCOMES)
      .describe("up, down, refused (the owner's values were refused: the owner's trouble), unreadable (another SECRETS_KEY)."),
    tools: count.nullable().describe("Tools read to the end of the list with the owner's configuration."),
    checks: z.object(
      Object.fromEntries(CHECK_IDS.map((id) => [id, OwnerCheck.optional()])) as Record<
        (typeof CHECK_IDS)[number],
        z.ZodOptional<typeof OwnerCheck>
      >,
    ),
    lastProbedAt: instant,
    uptime: Uptime.describe("Up among the owner's-view probes that reached the server (refused and unreadable left out)."),
    configuredAt: instant.describe("When the configuration in use was last set."),
  })
  .describe(
    "The owner's view (architecture.md §11): the server probed with the configuration of its most recently verified owner. No value is ever in it; the public state, badge and census stay what an anonymous client sees.",
  );

export const ServerAnswer = ServerRow.extend({
  version: z.string().nullable(),
  firstSeenAt: instant,
  lastSeenAt: instant,
  registryStatus: z
    .enum(REGISTRY_STATUSES)
    .describe("active; deprecated or deleted when its owner withdrew it in the registry; left once the registry stopped listing it."),
  registryStatusMessage: z
    .string()
    .nullable()
    .describe("The owner's own words on the registry status (the registry's statusMessage), at most 500 characters; null when none."),
  remotes: z.array(Remote).describe("Every listed remote."),
  certificate: Certificate.nullable(),
  checks: z
    .object(
      Object.fromEntries(CHECK_IDS.map((id) => [id, CheckResult.optional()])) as Record<
        (typeof CHECK_IDS)[number],
        z.ZodOptional<typeof CheckResult>
      >,
    )
    .describe("Keyed by check id; present once the server was evaluated."),
  latestRun: RunSummary.nullable(),
  exchanges: z.array(Exchange).describe("The latest run's exchanges; empty when none were kept."),
  transitions: z.array(Transition).describe("Most recent first."),
  tools: z.array(z.unknown()).nullable().describe("The current complete tool list, as the server sent it; null if never read."),
  toolHash: z.string().nullable(),
  toolChanges: z.array(ToolChange).describe("Most recent first."),
  observations: z.array(Observation).describe("Facts about the tool definitions of the latest complete read (architecture.md §2.9)."),
  schedule: z.object({ nextDueAt: instant.nullable(), consecutiveFailures: count, scheduleReason: z.string().nullable() }),
  optOut: z.object({ source: z.string(), reason: z.string(), since: instant }).nullable(),
  history: z.array(HistoryDay).describe("The last 90 UTC days, oldest first."),
  responseTimes: ResponseTimes.nullable(),
  overallCheck: z.enum(CHECK_IDS).nullable().describe("The check that decided the overall state; null when Verified."),
  overallReason: z.string().nullable().describe("That check's reason."),
  crossRead: ServerCrossRead.nullable(),
  configuration: Configuration,
  ownerView: OwnerView.nullable().describe("Null until a verified owner's configuration was probed."),
  uptime: Uptime.nullable(),
  incidents: z.array(Incident).describe("The latest incidents, most recent first."),
  regions: z
    .array(
      z.object({
        region: z.string(),
        role: z.enum(RUN_ROLES),
        deciding: z.boolean().describe("This region's read set the state."),
        at: instant,
        states: z.object(
          Object.fromEntries(DISCOVERY_CHECKS.map((id) => [id, checkState.optional()])) as Record<
            (typeof DISCOVERY_CHECKS)[number],
            z.ZodOptional<typeof checkState>
          >,
        ),
        handshakeMs: count.nullable(),
        reason: z.string(),
      }),
    )
    .describe(
      "Each region's read of the server in the latest round (architecture.md §8), the deciding one first; one `local` entry without regions.",
    ),
  quorum: z
    .object({
      regions: z.array(z.string()).describe("The regions that voted, primary first."),
      failed: z.array(z.string()).describe("Those whose handshake or tool list failed."),
      note: z.string().nullable().describe("The regional note when a minority failed: who, when and how, and who read it."),
    })
    .nullable()
    .describe("How the regions voted in the latest round; null when fewer than two voted."),
  regionUptime: z
    .array(z.object({ region: z.string(), ratio: z.number().min(0).max(1).nullable(), up: count, reached: count, from: instant }))
    .describe("Uptime over the last 30 days per region that probed the server (from its runs)."),
}).describe("Everything the server page shows.");

// ---- /api/badge/<name> ---------------------------------------------------------------------------------

export const ShieldsAnswer = z
  .object({ schemaVersion: z.literal(1), label: z.string(), message: z.string(), color: z.string(), cacheSeconds: count })
  .describe("A shields.io endpoint badge; an unknown server gets a grey 'unknown' one with 404.");

export const BadgeError = z.object({ error: z.string() }).describe("An unknown check or metric.");

// ---- /api/status, /api/cross-reads ---------------------------------------------------------------------

export const StatusAnswer = z
  .object({
    lastRoundFinishedAt: instant.nullable(),
    coverage: z.object({
      today: count.describe("Distinct servers read completely so far this UTC day."),
      median7d: z.number().nullable().describe("Median of the 7 complete days before today; null until there is enough history."),
    }),
    crossRead: z
      .object({
        day,
        ...keyed(CROSS_READ_OUTCOMES, count).shape,
        explained: count.describe("Differences the probe's own rules account for."),
      })
      .nullable()
      .describe("The latest cross-read day's counts by outcome."),
    alerts: z
      .array(
        z.object({
          kind: z.enum(ALERT_KINDS),
          since: instant,
          day,
          message: z.string(),
          subject: z.string().optional().describe("What the alert is about, for kinds that open one per thing: a region_down's region."),
        }),
      )
      .describe("The open alerts."),
    regions: z
      .array(
        z.object({
          id: z.string(),
          up: z.boolean(),
          lastAnswerAt: instant.nullable(),
          hostShare: z
            .number()
            .min(0)
            .max(1)
            .nullable()
            .describe("Share of the latest distinct hosts this region failed to reach at the network level."),
        }),
      )
      .describe("The probing regions (architecture.md §8); empty without NATS_URL, when the site probes alone as `local`."),
  })
  .describe("For outside monitors: 503 while any alert is open, 200 otherwise, the same JSON either way.");

export const CrossReadsAnswer = z
  .object({
    day: day.nullable(),
    servers: z.array(
      z.object({
        name: z.string(),
        outcome: z.enum(CROSS_READ_OUTCOMES),
        ...crossReadFields,
        paths: z.array(z.string()).describe("Where the tool lists differ."),
      }),
    ),
  })
  .describe("The latest cross-read day's outcomes, the probe's possible blind spots first.");

// ---- /api/rounds ---------------------------------------------------------------------------------------

export const RoundStarted = z.object({
  id: z.number().int(),
  status: z.literal("running"),
  progress: z.string().describe("Where to read its progress."),
});

export const RoundRunning = ErrorAnswer.extend({ error: z.literal("already_running"), id: z.number().int() }).describe(
  "Another round holds the lock.",
);

export const DatabaseUnwritable = ErrorAnswer.extend({ error: z.literal("database_unwritable") }).describe(
  "The database cannot be written (the alert database_unwritable is open, or this request's own write failed): nothing was started. The message names SQLite's code; try again once space is freed.",
);

export const RoundAnswer = z
  .object({
    id: z.number().int(),
    startedAt: instant,
    finishedAt: instant.nullable(),
    status: z.enum(ROUND_STATUSES),
    trigger: z.string().describe("What started it: scheduler, api, cli, reprobe, …"),
    due: count,
    probed: count,
    read: count,
    partlyRead: count,
    failed: count,
    gated: count,
    slowedDown: count,
    skipped: count,
    heartbeatAt: instant.nullable(),
    error: z.string().nullable(),
    hostsTried: count
      .nullable()
      .describe("Distinct hosts the round sent a probe to (architecture.md §2.7 host share); null until it finished."),
    hostsNetworkFailed: count.nullable().describe("Of those, hosts whose probes failed at the network level; null until it finished."),
    networkPaused: z
      .boolean()
      .nullable()
      .describe("Whether the round paused because the probe's own network was failing; null until it finished."),
  })
  .describe("A round's progress; the counters add up to probed.");

export const RoundId = z.coerce.number().int().positive();

// ---- /api/reprobe, /api/health -------------------------------------------------------------------------

export const ReprobeForm = z.object({
  server: z.string().min(1).max(500).describe("The registry name."),
  token: z.string().max(200).describe("The token the server page signed for this server."),
  lang: z.enum(["en", "zh"]).optional().describe("The page's language: the answer leads back to the page in it."),
});

// ---- subscriptions (architecture.md §10) ----------------------------------------------------------------

export const SubscribeBody = z
  .object({
    email: z
      .string()
      .max(1000)
      .optional()
      .describe("An email address: it gets a confirmation link, valid 7 days, and nothing else until it is opened."),
    webhook: z.string().max(4000).optional().describe("A webhook URL: it must answer the test message with a 2xx within 10 s."),
    events: z
      .array(z.string().max(100))
      .max(20)
      .optional()
      .describe(`Among ${PUBLIC_NOTIFICATION_EVENTS.join(", ")}; default state_changed, incident_opened, incident_resolved.`),
  })
  .describe("One of email or webhook, and the events wanted.");

/** The server page's form: the same fields, plus the page's form key and language. */
export const SubscribeForm = z.object({
  channel: z.enum(["email", "webhook"]),
  address: z.string().max(4000),
  events: z.array(z.string().max(100)).max(20).optional(),
  token: z.string().max(200).describe("The form key the server page signed for this server."),
  lang: z.enum(["en", "zh"]).optional(),
});

export const SubscriptionPending = z
  .object({ status: z.literal("confirmation_sent") })
  .describe("An email subscription: the confirmation link was put in the outbox.");

export const SubscriptionActive = z
  .object({
    status: z.literal("active"),
    secret: z
      .string()
      .optional()
      .describe(
        "The HMAC-SHA256 key of X-Mcp-Status-Signature, shown this once (absent for Slack and Discord URLs, which are not signed).",
      ),
    manage: z.string().describe("The manage link: a capability URL, keep it private."),
  })
  .describe("A webhook whose test message got a 2xx: subscribed.");

export const SubscribeError = ErrorAnswer.extend({ error: z.enum(SUBSCRIBE_ERRORS) }).describe("Why no subscription was made.");

// ---- owners (architecture.md §11) --------------------------------------------------------------------------

export const ClaimCreated = z
  .object({
    claim: z.string().describe("The secret claim token (192 random bits), shown this once: verify with it."),
    proof: z.object({
      url: z.string().describe("Where to publish the proof: the probed remote's origin, /.well-known/mcp-status-claim."),
      body: z.string().describe("The line the file must contain."),
    }),
  })
  .describe("A pending claim.");

export const ClaimBody = z
  .object({ lang: z.enum(["en", "zh"]).optional() })
  .strict()
  .describe("Optional: the claimant's language.");

/** The server page's "Claim this listing" form. */
export const ClaimForm = z.object({
  token: z.string().max(200).describe("The form key the server page signed for this server."),
  lang: z.enum(["en", "zh"]).optional(),
});

export const ClaimVerified = z.object({ manage: z.string().describe("The manage link: a capability URL, keep it private.") });

export const ClaimError = ErrorAnswer.extend({
  error: z.enum(CLAIM_ERRORS),
  fetched: z.object({ status: z.number().int().nullable(), bytes: count }).optional().describe("What the one fetch of the proof URL got."),
}).describe("Why a claim could not be made or verified.");

export const OwnerConfigurationBody = z
  .object({
    headers: z
      .record(z.string().max(200), z.string().max(64 * 1024))
      .describe("Header name → value; only headers the registry lists for the probed remote, or Authorization for a credential gate."),
    variables: z
      .record(z.string().max(200), z.string().max(64 * 1024))
      .optional()
      .describe(
        "URL variable name → value; only the variables without a default the registry lists for a remote that has no address without them (its URL has `{name}`), and every one of them. A value is one path segment (percent-encoded when sent; whitespace, / ? # @ and \\ refused), or one DNS label in a host; the filled URL must stay on the claimed origin. Used only for the owner's view: the public listing keeps its URL as listed, and stored evidence shows ‹redacted› in each variable's place.",
      ),
  })
  .strict()
  .describe("An owner's configuration: write-only, sealed at rest; nothing of it is ever answered back.");

export const ConfigurationErrorAnswer = ErrorAnswer.extend({ error: z.enum(CONFIGURATION_ERRORS) }).describe(
  "Why a configuration was refused.",
);

export const WebhookMessage = z
  .object({
    id: z.string().describe("The message id: the same on every try of one message; drop duplicates by it."),
    type: z.enum([...NOTIFICATION_EVENTS, "test"]),
    server: z.object({ name: z.string(), page: z.string() }),
    from: z.string().nullable().optional(),
    to: z.string().nullable().optional(),
    reason: z.string(),
    at: instant,
    more: z.number().int().optional().describe("Changes folded into this message by the hourly limit."),
    manage: z.string().optional(),
    unsubscribe: z.string().optional(),
  })
  .describe("The body POSTed to a webhook, signed in X-Mcp-Status-Signature: sha256=<hex HMAC-SHA256 of the body>.");

/** What the front of `npm start` adds to its health answer: the renderer's state and its own counters. */
const RendererStatus = z
  .object({
    state: z.enum(RENDERER_STATES),
    pid: z.number().int().nullable(),
    since: instant.describe("When the current state began."),
    restarts: count,
    lastExit: z.string().nullable().describe('How the last renderer ended ("exit 1", "SIGKILL"); null before any did.'),
    nextStartAt: instant.nullable().describe("When the next start is due, while restarting."),
  })
  .describe("The renderer (next start) as the front supervises it.");

const FrontCounters = z
  .object({
    answers: keyed(FRONT_OUTCOMES, count).describe("Requests answered, by outcome, since the front started."),
    refusals: keyed(FRONT_REFUSALS, count).describe("Requests the front answered with an error of its own, by cause."),
    rendersInFlight: count,
    rendersQueued: count,
    rendererRestarts: count,
    cache: z.object({ entries: count, bytes: count }),
  })
  .describe("The front's counters (the same /metrics exports).");

const healthFront = { renderer: RendererStatus.optional(), front: FrontCounters.optional() };

export const HealthAnswer = z
  .object({
    ok: z.literal(true),
    ...healthFront,
    servers: count,
    lastRound: z
      .object({ id: z.number().int(), status: z.enum(ROUND_STATUSES), startedAt: instant, finishedAt: instant.nullable() })
      .nullable(),
    registryRefreshedAt: instant.nullable(),
    registryError: z.string().nullable(),
  })
  .describe("Serving; renderer and front are there when the front of npm start answers (next start alone leaves them out).");

export const HealthUnread = z
  .object({ ok: z.literal(true), ...healthFront, error: z.string().describe("Why the data could not be read.") })
  .describe("The front serves, but the data facts could not be read.");

export const HealthServing = z.union([HealthAnswer, HealthUnread]);

export const HealthFailure = z.object({ ok: z.literal(false), error: z.string() });

// ---- Open data: /data/census.json and the daily servers file (architecture.md §3) ----------------------------------

export const CensusDay = z
  .object({
    day,
    source: z
      .enum(CENSUS_SOURCES)
      .describe("round: written after the day's first round; backfill: rebuilt later from the runs still stored."),
    asOf: instant.describe("The moment the counts describe: the end of the day's first round."),
    writtenAt: instant,
    roundId: z.number().int().nullable(),
    registry: count.describe("Servers listed in the registry at asOf."),
    probed: count.describe("Of those, servers with a stored result."),
    uncertain: count.describe("Rebuilt days: servers counted by a run older than the 30-day run retention."),
    needsConfiguration: count.describe(
      "Servers Not checked for want of configuration: no address, or (suite 0.15.0) refused without the headers their entry lists.",
    ),
    revisions: z.record(z.string(), count).describe("Agreed protocol revision → servers."),
    eras: keyed(ERA_KEYS, count).describe("Era of the latest handshake; none: never probed."),
    transports: keyed(TRANSPORT_KEYS, count).nullable().describe("Transport of the remote the probe uses; null on rebuilt days."),
    auth: keyed(AUTH_OUTCOMES, count).describe("open, credential gate with usable metadata or without, not reached, unknown."),
    refusals: keyed(REFUSAL_KEYS, count).nullable().describe("error_taxonomy refusal code → servers; null on rebuilt days."),
    overall: keyed(OVERALL_KEYS, count).describe("Overall state → servers; none: never probed."),
    notCheckedCauses: keyed(CAUSE_KEYS, count).describe("Servers Not checked overall, by cause."),
    observations: z.record(z.string(), count).nullable().describe("Observation code → servers; null while none are recorded."),
    reach: keyed(REACH_KEYS, count)
      .nullable()
      .describe(
        "Servers that need configuration, by reach (answered, refused, gated, unreachable, no_address; unknown: no probe could tell yet); null on rebuilt days and before suite 0.15.0.",
      ),
    clients: z
      .object({
        initializeFirst: keyed(INITIALIZE_FIRST_STATES, count),
        discoverFirst: keyed(DISCOVER_FIRST_STATES, count),
      })
      .nullable()
      .describe(
        "Servers per state of each kind of client (architecture.md §2.10): those that send initialize first and those that send server/discover first; a server not probed under suite 0.15.0 counts as unknown. Null on rebuilt days and on days counted before it.",
      ),
  })
  .describe("One UTC day of the census: every listed server counted by its latest result.");

export const CensusAnswer = z
  .object({
    license: z.object({ id: z.string(), name: z.string(), url: z.string() }).describe("The licence of the data."),
    days: z.array(CensusDay).describe("Oldest first; a day without a round has no row."),
  })
  .describe("/data/census.json: the daily census rows.");

const openCheck = z.object({ state: checkState, suiteVersion: z.string() }).nullable();

export const OpenDataServer = z
  .object({
    name: z.string(),
    remoteUrl: z.string().nullable().describe("The remote the probe reads."),
    transport: z.enum(TRANSPORTS).nullable(),
    era: z.enum(ERAS).nullable(),
    protocolVersion: z.string().nullable(),
    overall: checkState.nullable(),
    overallCause: notCheckedCause.nullable(),
    checks: keyed(CHECK_IDS, openCheck).describe(
      "Each check's latest state and the suite version that decided it; null before the first run.",
    ),
    uptime30d: z
      .object({ ratio: z.number().min(0).max(1).nullable(), up: count, reached: count })
      .describe("architecture.md §4, 30 whole UTC days."),
    clients: Clients,
    configuration: Configuration,
    lastProbedAt: instant.nullable(),
    lastSuccessAt: instant.nullable().describe("The last complete read."),
  })
  .describe("One line of /data/servers-YYYY-MM-DD.jsonl.gz: one listed server's latest state that day.");

/** Every schema the document names as a component. */
export const API_SCHEMAS = {
  ErrorAnswer,
  CheckStates,
  ServerRow,
  ServerListAnswer,
  CheckResult,
  Exchange,
  CertificateFacts,
  RunSummary,
  Remote,
  Certificate,
  Transition,
  ToolChange,
  Observation,
  HistoryDay,
  ResponseTimes,
  ServerCrossRead,
  Uptime,
  Incident,
  ServerAnswer,
  ShieldsAnswer,
  BadgeError,
  StatusAnswer,
  CrossReadsAnswer,
  RoundStarted,
  RoundRunning,
  DatabaseUnwritable,
  SubscriptionPending,
  SubscriptionActive,
  SubscribeError,
  OwnerView,
  ClaimCreated,
  ClaimVerified,
  ClaimError,
  OwnerConfigurationBody,
  ConfigurationErrorAnswer,
  WebhookMessage,
  RoundAnswer,
  HealthServing,
  HealthAnswer,
  HealthUnread,
  HealthFailure,
  CensusDay,
  CensusAnswer,
  OpenDataServer,
} as const;

/** The output type of a named schema: `ApiShape<"ServerAnswer">`. */
export type ApiShape<K extends keyof typeof API_SCHEMAS> = z.output<(typeof API_SCHEMAS)[K]>;
