import { z } from "zod";
import { CHECK_IDS, CHECK_STATES, OBSERVATION_CODES, REACHES, REACH_REFUSAL_SHAPES, type CheckId } from "../vocabulary/checks";
import { TOOL_CHANGE_KINDS } from "../vocabulary/store";
import { DISCOVER_FIRST_STATES, INITIALIZE_FIRST_STATES } from "../vocabulary/clients";

// Input and output schemas of the three tools (architecture.md §4). Inputs are strict: an unknown property, a wrong type
// or an overlong string is a tool error naming the field; a page size over its cap is clamped and said so.

export const SEARCH_PAGE_SIZE = { default: 20, cap: 50 } as const;
export const CHANGES_LIMIT = { default: 25, cap: 100 } as const;
/** A search term, as the index and GET /api/servers take it. */
export const QUERY_MAX = 200;
const NAME_MAX = 200;

const state = z.enum(CHECK_STATES);
const iso = z.string().describe("ISO-8601 time (UTC)");

const registryName = z
  .string()
  .min(1)
  .max(NAME_MAX)
  .describe("The server's name in the official MCP registry, e.g. io.github.owner/server (search_servers finds it)");

export const getServerStatusInput = z.object({ name: registryName }).strict();

const stateFilters = Object.fromEntries(
  CHECK_IDS.map((id) => [id, state.optional().describe(`Only servers whose ${id} check is in this state`)]),
) as Record<CheckId, z.ZodOptional<typeof state>>;

export const searchServersInput = z
  .object({
    query: z.string().max(QUERY_MAX).optional().describe("Part of a registry name or title, case-insensitive; omit to list every server"),
    ...stateFilters,
    includeLeft: z.boolean().optional().describe("Also list servers that have left the registry (default false)"),
    page: z.number().int().min(1).max(100_000).optional().describe("1-based page number (default 1)"),
    pageSize: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`Servers per page (default ${SEARCH_PAGE_SIZE.default}; at most ${SEARCH_PAGE_SIZE.cap}, larger values are lowered to it)`),
  })
  .strict();

export const recentChangesInput = z
  .object({
    since: z
      .union([z.iso.datetime({ offset: true }), z.iso.date()], {
        error: "expected an ISO-8601 date (2026-11-30) or date-time with a time zone (2026-11-30T12:00:00Z)",
      })
      .optional()
      .describe("List changes after this time (ISO-8601 date or date-time, e.g. 2026-11-30T00:00:00Z); default 24 hours ago"),
    name: registryName.optional().describe("Only changes of this server (its registry name)"),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        `Changes of each kind to return, newest first (default ${CHANGES_LIMIT.default}; at most ${CHANGES_LIMIT.cap}, larger values are lowered to it)`,
      ),
  })
  .strict();

const overall = z
  .object({
    state,
    check: z.enum(CHECK_IDS).nullable().describe("The check that decided the overall state; null when Verified"),
    reason: z.string().nullable(),
    cause: z.string().nullable().describe("For Not checked: the kind of reason (e.g. credential_required), when known"),
  })
  .nullable()
  .describe("The server's headline state (architecture.md §2); null before its first probe");

const checkResult = z
  .object({
    state,
    reason: z.string(),
    hint: z.string().nullable().describe("What the operator should change, when the evidence matches a known misconfiguration"),
    since: z.string().nullable().describe("When the check entered this state"),
    decidedAt: iso,
    suiteVersion: z.string(),
  })
  .nullable();

const uptimeFigure = z.object({
  ratio: z.number().nullable().describe("Share of probes that reached the server whose handshake completed or met a credential gate"),
  up: z.number(),
  reached: z.number(),
  from: iso,
});

const links = { page: z.string().describe("The server's page on this site"), json: z.string().describe("The same report as JSON") };

const observation = z
  .object({
    code: z.enum(OBSERVATION_CODES),
    tool: z.string().optional().describe("The tool's name; absent for the server's instructions"),
    pointer: z.string().describe('JSON pointer into {tools, instructions}, e.g. "/tools/3/description"'),
    sentence: z.string().describe("What is there and where, in one sentence"),
    offset: z.number().optional().describe("Code points before the first occurrence"),
    count: z.number().optional(),
    decoded: z.string().optional().describe("Hidden text decoded, when there is one"),
  })
  .describe("A fact about the tool definitions (architecture.md §2.9), never a verdict; it moves no state");

export const serverStatusOutput = z.object({
  name: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  ...links,
  remoteUrl: z.string().nullable(),
  transport: z.string().nullable(),
  inRegistry: z.boolean(),
  leftRegistryAt: z.string().nullable(),
  overall,
  checks: z.object(Object.fromEntries(CHECK_IDS.map((id) => [id, checkResult])) as Record<CheckId, typeof checkResult>),
  era: z.string().nullable(),
  protocolVersion: z.string().nullable(),
  toolCount: z.number().nullable(),
  lastProbedAt: z.string().nullable(),
  lastCompleteReadAt: z.string().nullable().describe("Last time the whole tool list was read"),
  nextDueAt: z.string().nullable(),
  uptime: z
    .object({ last24h: uptimeFigure, last7d: uptimeFigure, last30d: uptimeFigure, last90d: uptimeFigure })
    .nullable()
    .describe(
      "Uptime over 24 hours, 7, 30 and 90 whole UTC days (architecture.md §4); a window's ratio is null when no probe reached the server",
    ),
  observations: z.array(observation).describe("Facts about the tool definitions of the latest complete read (architecture.md §2.9)"),
  clients: z
    .object({
      initializeFirst: z.object({ state: z.enum(INITIALIZE_FIRST_STATES), reason: z.string() }),
      discoverFirst: z.object({ state: z.enum(DISCOVER_FIRST_STATES), reason: z.string() }),
    })
    .describe(
      "Which clients can connect (architecture.md §2.10): those that send initialize first (the TypeScript SDK by default, the MCP Inspector, 2025-era clients) and those that send server/discover first",
    ),
  configuration: z
    .object({
      needed: z.boolean().describe("The registry entry needs the user's own values (a header, a URL variable) before a client connects"),
      headers: z.array(z.string()).describe("Header names the registry lists as needed; never sent by the probe"),
      reach: z
        .enum(REACHES)
        .nullable()
        .describe(
          "What the anonymous probe found: not_needed, answered, refused, gated, unreachable, no_address; null until a probe could tell",
        ),
      refusal: z.object({ status: z.number(), shape: z.enum(REACH_REFUSAL_SHAPES) }).optional(),
      sentence: z.string().nullable().describe("The page's plain sentence for it; null when nothing is needed"),
    })
    .describe("Its configuration need and what reaching it without the listed headers found (architecture.md §2.6, suite 0.15.0)"),
});

const serverRow = z.object({
  name: z.string(),
  title: z.string().nullable(),
  page: z.string(),
  overall: state.nullable(),
  states: z.object(Object.fromEntries(CHECK_IDS.map((id) => [id, state.nullable()])) as Record<CheckId, z.ZodNullable<typeof state>>),
  toolCount: z.number().nullable(),
  lastProbedAt: z.string().nullable(),
  lastCompleteReadAt: z.string().nullable(),
  leftRegistryAt: z.string().nullable(),
});

const notes = z.array(z.string()).describe("Adjustments made to the request, e.g. a page size lowered to its cap");

export const searchServersOutput = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  pages: z.number(),
  servers: z.array(serverRow),
  notes,
});

export const recentChangesOutput = z.object({
  since: iso,
  until: iso,
  stateChanges: z.array(
    z.object({
      at: iso,
      name: z.string(),
      page: z.string(),
      check: z.enum(CHECK_IDS),
      from: state.nullable(),
      to: state,
      reason: z.string(),
    }),
  ),
  toolChanges: z.array(
    z.object({
      at: iso,
      name: z.string(),
      page: z.string(),
      tool: z.string(),
      kind: z.enum(TOOL_CHANGE_KINDS),
      path: z.string().describe('Field path inside the tool definition; "" for the whole tool'),
      before: z.string().nullable(),
      after: z.string().nullable(),
      sameServerVersion: z
        .string()
        .nullable()
        .optional()
        .describe("The serverInfo.version both reads reported, when the definition changed while it stayed the same (a fact)"),
    }),
  ),
  more: z.object({ stateChanges: z.boolean(), toolChanges: z.boolean() }).describe("True when older changes in the window were left out"),
  notes,
});

export type ServerStatus = z.infer<typeof serverStatusOutput>;
export type SearchServers = z.infer<typeof searchServersOutput>;
export type RecentChanges = z.infer<typeof recentChangesOutput>;
