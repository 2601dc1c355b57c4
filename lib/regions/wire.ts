// What travels between the site and a region's agents (architecture.md §8): one probe request, one answer. Both are
// checked like any outside input. An answer that fails its schema, its size cap or the limits of architecture.md §5
// is that region not answering, never a verdict on the server.
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { ERAS, TRANSPORTS } from "../probe/protocol";
import { NETWORK_ERROR_KINDS } from "../vocabulary/network";
import { CLIENT_METHODS, DEFAULT_LIMITS, EXCHANGE_PHASES, type ProbeLimits, type ProbeObservation } from "../probe/types";

/** The wire format's version; an agent answers only the version it speaks. */
export const WIRE_VERSION = 1;

/** Largest answer accepted, compressed (the broker's max_payload is set to it in the configuration we write)… */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** …and decompressed. A probe keeps at most 2 MiB per answer body and 2,000 characters of each in its evidence, so an
 * honest observation is far smaller; the cap stops a region's agent from making the site parse without end. */
export const MAX_ANSWER_JSON_BYTES = 32 * 1024 * 1024;
/** Exchanges one honest probe can record: pages, the handshake, the call, metadata, the transport check. */
const MAX_EXCHANGES = 4 * DEFAULT_LIMITS.maxPages + 32;
/** Tool definitions across all pages (the zoo's ten-thousand-tools server is the largest honest list we know). */
const MAX_TOOLS = 50_000;

/** Limits the site may ask an agent to use; an agent never probes beyond these (architecture.md §5). */
export const LimitsSchema = z
  .object({
    connectTimeoutMs: z.number().int().min(100).max(60_000),
    headersTimeoutMs: z.number().int().min(100).max(120_000),
    bodyTimeoutMs: z.number().int().min(100).max(120_000),
    deadlineMs: z
      .number()
      .int()
      .min(100)
      .max(30 * 60_000),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(8 * 1024 * 1024),
    maxSseEvents: z.number().int().min(1).max(10_000),
    maxPages: z.number().int().min(1).max(200),
    excerptChars: z.number().int().min(100).max(20_000),
  })
  .partial() satisfies z.ZodType<Partial<ProbeLimits>>;

export const ProbeRequestSchema = z.object({
  v: z.literal(WIRE_VERSION),
  /** Chosen by the site; the answer carries it back. */
  id: z.string().min(1).max(64),
  url: z.string().url().max(4096),
  transport: z.enum(TRANSPORTS),
  limits: LimitsSchema.optional(),
  /** robots.txt Crawl-delay of the server's host (ms): the agent spaces its own requests to that host by it. */
  crawlDelayMs: z.number().int().min(0).max(600_000).default(0),
  /** Hosts that asked not to be probed (the operator's list and robots.txt rules the site knows): the agent fetches
   * nothing there, auth metadata included (architecture.md §2.5). */
  optedOutHosts: z
    .array(z.object({ host: z.string().max(300), reason: z.string().max(500) }))
    .max(10_000)
    .default([]),
});
export type ProbeRequest = z.infer<typeof ProbeRequestSchema>;
export type ProbeRequestInput = z.input<typeof ProbeRequestSchema>;

const seq = z.number().int().min(0).max(100_000);
const seqs = z.array(seq).max(MAX_EXCHANGES);
const text = (max: number) => z.string().max(max);
const headers = z.record(z.string().max(200), z.string().max(8_192)).refine((h) => Object.keys(h).length <= 64, "too many headers");

const ExchangeSchema = z.object({
  seq,
  phase: z.enum(EXCHANGE_PHASES),
  method: z.enum(["GET", "POST", "DELETE"]),
  url: text(8_192),
  requestHeaders: headers,
  requestBody: text(40_000).optional(),
  status: z.number().int().min(100).max(999).optional(),
  responseHeaders: headers,
  bodyExcerpt: text(40_000).optional(),
  bodyBytes: z.number().int().min(0).optional(),
  truncated: z.boolean().optional(),
  durationMs: z
    .number()
    .min(0)
    .max(24 * 3_600_000),
  error: text(2_000).optional(),
  network: z.enum(NETWORK_ERROR_KINDS).optional(),
  errorCode: text(200).optional(),
  sseAnswer: text(40_000).optional(),
});

/** An outcome of one probe step: its kind from the probe's own list, its exchange pointers in range, the rest as the
 * probe's types give it (the judges read it; a judge that throws on it makes the answer invalid too). */
const outcome = (kinds: readonly [string, ...string[]]) =>
  z.looseObject({ kind: z.enum(kinds), seq: seq.optional(), seqs: seqs.optional() });

const tools = z.array(z.unknown()).max(MAX_TOOLS);

/** architecture.md §2.10: the initialize-first client's handshake after a modern one; its facts are what a sentence names. */
const InitializeFirstSchema = z.object({
  outcome: z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("read"),
      protocolVersion: text(100),
      tools: z.number().int().min(0).max(MAX_TOOLS),
      morePages: z.boolean(),
    }),
    z.object({ kind: z.literal("no_common_revision"), protocolVersion: text(100) }),
    z.object({
      kind: z.literal("refused"),
      method: z.enum(CLIENT_METHODS),
      answer: z.object({
        status: z.number().int().min(100).max(999).optional(),
        rpcCode: z.number().int().optional(),
        message: text(200).optional(),
        body: text(500).optional(),
      }),
    }),
    z.object({ kind: z.literal("credential_gate"), method: z.enum(CLIENT_METHODS), status: z.number().int().min(100).max(999) }),
    z.object({ kind: z.literal("slow_down"), method: z.enum(CLIENT_METHODS), status: z.number().int().min(100).max(999) }),
    z.object({ kind: z.literal("no_answer"), method: z.enum(CLIENT_METHODS), cause: text(2_000) }),
    z.object({ kind: z.literal("deadline"), method: z.enum(CLIENT_METHODS) }),
  ]),
  seqs,
});

const ObservationSchema = z.object({
  url: text(4096),
  transport: z.enum(TRANSPORTS),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  blocked: z.looseObject({ kind: z.enum(["opted_out", "address_policy", "needs_config", "invalid_url", "probe_network"]) }).optional(),
  handshake: outcome([
    "modern",
    "legacy",
    "sse",
    "discovered_newer",
    "declined",
    "slow_down",
    "credential_gate",
    "refused_no_challenge",
    "failed",
  ])
    // The server's instructions, which the observations of architecture.md §2.9 read: a string when there is one.
    .and(z.looseObject({ instructions: z.string().optional() }))
    .optional(),
  toolsList: outcome(["complete", "endless", "budget_exhausted", "credential_gate", "slow_down", "failed", "not_attempted"])
    .and(z.looseObject({ tools: tools.optional() }))
    .optional(),
  toolCall: outcome(["withheld", "answered", "slow_down", "failed"]).optional(),
  authMetadata: outcome([
    "no_challenge",
    "unparseable_challenge",
    "no_metadata_url",
    "opted_out_host",
    "address_refused",
    "invalid_url",
    "http_error",
    "not_json",
    "not_object",
    "unusable",
    "scope_mismatch",
    "slow_down",
    "failed",
    "ok",
  ]).optional(),
  slowDown: z.looseObject({ phase: z.enum(EXCHANGE_PHASES), status: z.number().int(), seq }).optional(),
  deadlineHit: z.boolean().optional(),
  era: z.enum(ERAS),
  exchanges: z.array(ExchangeSchema).max(MAX_EXCHANGES),
  certificate: z.looseObject({ host: text(300) }).optional(),
  transportCheck: z.object({ transport: z.enum(TRANSPORTS), answered: z.boolean(), seqs }).optional(),
  initializeFirst: InitializeFirstSchema.optional(),
});

export const ProbeAnswerSchema = z.object({
  v: z.literal(WIRE_VERSION),
  id: z.string().min(1).max(64),
  /** What the agent says of itself; the site trusts the subject it sent on, never this (architecture.md §8). */
  region: z.string().max(64),
  agent: z.string().max(200),
  observation: ObservationSchema,
});
export type ProbeAnswer = Omit<z.infer<typeof ProbeAnswerSchema>, "observation"> & { observation: ProbeObservation };

export function encodeRequest(r: ProbeRequestInput): Uint8Array {
  return Buffer.from(JSON.stringify(r));
}

/** The request an agent received, or why it cannot be served. */
export function decodeRequest(data: Uint8Array): { ok: true; request: ProbeRequest } | { ok: false; problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(data).toString("utf8"));
  } catch {
    return { ok: false, problem: "the request is not JSON" };
  }
  const parsed = ProbeRequestSchema.safeParse(json);
  if (!parsed.success) return { ok: false, problem: `the request does not match the wire format: ${issueLine(parsed.error)}` };
  return { ok: true, request: parsed.data };
}

export function encodeAnswer(a: ProbeAnswer): Uint8Array {
  return gzipSync(JSON.stringify(a));
}

export type DecodedAnswer = { ok: true; answer: ProbeAnswer } | { ok: false; cause: "invalid" | "too_large"; problem: string };

/** An answer as the site accepts it: within the caps, the schema, and about the server that was asked for. */
export function decodeAnswer(data: Uint8Array, request: Pick<ProbeRequest, "id" | "url">): DecodedAnswer {
  if (data.byteLength > MAX_ANSWER_BYTES) return { ok: false, cause: "too_large", problem: `the answer is ${data.byteLength} bytes` };
  let raw: Buffer;
  try {
    raw = gunzipSync(data, { maxOutputLength: MAX_ANSWER_JSON_BYTES });
  } catch (e) {
    const big = (e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
    return big
      ? { ok: false, cause: "too_large", problem: `the answer decompresses to more than ${MAX_ANSWER_JSON_BYTES} bytes` }
      : { ok: false, cause: "invalid", problem: "the answer is not gzip" };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    return { ok: false, cause: "invalid", problem: "the answer is not JSON" };
  }
  const parsed = ProbeAnswerSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, cause: "invalid", problem: `the answer does not match the wire format: ${issueLine(parsed.error)}` };
  const answer = parsed.data as unknown as ProbeAnswer;
  if (answer.id !== request.id)
    return { ok: false, cause: "invalid", problem: `the answer is for request ${answer.id}, not ${request.id}` };
  if (answer.observation.url !== request.url) return { ok: false, cause: "invalid", problem: "the answer observes another URL" };
  const numbers = answer.observation.exchanges.map((e) => e.seq);
  if (new Set(numbers).size !== numbers.length) return { ok: false, cause: "invalid", problem: "the answer numbers two exchanges alike" };
  return { ok: true, answer };
}

function issueLine(e: z.ZodError): string {
  const first = e.issues[0];
  return first ? `${first.path.join(".") || "(root)"}: ${first.message}` : "invalid";
}
