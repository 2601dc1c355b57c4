import { z } from "zod";
import { API_SCHEMAS, ClaimBody, OwnerConfigurationBody, ReprobeForm, RoundId, SubscribeBody, SubscribeForm } from "@/lib/api/schemas";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { BadgeQuery } from "@/lib/site/badge-route";
import { CENSUS_WINDOWS, DEFAULT_CENSUS_WINDOW } from "@/lib/site/census";
import { DATA_LICENSE } from "@/lib/site/census-data";
import { ServerListParams } from "@/lib/site/query";

// GET /api/openapi.json: the JSON API as OpenAPI 3.1, generated from the zod schemas the routes parse their
// input with and type their answers by (lib/api/schemas, lib/site/query, the badge query). Only the route
// table below is written here: which path answers which schema with which status.

const COMPONENTS = "#/components/schemas/";
const JSON_TYPE = "application/json";
const TEXT_TYPE = "text/plain";
const HTML_TYPE = "text/html";

type JsonSchema = Record<string, unknown>;

// Date patterns are zod's regexes for what `format` already says; left out so the document stays readable.
const override = (ctx: { jsonSchema: JsonSchema }) => {
  if (ctx.jsonSchema.format === "date-time" || ctx.jsonSchema.format === "date") delete ctx.jsonSchema.pattern;
};

function inline(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, override, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** Every named schema as a component, nested ones referenced by $ref. */
function components(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(API_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: "output", override, uri: (id) => `${COMPONENTS}${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, s]) => {
      const { $schema: _s, $id: _i, ...rest } = s as JsonSchema;
      return [id, rest];
    }),
  );
}

const ref = (name: keyof typeof API_SCHEMAS) => ({ $ref: `${COMPONENTS}${name}` });
const json = (description: string, name: keyof typeof API_SCHEMAS) => ({ description, content: { [JSON_TYPE]: { schema: ref(name) } } });
const text = (description: string, type = TEXT_TYPE) => ({ description, content: { [type]: { schema: { type: "string" } } } });
const validators = { ETag: { schema: { type: "string" } }, "Last-Modified": { schema: { type: "string" } } };

/** Query parameters from an object schema's fields: required when the field accepts no absence. */
function queryParameters(schema: z.ZodObject, describe: (key: string) => string | undefined = () => undefined) {
  return Object.entries(schema.shape).map(([name, field]) => {
    const f = field as z.ZodType;
    const s = inline(f, "input");
    return {
      name,
      in: "query",
      required: !f.safeParse(undefined).success,
      schema: s,
      ...((f.description ?? describe(name)) ? { description: f.description ?? describe(name) } : {}),
    };
  });
}

const nameParameter = {
  name: "name",
  in: "path",
  required: true,
  description: "The registry name, its slashes kept as they are: /api/servers/io.github.acme/weather.",
  schema: { type: "string" },
};

/** A capability token in the path (architecture.md §11): whoever holds it may act; keep it private. */
const tokenParameter = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});

const cronSecret = [{ cronSecret: [] }];

export function openApiDocument(options: { publicBaseUrl?: string } = {}) {
  const listDescriptions = (key: string) =>
    (CHECK_IDS as readonly string[]).includes(key)
      ? `Only servers whose ${key} check is in this state.`
      : key === "initializeFirst"
        ? "Only servers whose initialize-first clients can connect (yes), cannot (no), or where that is not known (unknown, never probed included)."
        : undefined;
  return {
    openapi: "3.1.0",
    info: {
      title: "mcp-status",
      version: SUITE_VERSION,
      summary: "Status of remote MCP servers: five checks per server, each with its state, reason and evidence.",
      description:
        "The JSON API of mcp-status. Every answer below is generated from the schemas the routes use; the version is the check suite's. Registry names contain slashes and are used in paths as they are.",
    },
    servers: [{ url: options.publicBaseUrl ?? "/" }],
    paths: {
      "/api/servers": {
        get: {
          operationId: "listServers",
          summary: "Servers, paged, searchable and filterable by check state",
          parameters: queryParameters(ServerListParams, listDescriptions),
          responses: {
            200: json("One page of servers.", "ServerListAnswer"),
            400: json("A parameter that does not parse.", "ErrorAnswer"),
          },
        },
      },
      "/api/servers/{name}": {
        get: {
          operationId: "getServer",
          summary: "One server: checks with state and reason, evidence, history, tools, response times",
          parameters: [nameParameter],
          responses: { 200: json("The server.", "ServerAnswer"), 404: json("No server by that name.", "ErrorAnswer") },
        },
      },
      "/api/servers/{name}/subscriptions": {
        post: {
          operationId: "subscribe",
          summary: "Be told when this server changes: an email (confirmed by a link) or a webhook (confirmed by a test message)",
          parameters: [nameParameter],
          requestBody: {
            required: true,
            content: {
              [JSON_TYPE]: { schema: inline(SubscribeBody, "input") },
              "application/x-www-form-urlencoded": { schema: inline(SubscribeForm, "input") },
            },
          },
          responses: {
            201: json(
              "A webhook whose test message got a 2xx: subscribed (a form post gets a page showing the secret once).",
              "SubscriptionActive",
            ),
            202: json("An email: the confirmation link is on its way.", "SubscriptionPending"),
            303: {
              description: "A form post: back to the server page with ?subscribe=<outcome>.",
              headers: { Location: { required: true, schema: { type: "string" } } },
            },
            400: json("invalid_address, address_not_allowed, webhook_test_failed or unknown_event.", "SubscribeError"),
            403: json("A cross-site post.", "ErrorAnswer"),
            404: json("No server by that name.", "SubscribeError"),
            429: json("rate_limited, with Retry-After.", "SubscribeError"),
            503: json("email_disabled (no SMTP_URL), or the database cannot be written.", "SubscribeError"),
          },
        },
      },
      "/api/servers/{name}/claims": {
        post: {
          operationId: "claimServer",
          summary: "Claim a listing: a secret claim token and a proof to publish at the probed remote's origin",
          parameters: [nameParameter],
          requestBody: { required: false, content: { [JSON_TYPE]: { schema: inline(ClaimBody, "input") } } },
          responses: {
            201: json("A pending claim: publish the proof, then verify.", "ClaimCreated"),
            403: json("A cross-site post.", "ErrorAnswer"),
            404: json("unknown_server.", "ClaimError"),
            422: json(
              "no_remote, opted_out or variable_host (the URL's host is a URL variable: no one origin to prove), with the reason.",
              "ClaimError",
            ),
            429: json("rate_limited, with Retry-After.", "ClaimError"),
            503: json("owners_disabled (no SECRETS_KEY), or the database cannot be written.", "ClaimError"),
          },
        },
      },
      "/api/claims/{claim}/verify": {
        post: {
          operationId: "verifyClaim",
          summary: "Fetch the claim's proof once (no redirect followed) and answer what was found",
          parameters: [tokenParameter("claim", "The claim token.")],
          responses: {
            200: json("The proof was found: the manage link.", "ClaimVerified"),
            403: json("A cross-site post.", "ErrorAnswer"),
            404: json("unknown_claim.", "ClaimError"),
            410: json("claim_lapsed.", "ClaimError"),
            422: json(
              "proof_not_found, proof_mismatch, proof_redirected, proof_unreachable, opted_out or address_not_allowed, with what was fetched.",
              "ClaimError",
            ),
            429: json("rate_limited: too many tokens that named nothing from this address.", "ClaimError"),
            503: json("owners_disabled.", "ClaimError"),
          },
        },
      },
      "/api/owners/{token}": {
        delete: {
          operationId: "giveUpClaim",
          summary: "Give the claim up, with its configuration and owner subscriptions",
          parameters: [tokenParameter("token", "The manage token.")],
          responses: { 204: { description: "Given up." }, 404: json("unknown_owner.", "ConfigurationErrorAnswer") },
        },
      },
      "/api/owners/{token}/configuration": {
        put: {
          operationId: "setOwnerConfiguration",
          summary: "Set the values the owner's view is probed with (write-only, sealed at rest)",
          parameters: [tokenParameter("token", "The manage token.")],
          requestBody: { required: true, content: { [JSON_TYPE]: { schema: inline(OwnerConfigurationBody, "input") } } },
          responses: {
            204: { description: "Stored; nothing is answered back." },
            400: json(
              "invalid_configuration, header_not_listed, invalid_header_name, invalid_value (CR, LF, control characters; in a URL variable also whitespace, / ? # @ \\, a dot segment, a host part that is not one DNS label, or a filled URL off the claimed origin), value_too_long (over 8 KB), variable_not_listed or variable_missing (every listed URL variable must be filled).",
              "ConfigurationErrorAnswer",
            ),
            403: json("A cross-site post.", "ErrorAnswer"),
            404: json("unknown_owner.", "ConfigurationErrorAnswer"),
            429: json("rate_limited.", "ClaimError"),
            503: json("owners_disabled.", "ConfigurationErrorAnswer"),
          },
        },
        delete: {
          operationId: "removeOwnerConfiguration",
          summary: "Remove the owner's configuration",
          parameters: [tokenParameter("token", "The manage token.")],
          responses: { 204: { description: "Removed." }, 404: json("unknown_owner.", "ConfigurationErrorAnswer") },
        },
      },
      "/api/owners/{token}/probe": {
        post: {
          operationId: "probeAsOwner",
          summary: "Probe the server now, the owner's view included (the same limits as the server page's probe again now)",
          parameters: [tokenParameter("token", "The manage token.")],
          responses: {
            202: { description: "Queued: a one-server round starts." },
            404: json("unknown_owner.", "ConfigurationErrorAnswer"),
            429: json("A probe was asked for recently, or the hourly cap is reached; Retry-After says when.", "ErrorAnswer"),
          },
        },
      },
      "/api/owners/{token}/subscriptions": {
        post: {
          operationId: "subscribeOwner",
          summary: "The owner's own subscription: the server's changes and the owner events",
          parameters: [tokenParameter("token", "The manage token.")],
          requestBody: { required: true, content: { [JSON_TYPE]: { schema: inline(SubscribeBody, "input") } } },
          responses: {
            201: json("A webhook whose test message got a 2xx.", "SubscriptionActive"),
            202: json("An email: the confirmation link is on its way.", "SubscriptionPending"),
            400: json("invalid_address, address_not_allowed, webhook_test_failed or unknown_event.", "SubscribeError"),
            404: json("unknown_owner.", "ConfigurationErrorAnswer"),
            429: json("rate_limited, with Retry-After.", "SubscribeError"),
          },
        },
      },
      "/api/badge/{name}": {
        get: {
          operationId: "getBadge",
          summary: "A shields.io endpoint badge: the overall state, one check, or a metric",
          parameters: [nameParameter, ...queryParameters(BadgeQuery)],
          responses: {
            200: json("The badge.", "ShieldsAnswer"),
            400: json("An unknown check or metric.", "BadgeError"),
            404: json("An unknown server (or no measurement): a grey badge.", "ShieldsAnswer"),
          },
        },
      },
      "/api/status": {
        get: {
          operationId: "getStatus",
          summary: "For outside monitors: last round, coverage, cross-read counts, open alerts",
          responses: { 200: json("No alert is open.", "StatusAnswer"), 503: json("An alert is open.", "StatusAnswer") },
        },
      },
      "/api/cross-reads": {
        get: {
          operationId: "getCrossReads",
          summary: "The latest cross-read day's outcomes",
          responses: { 200: json("The latest day (day null before the first).", "CrossReadsAnswer") },
        },
      },
      "/api/rounds": {
        post: {
          operationId: "startRound",
          summary: "Start a round in the background",
          security: cronSecret,
          responses: {
            202: json("Started.", "RoundStarted"),
            401: json("Missing or wrong token.", "ErrorAnswer"),
            403: json("CRON_SECRET is not configured.", "ErrorAnswer"),
            409: json("A round is running.", "RoundRunning"),
            503: json("The database cannot be written (database_unwritable); nothing was started.", "DatabaseUnwritable"),
          },
        },
        get: {
          operationId: "startRoundWithGet",
          summary: "Not a way to start a round: says to POST (a browser or a curl without -X POST lands here)",
          responses: { 405: json("method_not_allowed, with Allow: POST.", "ErrorAnswer") },
        },
      },
      "/api/rounds/{id}": {
        get: {
          operationId: "getRound",
          summary: "A round's progress",
          security: cronSecret,
          parameters: [{ name: "id", in: "path", required: true, schema: inline(RoundId, "input") }],
          responses: {
            200: json("The round.", "RoundAnswer"),
            400: json("Not a round id.", "ErrorAnswer"),
            401: json("Missing or wrong token.", "ErrorAnswer"),
            403: json("CRON_SECRET is not configured.", "ErrorAnswer"),
            404: json("No such round.", "ErrorAnswer"),
          },
        },
      },
      "/api/reprobe": {
        post: {
          operationId: "reprobe",
          summary: 'The server page\'s "Probe again now" form',
          requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: inline(ReprobeForm, "input") } } },
          responses: {
            303: {
              description: "Back to the server page with ?reprobe=queued or the refusal.",
              headers: { Location: { required: true, schema: { type: "string" } } },
            },
            400: text("The form fields are missing."),
            403: text("A cross-site post."),
            404: text("No server by that name in the registry."),
            503: json("The database cannot be written (database_unwritable); nothing was queued.", "DatabaseUnwritable"),
          },
        },
      },
      "/census": {
        get: {
          operationId: "getCensusPage",
          summary: "The census over time: a chart and a table per count, for the window in the URL (also /zh/census)",
          parameters: [
            {
              name: "window",
              in: "query",
              required: false,
              description: `How many days the charts show; default ${DEFAULT_CENSUS_WINDOW}.`,
              schema: { type: "string", enum: [...CENSUS_WINDOWS] },
            },
          ],
          responses: {
            200: text("The page.", HTML_TYPE),
            400: text("A window that is not allowed; the page names the allowed ones.", HTML_TYPE),
          },
        },
      },
      "/data/census.json": {
        get: {
          operationId: "getCensusJson",
          summary: `The daily census rows, oldest first (${DATA_LICENSE.id})`,
          responses: { 200: json("Every stored day.", "CensusAnswer") },
        },
      },
      "/data/census.csv": {
        get: {
          operationId: "getCensusCsv",
          summary: `The daily census rows as CSV, one column per count, e.g. auth:open, revision:2026-07-28 (${DATA_LICENSE.id})`,
          responses: { 200: text("RFC 4180, a header row first; a count a day does not carry is an empty cell.", "text/csv") },
        },
      },
      "/data/{file}": {
        get: {
          operationId: "getServersFile",
          summary: `servers-YYYY-MM-DD.jsonl.gz: every listed server's latest state that day, one OpenDataServer per line, gzip (${DATA_LICENSE.id})`,
          description:
            "Written once a day after the census row, kept 30 days, served as a file: ETag and Last-Modified, If-None-Match (304), one byte range (206, 416). Each line of the decompressed file is a JSON object matching the OpenDataServer component.",
          parameters: [
            {
              name: "file",
              in: "path",
              required: true,
              description: "servers-YYYY-MM-DD.jsonl.gz",
              schema: { type: "string", pattern: "^servers-\\d{4}-\\d{2}-\\d{2}\\.jsonl\\.gz$" },
            },
            {
              name: "Range",
              in: "header",
              required: false,
              description: "One byte range, bytes=a-b, a- or -n.",
              schema: { type: "string" },
            },
          ],
          responses: {
            200: {
              description: "The whole file.",
              headers: validators,
              content: { "application/gzip": { schema: { type: "string", contentMediaType: "application/gzip" } } },
            },
            206: {
              description: "The bytes asked for.",
              headers: { ...validators, "Content-Range": { schema: { type: "string" } } },
              content: { "application/gzip": { schema: { type: "string" } } },
            },
            304: { description: "Not modified (If-None-Match).", headers: validators },
            400: json("A malformed day.", "ErrorAnswer"),
            404: json("No file for that day (older than 30 days, or not written yet).", "ErrorAnswer"),
            416: { description: "The range starts past the end of the file." },
          },
        },
      },
      "/api/health": {
        get: {
          operationId: "getHealth",
          summary: "Liveness: 200 while the process serves",
          responses: { 200: json("Serving.", "HealthServing"), 503: json("The database does not answer.", "HealthFailure") },
        },
      },
      "/api/openapi.json": {
        get: {
          operationId: "getOpenApi",
          summary: "This document",
          responses: { 200: { description: "OpenAPI 3.1.", content: { [JSON_TYPE]: { schema: { type: "object" } } } } },
        },
      },
      "/metrics": {
        get: {
          operationId: "getMetrics",
          summary: "Prometheus text format, on only when METRICS_TOKEN is set",
          security: [{ metricsToken: [] }],
          responses: {
            200: text("The metrics of both processes of npm start."),
            401: text("Missing or wrong token."),
            404: text("METRICS_TOKEN is not set."),
            503: text("Too many scrapes are waiting."),
          },
        },
      },
    },
    components: {
      schemas: components(),
      securitySchemes: {
        cronSecret: { type: "http", scheme: "bearer", description: "CRON_SECRET, as a bearer token." },
        metricsToken: { type: "http", scheme: "bearer", description: "METRICS_TOKEN, as a bearer token." },
      },
    },
  };
}
