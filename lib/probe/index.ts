// One MCP server over HTTP → a ProbeObservation (architecture.md §2, §5): handshake with one fallback, the tool
// list, the reserved-tool call, the auth metadata follow. No db, no env: everything comes in as options.
import { SUITE_VERSION } from "./protocol";
import type { AddressPolicy } from "./address-policy";
import { followAuthMetadata } from "./auth";
import { callReservedTool } from "./call";
import { ProbeContext } from "./context";
import { discover, legacyInitialize, sseInitialize, sseOpenFailed } from "./handshake";
import { needsInitializeFirstRead, readAsInitializeFirst } from "./initialize-first";
import { StreamableChannel } from "./rpc";
import { listsReservedName, readTools, type ReadToolsOptions, type RpcCaller } from "./tools";
import type { HostGate } from "./host-gate";
import type { TrustAnchors } from "./transport/certificates";
import type { SharedConnections } from "./transport/connections";
import type { DnsLookup } from "./transport/dns";
import { HttpSession } from "./transport/http";
import { LegacySseChannel } from "./transport/legacy-sse";
import {
  DEFAULT_LIMITS,
  type Blocked,
  type Exchange,
  type HandshakeOutcome,
  type ProbeLimits,
  type ProbeObservation,
  type ProbeTarget,
  type SeenChallenge,
  type ToolCallOutcome,
  type ToolsListOutcome,
  type WithheldCause,
} from "./types";

type Withheld = Extract<ToolCallOutcome, { kind: "withheld" }>;

export { createAddressPolicy, type AddressPolicy, type AddressPolicyOptions } from "./address-policy";
export { parseWwwAuthenticate } from "./www-authenticate";
export { parseRetryAfter, type HostGate } from "./host-gate";
export { answerFacts, exchangeFacts } from "./initialize-first";
export type { TrustAnchors } from "./transport/certificates";
export { SharedConnections } from "./transport/connections";
export type { DnsLookup } from "./transport/dns";
export * from "./types";
export { redactObservation, redactValues } from "./redact";

/** The probe's User-Agent: names the site and links the page on how to opt out; a region's agent also names its region
 * (architecture.md §8), so an operator reading logs sees where a probe came from. */
export function probeUserAgent(siteBaseUrl = "https://mcp-status.dev", region?: string): string {
  const where = region ? `; region ${region}` : "";
  return `mcp-status-probe/${SUITE_VERSION} (+${siteBaseUrl.replace(/\/+$/, "")}/faq/opting-out${where})`;
}
export const DEFAULT_USER_AGENT = probeUserAgent();

export interface ProbeOptions {
  /** From createAddressPolicy({ allowPrivate }). */
  addressPolicy: AddressPolicy;
  /** The reason a host asked not to be probed, or null. */
  isOptedOut?: (host: string) => string | null;
  /** Why robots.txt forbids our user agent a URL on another host (the auth metadata's), or null; rounds pass
   * one backed by their robots cache. Called before anything but robots.txt is fetched from that host. */
  robotsOptOut?: (url: string) => Promise<string | null>;
  limits?: Partial<ProbeLimits>;
  userAgent?: string;
  /** Rounds pass one to keep one request at a time per host. */
  hostGate?: HostGate;
  now?: () => Date;
  /** DNS resolution (every address of a name); the system resolver by default. */
  dnsLookup?: DnsLookup;
  /** Rounds pass their kept-open connections, so probes of servers on one host reuse them. */
  connections?: SharedConnections;
  /**
   * Trust anchors that replace the system's roots for this probe's own connections: for tests' certificates
   * only (shared connections bring their own). Deliberately an option, never read from the environment.
   */
  ca?: TrustAnchors;
  /** Start with legacy `initialize` and never send server/discover, as a 2025-era client does: how an operator
   * sees the legacy path of a server that speaks both eras (`npm run probe -- --legacy`). Rounds never set it. */
  legacyOnly?: boolean;
  /** architecture.md §11: the owner's header values, sent only to the target's own origin and recorded as ‹redacted›. The
   * caller redacts the observation before storing it (`redactObservation`), since a server may echo a value back. */
  ownerHeaders?: Record<string, string>;
}

/** The clause a legacy-only probe's handshake reason starts with, where a fallback would name its cause. */
export const LEGACY_ONLY_CAUSE = "server/discover was not sent (the probe was asked to speak only the legacy era)";

/** A handshake after which tools/list may be sent. */
function sessionOpen(hs: HandshakeOutcome): boolean {
  return hs.kind === "modern" || ((hs.kind === "legacy" || hs.kind === "sse") && hs.common);
}

function notAttemptedWhy(hs: HandshakeOutcome, ctx: ProbeContext): string {
  if (ctx.slowDown) return "the server asked to slow down";
  if (ctx.deadline.aborted) return "the probe's deadline ran out";
  switch (hs.kind) {
    case "credential_gate":
      return "credential required";
    case "legacy":
    case "sse":
    case "discovered_newer":
      return "no common protocol revision was agreed";
    default:
      return "the handshake did not complete";
  }
}

/** architecture.md §2.3: when the reserved-tool call must not be made, and why. */
function withholdReason(hs: HandshakeOutcome, tl: ToolsListOutcome | undefined, ctx: ProbeContext): Withheld | null {
  const w = (cause: WithheldCause, why: string): Withheld => ({ kind: "withheld", why, cause });
  if (ctx.slowDown) return w("slow_down", "the server asked to slow down");
  if (hs.kind === "credential_gate") return w("credential_gate", "a credential gate stopped the handshake");
  if (!sessionOpen(hs)) {
    return hs.kind === "legacy" || hs.kind === "sse" || hs.kind === "discovered_newer"
      ? w("no_common_revision", "no common protocol revision was agreed")
      : w("handshake", "the handshake failed");
  }
  if (!tl) return w("tools_list_unread", "the tool list could not be read");
  switch (tl.kind) {
    case "credential_gate":
      return w(
        "credential_gate",
        tl.challenge.phase === "tools_list"
          ? "a credential gate stopped the tool list"
          : "a credential gate stopped the retry for the tool list",
      );
    case "endless":
      return w(
        "pages_remain",
        tl.why === "cursor_loop" ? "the tool list's cursor repeated, so pages remain unread" : "pages of the tool list remain unread",
      );
    case "budget_exhausted":
      return w("pages_remain", "the probe's deadline ran out with pages of the tool list still unread");
    case "failed":
      return w(
        "tools_list_unread",
        tl.lateRetry ? "the tool list could not be read, even after the one retry with initialize" : "the tool list could not be read",
      );
    case "complete":
      if (listsReservedName(tl.tools))
        return w("reserved_name", "the tool list contains the reserved name, so the call could run a real tool");
      break;
    default:
      return w("tools_list_unread", "the tool list could not be read");
  }
  if (ctx.deadline.aborted) return w("deadline", "the probe's deadline ran out before the call");
  return null;
}

/** tools/list to the end, then the reserved call unless withheld; or the late-fallback signal. */
async function toolsAndCall(
  ctx: ProbeContext,
  obs: ProbeObservation,
  rpc: RpcCaller,
  hs: HandshakeOutcome,
  opts: ReadToolsOptions,
): Promise<{ lateFallback: string; seq: number } | null> {
  const step = await readTools(ctx, rpc, opts);
  if ("lateFallback" in step) return step;
  obs.toolsList = step.outcome;
  obs.toolCall = withholdReason(hs, obs.toolsList, ctx) ?? (await callReservedTool(ctx, rpc));
  return null;
}

/** Runs the Streamable HTTP steps; returns what ends the session, to be sent after everything else. */
async function runStreamable(ctx: ProbeContext, obs: ProbeObservation, url: string, legacyOnly: boolean): Promise<() => Promise<void>> {
  const ch = new StreamableChannel(ctx.http, url, ctx.limits.excerptChars);
  const first = legacyOnly ? { fallback: LEGACY_ONLY_CAUSE, seqs: [] } : await discover(ctx, ch);
  let hs = "decided" in first ? first.decided : await legacyInitialize(ctx, ch, first.fallback, first.seqs);
  obs.handshake = hs;
  if (sessionOpen(hs) && !ctx.stopped) {
    // "" is a cursor only in 2026-07-28; the late fallback is open only if no fallback happened yet.
    const modern = hs.kind === "modern";
    const late = await toolsAndCall(ctx, obs, ch, hs, { emptyCursorContinues: modern, mayFallBack: modern });
    if (late && hs.kind === "modern") {
      // architecture.md §2.1.9: advertised 2026-07-28, then refused it; the probe's one fallback.
      const cause = `server/discover listed 2026-07-28, but ${late.lateFallback}`;
      const retry = await legacyInitialize(ctx, ch, cause, [...(hs.seqs ?? [hs.seq]), late.seq], true);
      if (sessionOpen(retry)) {
        hs = retry;
        obs.handshake = hs;
        if (!ctx.stopped) await toolsAndCall(ctx, obs, ch, hs, { emptyCursorContinues: false, mayFallBack: false });
      } else {
        // A failed retry never erases the modern handshake that completed: the tool list carries it.
        obs.toolsList = lateRetryFailed(retry, late);
      }
    }
  }
  finishSteps(ctx, obs, hs);
  return async () => {
    if (!ctx.stopped) await ch.endSession();
  };
}

/** The tool list after a late fallback that did not open a legacy session. */
function lateRetryFailed(retry: HandshakeOutcome, late: { lateFallback: string; seq: number }): ToolsListOutcome {
  const seqs = [late.seq, ...(retry.seqs ?? []).filter((q) => q > late.seq)];
  if (retry.kind === "slow_down") return { kind: "slow_down", slowDown: retry.slowDown };
  if (retry.kind === "credential_gate") return { kind: "credential_gate", challenge: retry.challenge, after: late.lateFallback, seqs };
  return { kind: "failed", cause: late.lateFallback, pages: 0, seqs, lateRetry: retry };
}

async function runSse(ctx: ProbeContext, obs: ProbeObservation, url: string): Promise<() => Promise<void>> {
  const open = await LegacySseChannel.open(ctx.http, url, ctx.limits);
  if (!open.ok) {
    obs.handshake = sseOpenFailed(ctx, open.answer, open.cause);
    finishSteps(ctx, obs, obs.handshake);
    return async () => undefined;
  }
  const ch = open.channel;
  try {
    const hs = await sseInitialize(ctx, ch, ch.streamSeq);
    obs.handshake = hs;
    if (sessionOpen(hs) && !ctx.stopped) await toolsAndCall(ctx, obs, ch, hs, { emptyCursorContinues: false, mayFallBack: false });
    finishSteps(ctx, obs, hs);
  } finally {
    // The stream is the session; closing it now keeps it from outliving the steps that need it.
    ch.close();
  }
  return async () => undefined;
}

/** SSE GET refusals a Streamable HTTP server gives (no GET stream, no session, not acceptable); a 200 that is
 * not an event stream counts too. */
const SSE_GET_MISSES = new Set([400, 404, 405, 406]);
/** How a 2024-11-05 HTTP+SSE server answers a POST to its stream URL. */
const POST_MISSES = new Set([404, 405]);

/**
 * architecture.md §2.8: a handshake that failed on the listed transport in the way the other transport's servers
 * fail it gets one look at whether the URL speaks that other transport. Its exchanges are evidence for the
 * hint only: the verdicts were decided before it.
 */
async function checkOtherTransport(ctx: ProbeContext, obs: ProbeObservation, url: string): Promise<void> {
  const hs = obs.handshake;
  if (hs?.kind !== "failed" || ctx.stopped) return;
  const decided = (hs.seqs ?? []).map((q) => obs.exchanges.find((x) => x.seq === q));
  const statuses = decided.map((x) => x?.status);
  const mark = obs.exchanges.length;
  const since = () => obs.exchanges.slice(mark).map((x) => x.seq);
  if (obs.transport === "sse") {
    const get = decided.length === 1 ? decided[0] : undefined;
    const notAStream = get?.status === 200 && !(get.responseHeaders["content-type"] ?? "").toLowerCase().startsWith("text/event-stream");
    if (get?.status === undefined || !(SSE_GET_MISSES.has(get.status) || notAStream)) return;
    const ch = new StreamableChannel(ctx.http, url, ctx.limits.excerptChars);
    const first = await discover(ctx, ch);
    let speaks =
      "decided" in first &&
      (first.decided.kind === "modern" || first.decided.kind === "declined" || first.decided.kind === "discovered_newer");
    if (!speaks && "fallback" in first && !ctx.stopped) {
      speaks = (await legacyInitialize(ctx, ch, first.fallback, first.seqs)).kind === "legacy";
      if (!ctx.stopped) await ch.endSession();
    }
    obs.transportCheck = { transport: "streamable-http", answered: speaks, seqs: since() };
    return;
  }
  if (statuses.length === 0 || !statuses.every((s) => s !== undefined && POST_MISSES.has(s))) return;
  const open = await LegacySseChannel.open(ctx.http, url, {
    ...ctx.limits,
    headersTimeoutMs: Math.min(ctx.limits.headersTimeoutMs, 5_000),
  });
  if (open.ok) open.channel.close();
  obs.transportCheck = { transport: "sse", answered: open.ok, seqs: since() };
}

/** Fills what the run did not reach, so every later step says why it was not taken. */
function finishSteps(ctx: ProbeContext, obs: ProbeObservation, hs: HandshakeOutcome): void {
  if (!obs.toolsList) obs.toolsList = { kind: "not_attempted", why: notAttemptedWhy(hs, ctx) };
  obs.toolCall ??= withholdReason(hs, obs.toolsList, ctx) ?? { kind: "withheld", why: notAttemptedWhy(hs, ctx), cause: "handshake" };
}

/** The challenge auth_metadata reads: the credential gate's, else the first one seen (architecture.md §2.4). */
function sourceChallenge(obs: ProbeObservation, ctx: ProbeContext): SeenChallenge | undefined {
  if (obs.handshake?.kind === "credential_gate") return obs.handshake.challenge;
  if (obs.toolsList?.kind === "credential_gate") return obs.toolsList.challenge;
  return ctx.challenges[0];
}

/** A metadata host's opt-out: the operator's list first, then its robots.txt (architecture.md §2.4). */
async function metadataOptOut(opts: ProbeOptions, url: URL): Promise<string | null> {
  return opts.isOptedOut?.(url.hostname) ?? (await opts.robotsOptOut?.(url.toString())) ?? null;
}

function raceDeadline<T>(p: Promise<T>, signal: AbortSignal): Promise<T | "deadline"> {
  if (signal.aborted) return Promise.resolve("deadline");
  return Promise.race([
    p,
    new Promise<"deadline">((resolve) => signal.addEventListener("abort", () => resolve("deadline"), { once: true })),
  ]);
}

/** The observation of a server that got no request at all on purpose (needs an address, an opt-out, an invalid URL):
 * what a round records for it without calling the probe. */
export function unprobedObservation(target: ProbeTarget, blocked: Blocked, at: Date): ProbeObservation {
  const iso = at.toISOString();
  return {
    url: target.url,
    transport: target.transport,
    startedAt: iso,
    finishedAt: iso,
    blocked,
    era: "unknown",
    exchanges: [],
    ...(target.configHeaders?.length ? { configHeaders: target.configHeaders } : {}),
  };
}

/**
 * Probes one MCP server the way a careful client would and returns everything it saw. Never throws for
 * anything the server does: every behaviour becomes an outcome that lib/checks can judge.
 */
export async function probeServer(target: ProbeTarget, opts: ProbeOptions): Promise<ProbeObservation> {
  const now = opts.now ?? (() => new Date());
  const limits: ProbeLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const exchanges: Exchange[] = [];
  const startedAt = now().toISOString();
  const obs: ProbeObservation = {
    url: target.url,
    transport: target.transport,
    startedAt,
    finishedAt: startedAt,
    era: "unknown",
    exchanges,
    ...(target.configHeaders?.length ? { configHeaders: target.configHeaders } : {}),
  };
  const done = (): ProbeObservation => {
    obs.finishedAt = now().toISOString();
    return obs;
  };

  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    obs.blocked = { kind: "invalid_url", detail: `${JSON.stringify(target.url)} is not a URL` };
    return done();
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    obs.blocked = { kind: "invalid_url", detail: `${url.protocol} URLs cannot be probed; only http and https` };
    return done();
  }
  if (url.username || url.password) {
    obs.blocked = { kind: "invalid_url", detail: "the URL carries credentials, and the probe sends none" };
    return done();
  }
  const optedOut = opts.isOptedOut?.(url.hostname) ?? null;
  if (optedOut !== null) {
    obs.blocked = { kind: "opted_out", host: url.hostname, reason: optedOut };
    return done();
  }

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("deadline")), limits.deadlineMs);
  const http = new HttpSession({
    policy: opts.addressPolicy,
    limits,
    userAgent: opts.userAgent ?? DEFAULT_USER_AGENT,
    hostGate: opts.hostGate,
    deadline: controller.signal,
    exchanges,
    ...(opts.dnsLookup ? { dnsLookup: opts.dnsLookup } : {}),
    ...(opts.connections ? { shared: opts.connections } : {}),
    ...(opts.ca ? { ca: opts.ca } : {}),
    ...(opts.ownerHeaders ? { ownerHeaders: { origin: url.origin, headers: opts.ownerHeaders } } : {}),
  });
  const ctx = new ProbeContext(http, limits, now, controller.signal);
  try {
    const refused = await raceDeadline(http.checkHost(url.hostname), controller.signal);
    if (refused === "deadline") {
      obs.handshake = { kind: "failed", cause: `DNS lookup for ${url.hostname} outlasted the probe's ${limits.deadlineMs} ms deadline` };
      finishSteps(ctx, obs, obs.handshake);
    } else if (refused !== null) {
      obs.blocked = { kind: "address_policy", host: url.hostname, detail: refused };
      return done();
    } else {
      const endSession =
        target.transport === "sse"
          ? await runSse(ctx, obs, url.toString())
          : await runStreamable(ctx, obs, url.toString(), opts.legacyOnly ?? false);
      const source = sourceChallenge(obs, ctx);
      if (source && !ctx.stopped) obs.authMetadata = await followAuthMetadata(ctx, source, url, (u) => metadataOptOut(opts, u));
      else if (!source && ctx.brokenChallenges[0]) obs.authMetadata = { kind: "unparseable_challenge", broken: ctx.brokenChallenges[0] };
      else if (!source && !ctx.slowDown) obs.authMetadata = { kind: "no_challenge" };
      await endSession();
      // After everything the checks rest on, so its answers change none of them (architecture.md §2.8, §2.10).
      await checkOtherTransport(ctx, obs, url.toString());
      if (needsInitializeFirstRead(obs) && !ctx.stopped) obs.initializeFirst = await readAsInitializeFirst(ctx, url.toString());
    }
  } catch (err) {
    // Our own bug, not server behaviour; keep the observation honest rather than throwing into a round.
    const why = err instanceof Error ? err.message : String(err);
    obs.handshake ??= { kind: "failed", cause: `the probe itself failed (${why})` };
    finishSteps(ctx, obs, obs.handshake);
  } finally {
    clearTimeout(timer);
    const certificate = http.certificateFor(url);
    if (certificate) obs.certificate = certificate;
    await http.close();
  }
  if (ctx.slowDown) obs.slowDown = ctx.slowDown;
  if (controller.signal.aborted) obs.deadlineHit = true;
  const hs = obs.handshake;
  obs.era =
    hs?.kind === "modern" || hs?.kind === "discovered_newer"
      ? "modern"
      : hs?.kind === "legacy" || hs?.kind === "sse"
        ? "legacy"
        : "unknown";
  return done();
}
