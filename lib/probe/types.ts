import type { NetworkErrorKind } from "../vocabulary/network";
import type { Era, Transport } from "./protocol";

/** One HTTP exchange as kept for evidence: enough to reproduce it with curl and to explain a verdict. */
export interface Exchange {
  seq: number;
  /** What the request was for. */
  phase: ExchangePhase;
  method: "GET" | "POST" | "DELETE";
  url: string;
  /** Request headers we sent (never credentials: we send none). */
  requestHeaders: Record<string, string>;
  /** JSON-RPC request body as sent (truncated to the excerpt cap). */
  requestBody?: string;
  /** Absent when no response arrived (timeout, network error, refused by policy). */
  status?: number;
  /** Response headers worth keeping (content-type, www-authenticate, retry-after, mcp-session-id, location, …). */
  responseHeaders: Record<string, string>;
  /** The first bytes of the (decompressed) body, as text. */
  bodyExcerpt?: string;
  /** Total body bytes read (decompressed), and whether a cap cut it short. */
  bodyBytes?: number;
  truncated?: boolean;
  durationMs: number;
  /** Why no usable response arrived: "timeout after 10000 ms (headers)", "ECONNREFUSED", "body exceeded 2097152 bytes", … */
  error?: string;
  /** Set when no HTTP answer arrived because of the network (architecture.md §2.7), never for a server's answer. */
  network?: NetworkErrorKind;
  /** The raw error code behind `error` when the request got no answer (ECONNREFUSED, CERT_HAS_EXPIRED, …). */
  errorCode?: string;
  /**
   * For answers framed as SSE (and POSTs of the 2024-11-05 transport, whose answer arrives on the GET
   * stream): the data of the event that carried the JSON-RPC answer, truncated to the excerpt cap.
   */
  sseAnswer?: string;
}

/** What a request was for; "robots" (robots.txt, read by rounds through the same session code) and "claim_proof" (an owner's
 * proof file, architecture.md §11) are never part of a stored observation. */
export const EXCHANGE_PHASES = [
  "discover",
  "initialize",
  "initialized",
  "tools_list",
  "tools_call",
  "auth_metadata",
  "sse_stream",
  "session_end",
  "robots",
  "claim_proof",
] as const;
export type ExchangePhase = (typeof EXCHANGE_PHASES)[number];

/** The server asked us to slow down (429, or 503 with Retry-After). */
export interface SlowDown {
  phase: ExchangePhase;
  status: number;
  /** Seconds from Retry-After (delta or HTTP date), when given and parseable; or from a -32023's
   * `data.retryAfterMs`, whichever asks for longer. */
  retryAfterSeconds?: number;
  /** The JSON-RPC code when the body said it (-32023, rate limited: draft SEP-3304). */
  code?: number;
  seq: number;
}

/** A parsed WWW-Authenticate challenge. */
export interface AuthChallenge {
  scheme: string;
  /** Lower-cased parameter names → values (unquoted, unescaped). */
  params: Record<string, string>;
  token68?: string;
}

/** A 401/403 whose WWW-Authenticate was present but is not a structurally valid challenge. */
export interface BrokenChallenge {
  phase: ExchangePhase;
  status: number;
  /** The header as received (joined, cut to 300 characters). */
  header: string;
  /** What the parser found wrong: "unterminated quoted string", … */
  problem: string;
  seq: number;
}

/** A 401/403 that carried a structurally valid challenge. */
export interface SeenChallenge {
  phase: ExchangePhase;
  status: number;
  challenges: AuthChallenge[];
  seq: number;
}

export type HandshakeOutcome = (
  | {
      kind: "modern";
      protocolVersion: string;
      supportedVersions: string[];
      serverInfo?: { name?: string; version?: string };
      /** The server's `instructions` string, read for the observations of architecture.md §2.9. */
      instructions?: string;
      seq: number;
    }
  | {
      kind: "legacy";
      /** The revision the server answered in its InitializeResult. */
      protocolVersion: string;
      /** True when that revision is one we speak. */
      common: boolean;
      serverInfo?: { name?: string; version?: string };
      /** The server's `instructions` string, read for the observations of architecture.md §2.9. */
      instructions?: string;
      sessionId?: string;
      /** One clause describing the discover answer that sent us to initialize. */
      fallbackCause: string;
      /** True when the fallback came from a modern session's tools/list rejection (architecture.md §2.1.9). */
      lateFallback?: boolean;
      seq: number;
    }
  | {
      /** 2024-11-05 HTTP+SSE transport session. */
      kind: "sse";
      protocolVersion: string;
      common: boolean;
      serverInfo?: { name?: string; version?: string };
      /** The server's `instructions` string, read for the observations of architecture.md §2.9. */
      instructions?: string;
      seq: number;
    }
  | {
      /** architecture.md §2.1.11: a discover result listing only revisions newer than the one the probe speaks. */
      kind: "discovered_newer";
      supportedVersions: string[];
      serverInfo?: { name?: string; version?: string };
      /** The server's `instructions` string, read for the observations of architecture.md §2.9. */
      instructions?: string;
      seq: number;
    }
  | {
      kind: "declined";
      code: number;
      message: string;
      status: number;
      seq: number;
      /** `error.data.supported` of a -32022, when it is a list of strings. */
      supported?: string[];
      /** Which request was declined (server/discover, or tools/list in a modern session). */
      method?: string;
    }
  | { kind: "slow_down"; slowDown: SlowDown }
  | { kind: "credential_gate"; challenge: SeenChallenge; fallbackCause?: string }
  | {
      kind: "refused_no_challenge";
      /** Which request was refused: initialize, or the SSE stream's GET. */
      phase: ExchangePhase;
      status: number;
      /** Present when the 401 carried a WWW-Authenticate that does not parse; `problem` says why. */
      header?: { value: string; problem: string };
      fallbackCause?: string;
      seq: number;
    }
  | { kind: "failed"; cause: string; fallbackCause?: string; seq?: number }
) & {
  /** Every exchange the decision rests on: discover, initialize, initialized, the SSE stream, a refused first tools/list page. */
  seqs?: number[];
};

export interface ToolDefinition {
  name?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  [key: string]: unknown;
}

export type ToolsListOutcome =
  | {
      kind: "complete";
      tools: ToolDefinition[];
      pages: number;
      /** Problems with tool definitions: "tool #3 has no name", "duplicate name \"x\"", … */
      malformed: string[];
      seqs: number[];
    }
  | { kind: "endless"; why: "page_cap" | "cursor_loop"; tools: ToolDefinition[]; pages: number; seqs: number[] }
  | {
      /**
       * architecture.md §2.2: the probe's own per-server deadline ran out after at least one page came back in time
       * and a cursor to a further page was pending: the probe's budget, not the server's fault.
       */
      kind: "budget_exhausted";
      tools: ToolDefinition[];
      pages: number;
      /** How long the page request cut by the deadline had been waiting; absent when none was in flight. */
      pendingMs?: number;
      seqs: number[];
    }
  | {
      kind: "credential_gate";
      challenge: SeenChallenge;
      /** The tools/list answer that led to the late fallback whose initialize met this gate (architecture.md §2.1.9). */
      after?: string;
      seqs?: number[];
    }
  | { kind: "slow_down"; slowDown: SlowDown }
  | {
      kind: "failed";
      cause: string;
      pages: number;
      seqs: number[];
      /** The late fallback that did not complete a legacy handshake (architecture.md §2.1.9); the modern handshake stands. */
      lateRetry?: HandshakeOutcome;
    }
  | { kind: "not_attempted"; why: string };

/** Why the reserved-tool call was withheld (architecture.md §2.3), for code that must not parse `why`. */
export type WithheldCause =
  | "slow_down"
  | "credential_gate"
  | "handshake"
  | "no_common_revision"
  | "tools_list_unread"
  | "pages_remain"
  | "reserved_name"
  | "deadline";

/** What a malformed refusal looks like, as a fact a count can rest on (the description stays free text). */
export type MalformedForm = "html" | "no_jsonrpc" | "empty" | "success" | "other";

export type ToolCallOutcome =
  | { kind: "withheld"; why: string; cause?: WithheldCause }
  | {
      kind: "answered";
      status: number;
      /** How the answer is shaped. */
      shape:
        | { type: "jsonrpc_error"; code: number; message: string; transport: "json" | "sse" }
        | { type: "pre_dispatch_refusal" }
        | { type: "is_error_result"; text?: string }
        | { type: "malformed"; description: string; form: MalformedForm };
      seq: number;
    }
  | { kind: "slow_down"; slowDown: SlowDown }
  | { kind: "failed"; cause: string; seq?: number };

export type AuthMetadataOutcome =
  | { kind: "no_challenge" }
  /** architecture.md §2.4 (0.12.0): a WWW-Authenticate was present but never structurally valid. */
  | { kind: "unparseable_challenge"; broken: BrokenChallenge }
  | { kind: "no_metadata_url"; challenge: SeenChallenge }
  | { kind: "opted_out_host"; url: string; host: string; reason: string; challenge: SeenChallenge }
  | { kind: "address_refused"; url: string; detail: string; challenge: SeenChallenge }
  | { kind: "invalid_url"; url: string; challenge: SeenChallenge }
  | { kind: "http_error"; url: string; status: number; seq: number; challenge: SeenChallenge }
  | { kind: "not_json"; url: string; seq: number; challenge: SeenChallenge }
  | { kind: "not_object"; url: string; jsonType: string; seq: number; challenge: SeenChallenge }
  | { kind: "unusable"; url: string; problems: MetadataProblem[]; seq: number; challenge: SeenChallenge }
  | { kind: "scope_mismatch"; url: string; missing: string[]; listed: string[]; seq: number; challenge: SeenChallenge }
  | { kind: "slow_down"; slowDown: SlowDown; challenge: SeenChallenge }
  | { kind: "failed"; url: string; cause: string; seq?: number; challenge: SeenChallenge }
  | {
      kind: "ok";
      url: string;
      resource: string;
      authorizationServers: string[];
      scopesSupported?: string[];
      seq: number;
      challenge: SeenChallenge;
    };

/** Why a JSON object is not usable protected-resource metadata (architecture.md §2.4, suite 0.12.0). */
export type MetadataProblem =
  | { kind: "no_resource" }
  /** `resource` is not a URL, or one that does not cover the server's URL (the official SDK client's rule). */
  | { kind: "resource_not_covering"; resource: string; why: "not_url" | "origin" | "path" }
  | { kind: "no_authorization_servers" };

/** Why nothing at all was sent to this server. */
export type Blocked =
  | { kind: "opted_out"; host: string; reason: string }
  | { kind: "address_policy"; host: string; detail: string }
  | { kind: "needs_config"; detail: string }
  | { kind: "invalid_url"; detail: string }
  /** architecture.md §2.7: the probe's own network was failing when this server was probed; what it sent proves nothing
   * about the server (the exchanges are kept as evidence). */
  | { kind: "probe_network"; detail: string };

/** The TLS certificate a server presented (architecture.md §2.8): a fact beside the checks, not a sixth check. */
export interface CertificateFacts {
  /** host:port it was presented for. */
  host: string;
  /** Subject common name. */
  subject?: string;
  /** Issuer organisation, else its common name. */
  issuer?: string;
  validFrom?: string;
  /** ISO time the certificate expires. */
  validTo?: string;
  /** Subject alternative names ("DNS:example.com", "IP Address:127.0.0.1"), at most 20. */
  altNames?: string[];
  /** Why the probe did not accept it (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, …); absent when accepted. */
  rejected?: string;
}

/** What one answer said, as facts a sentence can name (architecture.md §2.10): its HTTP status, the JSON-RPC error's code
 * and message, or a short noun phrase for a body that is neither ("an HTML page", "an empty result"). */
export interface AnswerFacts {
  status?: number;
  rpcCode?: number;
  /** The JSON-RPC error's message, cut to 160 characters. */
  message?: string;
  /** What the body was when it carried no JSON-RPC error; absent when `rpcCode` says it. */
  body?: string;
}

/** The requests an initialize-first client sends first, in order. */
export const CLIENT_METHODS = ["initialize", "notifications/initialized", "tools/list"] as const;
export type ClientMethod = (typeof CLIENT_METHODS)[number];

/**
 * architecture.md §2.10: after a modern handshake completed, the one legacy handshake an initialize-first client makes
 * (`initialize`, `notifications/initialized`, the first tools/list page), as an exchange group of its own. It moves no
 * check: the verdicts were decided before it.
 */
export interface InitializeFirstRead {
  outcome:
    | { kind: "read"; protocolVersion: string; tools: number; morePages: boolean }
    /** A valid InitializeResult naming a revision the 2025-era clients do not speak. */
    | { kind: "no_common_revision"; protocolVersion: string }
    | { kind: "refused"; method: ClientMethod; answer: AnswerFacts }
    | { kind: "credential_gate"; method: ClientMethod; status: number }
    | { kind: "slow_down"; method: ClientMethod; status: number }
    | { kind: "no_answer"; method: ClientMethod; cause: string }
    | { kind: "deadline"; method: ClientMethod };
  /** Every exchange of the group, the session's DELETE included when the server handed out a session. */
  seqs: number[];
}

/** Everything the probe saw of one server: input to the pure judges in lib/checks. */
export interface ProbeObservation {
  url: string;
  transport: Transport;
  startedAt: string;
  finishedAt: string;
  blocked?: Blocked;
  handshake?: HandshakeOutcome;
  toolsList?: ToolsListOutcome;
  toolCall?: ToolCallOutcome;
  authMetadata?: AuthMetadataOutcome;
  /** Set when any answer asked us to slow down; nothing was sent to the server after it. */
  slowDown?: SlowDown;
  /** True when the per-server deadline cut the probe short. */
  deadlineHit?: boolean;
  /** architecture.md §2.7: this is the second probe of a server whose first probe in the round failed at the network
   * level; the first probe's exchanges come first in `exchanges` (seq 1 to `firstSeqs`' last). */
  secondProbe?: { firstStartedAt: string; firstCause: string; afterMs: number; firstSeqs: number[] };
  era: Era;
  exchanges: Exchange[];
  /** The certificate of the server's own host, for https URLs that got as far as a TLS handshake. */
  certificate?: CertificateFacts;
  /**
   * architecture.md §2.8: after a handshake that failed on the listed transport the way the other transport's servers
   * fail it, the one look at that other transport: its exchanges, and whether the URL answered it (a remote
   * listed as sse that speaks Streamable HTTP, or the reverse).
   */
  transportCheck?: { transport: Transport; answered: boolean; seqs: number[] };
  /** architecture.md §2.10: the legacy handshake sent after a modern one, for initialize-first clients. */
  initializeFirst?: InitializeFirstRead;
  /** The target's `configHeaders`: the server was probed without these headers the registry lists (architecture.md §2.6). */
  configHeaders?: string[];
}

export interface ProbeTarget {
  url: string;
  transport: Transport;
  /**
   * architecture.md §2.6 (0.15.0): names of the headers the registry lists as needed for this remote (marked required, or
   * with a `{placeholder}` value). The probe never sends them, nor any value: they only name what was missing in the
   * verdict's reason. Hostile input: kept as the registry client capped and quoted them.
   */
  configHeaders?: string[];
}

export interface ProbeLimits {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Whole-probe deadline for one server. */
  deadlineMs: number;
  /** Decompressed bytes kept per answer. */
  maxBodyBytes: number;
  /** SSE events read per answer before giving up on finding the response. */
  maxSseEvents: number;
  /** tools/list pages read before calling pagination endless. */
  maxPages: number;
  /** Characters of a body kept in the evidence. */
  excerptChars: number;
}

export const DEFAULT_LIMITS: ProbeLimits = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 15_000,
  deadlineMs: 60_000,
  maxBodyBytes: 2 * 1024 * 1024,
  maxSseEvents: 1_000,
  maxPages: 50,
  excerptChars: 2_000,
};
