// architecture.md §2.10 (suite 0.15.0): which kinds of client can connect, judged from one observation. Pure, like the
// judges; it moves no check. The verdict is stored as codes and facts; `clientReason` words it for the JSON and the CLI,
// lib/site/clients.ts for the pages in both languages.
import { exchangeFacts } from "../probe/initialize-first";
import { MODERN_REVISION } from "../probe/protocol";
import type { AnswerFacts, Blocked, ClientMethod, Exchange, HandshakeOutcome, ProbeObservation, ToolsListOutcome } from "../probe/types";
import type { ClientKind, ClientReasonCode, DiscoverFirstState, InitializeFirstState } from "../vocabulary/clients";

/** The request a verdict names: one of the initialize-first client's three, server/discover, or the SSE stream's GET. */
export type ClientFactMethod = ClientMethod | "server/discover" | "sse_stream";

export interface ClientFacts extends AnswerFacts {
  method?: ClientFactMethod;
  /** The revision agreed (a read) or offered (no common revision; several joined with ", "). */
  revision?: string;
  /** Tools on the first page read. */
  tools?: number;
  /** Why nothing was sent (`not_probed`). */
  blocked?: Blocked["kind"];
}

export interface ClientVerdict<S extends string> {
  state: S;
  code: ClientReasonCode;
  facts: ClientFacts;
}

export interface ClientsVerdict {
  initializeFirst: ClientVerdict<InitializeFirstState>;
  discoverFirst: ClientVerdict<DiscoverFirstState>;
}

/** `clients` as the JSON API, /mcp and the CLI give it (architecture.md §4). */
export interface ClientsReport {
  initializeFirst: { state: InitializeFirstState; reason: string };
  discoverFirst: { state: DiscoverFirstState; reason: string };
}

type Verdict = ClientVerdict<InitializeFirstState>;
const v = (state: InitializeFirstState, code: ClientReasonCode, facts: ClientFacts = {}): Verdict => ({ state, code, facts });

function exchangeOf(obs: ProbeObservation, seq: number | undefined): Exchange | undefined {
  return seq === undefined ? undefined : obs.exchanges.find((x) => x.seq === seq);
}

function methodOf(x: Exchange | undefined): ClientFactMethod {
  switch (x?.phase) {
    case "discover":
      return "server/discover";
    case "tools_list":
      return "tools/list";
    case "initialized":
      return "notifications/initialized";
    case "sse_stream":
      return "sse_stream";
    default:
      return "initialize";
  }
}

/** The exchange that decided a failure: refused (an HTTP answer), or not decidable (none, or the deadline). */
function fromExchange(obs: ProbeObservation, x: Exchange | undefined): Verdict {
  const method = methodOf(x);
  if (!x) return v("unknown", obs.deadlineHit ? "deadline" : "not_tried", { method });
  if (x.status === undefined) return v("unknown", obs.deadlineHit ? "deadline" : "no_answer", { method, body: x.error ?? "no answer" });
  return v("no", "refused", { method, ...exchangeFacts(x) });
}

/** An open session's first tools/list page, for either kind: read, refused, or not decidable. */
function fromToolsList(obs: ProbeObservation, tl: ToolsListOutcome | undefined, revision: string): Verdict {
  switch (tl?.kind) {
    case "complete":
    case "endless":
    case "budget_exhausted":
      return v("yes", "read", { method: "tools/list", revision, tools: tl.tools.length });
    case "failed":
      // A failure after the first page still let the client in; the tool list's own check says the rest.
      if (tl.pages > 0) return v("yes", "read", { method: "tools/list", revision });
      return fromExchange(obs, exchangeOf(obs, tl.seqs[0]));
    case "credential_gate":
      return v("unknown", "credential_required", { method: "tools/list", status: tl.challenge.status });
    case "slow_down":
      return v("unknown", "slow_down", { method: "tools/list", status: tl.slowDown.status });
    default:
      return v("unknown", obs.deadlineHit ? "deadline" : "not_tried", { method: "tools/list" });
  }
}

/** A legacy handshake of the probe's own (its fallback, a late fallback, or the 2024-11-05 transport). */
function fromLegacyHandshake(obs: ProbeObservation, hs: HandshakeOutcome, tl: ToolsListOutcome | undefined): Verdict {
  switch (hs.kind) {
    case "legacy":
    case "sse":
      if (!hs.common) return v("no", "no_common_revision", { method: "initialize", revision: hs.protocolVersion });
      return fromToolsList(obs, tl, hs.protocolVersion);
    case "credential_gate":
      return v("unknown", "credential_required", { method: methodOf(exchangeOf(obs, hs.challenge.seq)), status: hs.challenge.status });
    case "slow_down":
      return v("unknown", "slow_down", { method: methodOf(exchangeOf(obs, hs.slowDown.seq)), status: hs.slowDown.status });
    case "refused_no_challenge":
      return v("no", "refused", { method: methodOf(exchangeOf(obs, hs.seq)), status: hs.status });
    case "failed":
      return fromExchange(obs, exchangeOf(obs, hs.seq));
    default:
      return v("unknown", "not_tried");
  }
}

function blockedVerdict(b: Blocked): Verdict {
  return v("unknown", "not_probed", { blocked: b.kind });
}

/** Initialize-first clients: the extra read after a modern handshake, else the probe's own initialize, else unknown. */
export function judgeInitializeFirst(obs: ProbeObservation): ClientVerdict<InitializeFirstState> {
  if (obs.blocked) return blockedVerdict(obs.blocked);
  const hs = obs.handshake;
  if (!hs) return v("unknown", "not_probed");
  const read = obs.initializeFirst?.outcome;
  if (read) {
    switch (read.kind) {
      case "read":
        return v("yes", "read", { method: "tools/list", revision: read.protocolVersion, tools: read.tools });
      case "no_common_revision":
        return v("no", "no_common_revision", { method: "initialize", revision: read.protocolVersion });
      case "refused":
        return v("no", "refused", { method: read.method, ...read.answer });
      case "credential_gate":
        return v("unknown", "credential_required", { method: read.method, status: read.status });
      case "slow_down":
        return v("unknown", "slow_down", { method: read.method, status: read.status });
      case "no_answer":
        return v("unknown", "no_answer", { method: read.method, body: read.cause });
      case "deadline":
        return v("unknown", "deadline", { method: read.method });
    }
  }
  const tl = obs.toolsList;
  if (hs.kind === "legacy" || hs.kind === "sse") return fromLegacyHandshake(obs, hs, tl);
  if (hs.kind === "modern") {
    // A late fallback (architecture.md §2.1.9) already sent initialize; its answer is the initialize-first client's.
    if (tl?.kind === "failed" && tl.lateRetry) return fromLegacyHandshake(obs, tl.lateRetry, undefined);
    if (tl?.kind === "credential_gate" && tl.after !== undefined)
      return fromLegacyHandshake(obs, { kind: "credential_gate", challenge: tl.challenge }, tl);
    if (obs.slowDown) return v("unknown", "slow_down", { status: obs.slowDown.status });
    const first = tl?.kind === "failed" ? exchangeOf(obs, tl.seqs[0]) : undefined;
    // The modern tools/list got no answer at all, so the legacy one was not sent (lib/probe/initialize-first.ts).
    if (first && first.status === undefined) return fromExchange(obs, first);
    return v("unknown", obs.deadlineHit ? "deadline" : "not_tried");
  }
  // The probe's fallback: initialize decided the handshake, and it is what these clients send first.
  if ("fallbackCause" in hs && hs.fallbackCause !== undefined) return fromLegacyHandshake(obs, hs, tl);
  if (hs.kind === "slow_down") return v("unknown", "slow_down", { status: hs.slowDown.status });
  return v("unknown", obs.deadlineHit ? "deadline" : "not_tried", { method: "server/discover" });
}

const afterFallback = (x: Verdict): ClientVerdict<DiscoverFirstState> => (x.state === "yes" ? { ...x, state: "yes_after_fallback" } : x);

/** Discover-first clients connect as the probe does (architecture.md §2.1): its own handshake and first tools/list page decide. */
export function judgeDiscoverFirst(obs: ProbeObservation): ClientVerdict<DiscoverFirstState> {
  if (obs.blocked) return blockedVerdict(obs.blocked);
  const hs = obs.handshake;
  const tl = obs.toolsList;
  if (!hs) return v("unknown", "not_probed");
  switch (hs.kind) {
    case "modern":
      // A modern session whose tool list was refused, then retried with initialize that failed: the refusal decides.
      if (tl?.kind === "failed" && tl.lateRetry) return fromExchange(obs, exchangeOf(obs, tl.seqs[0]));
      return fromToolsList(obs, tl, MODERN_REVISION);
    case "legacy":
    case "sse":
      return afterFallback(fromLegacyHandshake(obs, hs, tl));
    case "discovered_newer":
      return v("no", "no_common_revision", { method: "server/discover", revision: hs.supportedVersions.join(", ") });
    case "declined":
      return v("no", "declined", {
        method: hs.method === "tools/list" ? "tools/list" : "server/discover",
        status: hs.status,
        rpcCode: hs.code,
        ...(hs.message ? { message: hs.message.slice(0, 160) } : {}),
      });
    default:
      return fromLegacyHandshake(obs, hs, tl);
  }
}

export function judgeClients(obs: ProbeObservation): ClientsVerdict {
  return { initializeFirst: judgeInitializeFirst(obs), discoverFirst: judgeDiscoverFirst(obs) };
}

/** The not-yet-probed verdict, for a server with no run. */
export const CLIENTS_NOT_PROBED: ClientsVerdict = {
  initializeFirst: { state: "unknown", code: "not_probed", facts: {} },
  discoverFirst: { state: "unknown", code: "not_probed", facts: {} },
};

// ---- words (English, for the JSON and the CLI) ------------------------------------------------

const METHOD_WORDS: Record<ClientFactMethod, string> = {
  initialize: "initialize",
  "notifications/initialized": "notifications/initialized",
  "tools/list": "the first tools/list page",
  "server/discover": "server/discover",
  sse_stream: "the SSE stream's GET",
};

/** "-32602 (HTTP 400: "Invalid params")", "HTTP 404 with an HTML page", "HTTP 405". */
export function answerWords(f: AnswerFacts): string {
  if (f.rpcCode !== undefined) {
    const status = f.status !== undefined ? `HTTP ${f.status}, ` : "";
    return `${f.rpcCode} (${status}${f.message ? `"${f.message}"` : "no message"})`;
  }
  if (f.status === undefined) return f.body ?? "no answer";
  return f.body ? `HTTP ${f.status} with ${f.body}` : `HTTP ${f.status}`;
}

const BLOCKED_WORDS: Record<Blocked["kind"], string> = {
  opted_out: "its host asked not to be probed",
  address_policy: "its address is private or loopback",
  needs_config: "it needs configuration first",
  invalid_url: "its listed URL is not valid",
  probe_network: "the probe's own network was failing",
};

/** One sentence for a kind of client's verdict (architecture.md §2.10: a `no` always names the answer). */
export function clientReason(kind: ClientKind, verdict: ClientVerdict<string>): string {
  const f = verdict.facts;
  const m = f.method ? METHOD_WORDS[f.method] : "the handshake";
  const sends = kind === "initializeFirst" ? "initialize" : "server/discover";
  switch (verdict.code) {
    case "read": {
      const via = verdict.state === "yes_after_fallback" ? "after one fallback to initialize, " : "";
      const tools = f.tools !== undefined ? `, and the first tools/list page listed ${f.tools} ${f.tools === 1 ? "tool" : "tools"}` : "";
      return `They connect: ${via}${f.revision ?? "a revision"} was agreed${tools}.`;
    }
    case "refused":
      return `They cannot connect: the server answers ${m} with ${answerWords(f)}.`;
    case "no_common_revision":
      return `They cannot connect: the server answers ${m} with revision ${f.revision ?? "unknown"}, which they do not speak.`;
    case "declined":
      return `They cannot connect: the server declines ${m} with ${answerWords(f)}, and the rules forbid falling back.`;
    case "credential_required":
      return `Not known: ${m} needs a credential (HTTP ${f.status ?? 401} with a challenge), and the probe sends none.`;
    case "slow_down":
      return `Not known: the server asked the probe to slow down${f.status !== undefined ? ` (HTTP ${f.status})` : ""} before it could tell.`;
    case "deadline":
      return "Not known: the probe's deadline ran out before it could tell.";
    case "no_answer":
      return `Not known: ${m} got no HTTP answer${f.body ? ` (${f.body})` : ""}.`;
    case "not_tried":
      return `Not known: the probe did not send ${sends}, because the handshake was decided before it.`;
    case "not_probed":
      return f.blocked
        ? `Not known: nothing was sent, because ${BLOCKED_WORDS[f.blocked]}.`
        : "Not known: the server has not been probed yet.";
  }
}

export function clientsReport(c: ClientsVerdict): ClientsReport {
  return {
    initializeFirst: { state: c.initializeFirst.state, reason: clientReason("initializeFirst", c.initializeFirst) },
    discoverFirst: { state: c.discoverFirst.state, reason: clientReason("discoverFirst", c.discoverFirst) },
  };
}
