// Runs our probe and the judges against one zoo server and collects what the assertions need.
import { createAddressPolicy, probeServer, unprobedObservation, type ProbeTarget } from "@/lib/probe";
import { analyseRemote, chooseRemote } from "@/lib/registry/remotes";
import { judge, observationsOf, observationSentence } from "@/lib/checks";
import { REFUSAL_STATES } from "@/lib/checks/refusal";
import type { CheckResult } from "@/lib/checks/types";
import { CHECK_IDS, DISCOVERY_CHECKS, type CheckId, type CheckState } from "@/lib/vocabulary/checks";
import type { Exchange, ProbeLimits, ProbeObservation } from "@/lib/probe/types";
import { parseWwwAuthenticate } from "@/lib/probe/www-authenticate";
import { startZooServer, ZOO_ALSO_ACCEPTABLE, ZOO_EXPECTATIONS, type RunningZooServer } from "@/lib/demo/zoo";
import { hintSentence } from "@/lib/checks/hints";
import type { DnsLookup } from "@/lib/probe";
import { testCertificates } from "../../fixtures/tls";
import { ZOO_CAUSES } from "@/lib/demo/zoo/causes";
import { clientsReport, judgeClients } from "@/lib/checks/clients";

export const HOSTILE_LIMITS: Partial<ProbeLimits> = { deadlineMs: 3_000, maxBodyBytes: 1024 * 1024 };
export const ORDINARY_LIMITS: Partial<ProbeLimits> = { deadlineMs: 15_000 };

export interface ZooRun {
  name: string;
  server: RunningZooServer;
  obs: ProbeObservation;
  results: CheckResult[];
  elapsedMs: number;
}

/** Loopback only: the private-metadata case must be refused by policy, never connected. */
export const LOOPBACK_ONLY = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });

export function protocolVersionOf(obs: ProbeObservation): string | undefined {
  const h = obs.handshake;
  return h && (h.kind === "modern" || h.kind === "legacy" || h.kind === "sse") ? h.protocolVersion : undefined;
}

/** A lookup that fails the way a resolver does: ENOTFOUND (the name does not exist) or EAI_AGAIN (no answer). */
const failingLookup =
  (code: string): DnsLookup =>
  async (host) => {
    throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });
  };

/** Where the probe is pointed, and what it trusts, for cases that need a TLS listener or a broken network. */
async function arrange(name: string): Promise<{ server: RunningZooServer; url: string; ca?: string; dnsLookup?: DnsLookup }> {
  const exp = ZOO_EXPECTATIONS[name]!;
  const certs = exp.tls && exp.tls !== "plain_http" ? await testCertificates() : undefined;
  const server = await startZooServer(name, certs && exp.tls && exp.tls !== "plain_http" ? { tls: certs.leaf[exp.tls] } : {});
  let url = server.url;
  if (exp.tls === "plain_http") url = url.replace(/^http:/, "https:");
  if (exp.network === "refused") await server.close();
  if (exp.network === "nxdomain" || exp.network === "dns_unavailable") {
    url = url.replace("127.0.0.1", "mcp.zoo.test");
    return { server, url, dnsLookup: failingLookup(exp.network === "nxdomain" ? "ENOTFOUND" : "EAI_AGAIN") };
  }
  // Only the test's CA is trusted, never the system's roots: passed as an option, not through the environment.
  return { server, url, ...(certs || exp.tls ? { ca: (certs ?? (await testCertificates())).ca } : {}) };
}

/** The remote a round would probe for the case (architecture.md §2.6): as the registry lists it when the case says how,
 * else its URL as is. A remote with no address gets no probe: the round's own unprobed observation. */
function listedTarget(name: string, url: string): ProbeTarget | { blocked: ProbeObservation } {
  const exp = ZOO_EXPECTATIONS[name]!;
  const transport = exp.transport ?? "streamable-http";
  if (!exp.registry) return { url, transport };
  const analysed = analyseRemote({ type: transport, ...exp.registry(url) }, [], 0);
  const choice = analysed ? chooseRemote([analysed]) : null;
  if (!choice) throw new Error(`${name}: the registry remote cannot be read`);
  const target: ProbeTarget = { url: choice.url, transport: choice.transport, configHeaders: choice.configHeaders };
  if (choice.noAddress) return { blocked: unprobedObservation(target, { kind: "needs_config", detail: choice.needsConfig! }, new Date()) };
  return target;
}

/** Header names a case's registry remote lists, in lower case: no request may carry one (architecture.md §2.6). */
export function listedHeaderNames(name: string): string[] {
  const remote = ZOO_EXPECTATIONS[name]!.registry?.("http://127.0.0.1/mcp");
  const headers = Array.isArray(remote?.headers) ? (remote.headers as { name?: unknown }[]) : [];
  return headers.map((h) => (typeof h.name === "string" ? h.name.toLowerCase() : "")).filter(Boolean);
}

export async function runZooCase(name: string): Promise<ZooRun> {
  const exp = ZOO_EXPECTATIONS[name];
  if (!exp) throw new Error(`no expectation for ${name}`);
  const { server, url, ca, dnsLookup } = await arrange(name);
  try {
    const optedOutHost =
      exp.optOut === "server" ? new URL(server.origin).hostname : exp.optOut === "metadata" ? server.other?.host : undefined;
    const isOptedOut = (host: string) =>
      optedOutHost !== undefined && (host === optedOutHost || host.startsWith(`${optedOutHost}:`))
        ? "the operator asked us not to probe this host"
        : null;
    const started = Date.now();
    const listed = listedTarget(name, url);
    if ("blocked" in listed) return { name, server, obs: listed.blocked, results: judge(listed.blocked), elapsedMs: 0 };
    const obs = await probeServer(listed, {
      addressPolicy: LOOPBACK_ONLY,
      isOptedOut,
      limits: { ...(exp.hostile ? HOSTILE_LIMITS : ORDINARY_LIMITS), ...exp.limits },
      ...(ca ? { ca } : {}),
      ...(dnsLookup ? { dnsLookup } : {}),
    });
    const elapsedMs = Date.now() - started;
    return { name, server, obs, results: judge(obs), elapsedMs };
  } finally {
    await server.close();
  }
}

export function statesOf(results: readonly CheckResult[]): Record<CheckId, CheckState | undefined> {
  return Object.fromEntries(CHECK_IDS.map((id) => [id, results.find((r) => r.check === id)?.state])) as Record<
    CheckId,
    CheckState | undefined
  >;
}

/** Expected states, with the alternatives the rules leave open folded in when the actual state is one of them. */
export function expectedStatesFor(name: string, actual: Record<CheckId, CheckState | undefined>): Record<CheckId, CheckState> {
  const exp = ZOO_EXPECTATIONS[name]!;
  const alt = ZOO_ALSO_ACCEPTABLE[name] ?? {};
  return Object.fromEntries(
    CHECK_IDS.map((id) => {
      const a = actual[id];
      return [id, a && alt[id]?.includes(a) ? a : exp.states[id]];
    }),
  ) as Record<CheckId, CheckState>;
}

/** Why a reason is not one clean sentence, or null. Quoted server text may hold its own full stops. */
export function reasonProblem(reason: string): string | null {
  if (!reason.trim()) return "empty";
  if (/[\r\n]/.test(reason)) return "spans several lines";
  if (/\bat [\w.<>$]+ \(?[^()\s]+:\d+:\d+\)?/.test(reason) || /node_modules\//.test(reason)) return "holds a stack trace";
  if (reason.length > 600) return `is ${reason.length} characters long`;
  const unquoted = reason.replace(/"[^"]*"|“[^”]*”|`[^`]*`/g, '""');
  if (unquoted.split(/(?<=[.!?])\s+(?=[A-Z])/).length > 1) return "holds several sentences";
  return null;
}

/** Headers the probe must never send, and more than one request at a time (architecture.md §2.5, protocol.md §6). */
export function politenessProblem(run: ZooRun): string | null {
  // After an initialize, the requests are the initialize-first client's legacy session (architecture.md §2.10).
  let legacySession = false;
  for (const r of [...run.server.log, ...(run.server.other?.log ?? [])]) {
    if (r.jsonrpcMethod === "initialize") legacySession = true;
    const what = `${r.method} ${r.path}${r.jsonrpcMethod ? ` (${r.jsonrpcMethod})` : ""}`;
    if (r.headers.authorization) return `${what} carried Authorization`;
    for (const h of listedHeaderNames(run.name)) if (r.headers[h] !== undefined) return `${what} carried ${h}, which the registry listed`;
    if (r.headers.origin) return `${what} carried Origin`;
    if (!r.headers["user-agent"]) return `${what} had no User-Agent`;
    if (r.jsonrpcMethod === "initialize" && r.headers["mcp-protocol-version"])
      return `${what} carried MCP-Protocol-Version before a revision was agreed`;
    if (run.obs.era === "modern" && !legacySession && r.headers["mcp-session-id"])
      return `${what} carried Mcp-Session-Id in a 2026-07-28 session`;
  }
  if (run.server.concurrency.peak > 1) return `${run.server.concurrency.peak} requests were in flight at once`;
  return null;
}

/** The stored refusal code must say what the judge decided: the census counts codes, the pages show states. */
export function refusalCodeProblem(run: ZooRun): string | null {
  const r = run.results.find((x) => x.check === "error_taxonomy");
  if (!r?.code) return "error_taxonomy carries no refusal code";
  return REFUSAL_STATES[r.code] === r.state
    ? null
    : `refusal code ${r.code} belongs to ${REFUSAL_STATES[r.code]}, but the judge said ${r.state}`;
}

/**
 * architecture.md §2.10 on every case: the initialize-first read moves no check (the verdicts judged without it are the
 * same), a `no` names the answer, every reason is one sentence; and the cases that name their clients get exactly those.
 */
export function clientsProblem(run: ZooRun): string | null {
  const group = new Set(run.obs.initializeFirst?.seqs ?? []);
  const without = { ...run.obs, initializeFirst: undefined, exchanges: run.obs.exchanges.filter((x) => !group.has(x.seq)) };
  const plain = judge(without).map((r) => `${r.check}=${r.state}: ${r.reason}`);
  const withRead = run.results.map((r) => `${r.check}=${r.state}: ${r.reason}`);
  if (JSON.stringify(plain) !== JSON.stringify(withRead)) return `the initialize-first read moved a check: ${withRead.join(" | ")}`;
  if (run.obs.initializeFirst && run.obs.era !== "modern") return "an initialize-first read after a handshake that was not modern";
  const report = clientsReport(judgeClients(run.obs));
  for (const kind of ["initializeFirst", "discoverFirst"] as const) {
    const { state, reason } = report[kind];
    const problem = reasonProblem(reason);
    if (problem) return `${kind}: ${problem} ("${reason}")`;
    if (state === "no" && !/HTTP \d{3}|-\d{5}|revision|no answer/.test(reason)) return `${kind} is no without naming the answer: ${reason}`;
  }
  const want = ZOO_EXPECTATIONS[run.name]?.clients;
  if (!want) return null;
  if (report.initializeFirst.state !== want.initializeFirst || report.discoverFirst.state !== want.discoverFirst) {
    return `clients ${JSON.stringify(report)}, expected ${want.initializeFirst}/${want.discoverFirst}`;
  }
  for (const fragment of want.includes ?? []) {
    if (!report.initializeFirst.reason.toLowerCase().includes(fragment))
      return `initializeFirst reason lacks "${fragment}": ${report.initializeFirst.reason}`;
  }
  return null;
}

/** Every Not checked names its kind and nothing else carries one; a no-fallback rule sits only on a Failed
 * discovery check; and the cases whose kind is the point store exactly the expected one (lib/demo/zoo/causes.ts). */
export function causeProblem(run: ZooRun): string | null {
  for (const r of run.results) {
    if (r.state === "not_checked" && !r.notCheckedCause) return `${r.check} is Not checked without a kind`;
    if (r.state !== "not_checked" && r.notCheckedCause) return `${r.check} is ${r.state} but carries the kind ${r.notCheckedCause}`;
    if (r.noFallback && (r.state !== "failed" || !(DISCOVERY_CHECKS as readonly string[]).includes(r.check)))
      return `${r.check} (${r.state}) carries a no-fallback rule`;
  }
  const want = ZOO_CAUSES[run.name];
  for (const [check, cause] of Object.entries(want?.causes ?? {})) {
    const got = run.results.find((r) => r.check === check)?.notCheckedCause;
    if (got !== cause) return `${check}: kind ${got ?? "none"}, expected ${cause}`;
  }
  const nf = run.results.find((r) => r.noFallback)?.noFallback;
  if (want?.noFallback && JSON.stringify(nf) !== JSON.stringify(want.noFallback)) {
    return `no-fallback ${JSON.stringify(nf)}, expected ${JSON.stringify(want.noFallback)}`;
  }
  if (!want?.noFallback && nf && !run.name.startsWith("declined") && !/^discover-(5\d\d|only-newer)|hostile-redirect/.test(run.name)) {
    return `an unexpected no-fallback rule ${JSON.stringify(nf)}`;
  }
  return null;
}

// --- reasons against evidence (issue 9 item 8) --------------------------------------------------

const CITED_METHODS = ["server/discover", "initialize", "tools/list", "tools/call", "notifications/initialized"] as const;

function rpcMethodOf(x: Exchange): string | undefined {
  try {
    const m = (JSON.parse(x.requestBody ?? "") as { method?: unknown }).method;
    return typeof m === "string" ? m : undefined;
  } catch {
    return undefined;
  }
}

function answerText(x: Exchange): string {
  return `${x.bodyExcerpt ?? ""}\n${x.sseAnswer ?? ""}`;
}

/**
 * Claims a reason makes that the recorded exchanges can confirm or refute mechanically: statuses cited,
 * methods said to have answered, header presence, pages counted, revisions named. Returns the first
 * claim the evidence contradicts, or null.
 */
export function claimProblem(reason: string, exchanges: readonly Exchange[]): string | null {
  const statuses = new Set(exchanges.map((x) => x.status).filter((s): s is number => s !== undefined));
  for (const m of reason.matchAll(/HTTP (\d{3})/g)) {
    if (!statuses.has(Number(m[1]))) return `cites HTTP ${m[1]}, but no exchange has that status`;
  }
  const sent = (method: string) => exchanges.filter((x) => rpcMethodOf(x) === method);
  for (const method of CITED_METHODS) {
    const esc = method.replace("/", "\\/");
    const acted = new RegExp(
      `(?:^|[\\s(;:])${esc}(?: page \\d+)?(?: in the 2026-07-28 session)? (answered|got|was refused|was declined)`,
      "i",
    );
    if (acted.test(reason) && sent(method).length === 0) return `says ${method} answered, but it was never sent`;
    const noAnswer = new RegExp(`${esc}(?: page \\d+)? got no answer`, "i");
    if (noAnswer.test(reason) && sent(method).length && sent(method).every((x) => x.status !== undefined)) {
      return `says ${method} got no answer, but every ${method} exchange has a status`;
    }
    const withStatus = new RegExp(`${esc}(?: page \\d+)?(?: in the 2026-07-28 session)? (?:answered|was refused with) HTTP (\\d{3})`, "gi");
    for (const m of reason.matchAll(withStatus)) {
      if (!sent(method).some((x) => x.status === Number(m[1])))
        return `says ${method} answered HTTP ${m[1]}, but no ${method} exchange has that status`;
    }
  }
  const refusals = exchanges.filter((x) => x.status === 401 || x.status === 403);
  const withHeader = refusals.filter((x) => x.responseHeaders["www-authenticate"] !== undefined);
  if (
    /no WWW-Authenticate (?:header|challenge)/i.test(reason) &&
    refusals.every((x) => x.responseHeaders["www-authenticate"] !== undefined)
  ) {
    return "says no WWW-Authenticate, but every 401/403 carried one";
  }
  if (/no credential challenge was presented/i.test(reason) && withHeader.length) {
    return `says no challenge was presented, but exchange ${withHeader[0]!.seq} carried WWW-Authenticate`;
  }
  if (
    /present but not a valid challenge/i.test(reason) &&
    !withHeader.some((x) => !parseWwwAuthenticate(x.responseHeaders["www-authenticate"]!).ok)
  ) {
    return "says a challenge did not parse, but none of the headers fails to parse";
  }
  if (
    /with (?:a|an) \w+ challenge|with [\w, ]+ and \w+ challenges/i.test(reason) &&
    !withHeader.some((x) => parseWwwAuthenticate(x.responseHeaders["www-authenticate"]!).ok)
  ) {
    return "cites a challenge, but no 401/403 carried a valid one";
  }
  if (/fell back to initialize|the one retry/i.test(reason) && sent("initialize").length === 0)
    return "says the probe fell back, but no initialize was sent";
  const pages = reason.match(/(?:over|after) (\d+) pages?\b|(\d+) pages? \(/i);
  if (pages) {
    const n = Number(pages[1] ?? pages[2]);
    const answered = sent("tools/list").filter((x) => x.status !== undefined && x.status >= 200 && x.status < 300).length;
    if (answered < n) return `counts ${n} pages, but only ${answered} tools/list answers were 2xx`;
  }
  const retryAfter = reason.match(/Retry-After (\d+) s/);
  if (retryAfter && !exchanges.some((x) => x.responseHeaders["retry-after"] !== undefined))
    return "cites Retry-After, but no answer carried one";
  for (const m of reason.matchAll(/(?:answered with|offered only|offered|initialize answered with) ((?:\d{4}-\d{2}-\d{2}(?:, )?)+)/g)) {
    for (const v of m[1]!.split(", ").filter(Boolean)) {
      if (!exchanges.some((x) => answerText(x).includes(v))) return `names ${v} as offered, but no answer holds it`;
    }
  }
  const agreed = reason.match(/(\d{4}-\d{2}-\d{2}) agreed/);
  if (agreed && !exchanges.some((x) => answerText(x).includes(agreed[1]!))) return `says ${agreed[1]} was agreed, but no answer names it`;
  if (/the probe speaks/i.test(reason)) {
    const offered = reason.match(/offered (\d{4}-\d{2}-\d{2})/)?.[1];
    if (offered && reason.slice(reason.indexOf("the probe speaks")).includes(offered))
      return `says the server offered ${offered} and that the probe speaks it`;
  }
  return null;
}

/** The first reason of a run that contradicts the exchanges, with its check, or null. */
export function contradiction(run: ZooRun): string | null {
  for (const r of run.results) {
    for (const seq of r.evidence) if (!run.obs.exchanges.some((x) => x.seq === seq)) return `${r.check}: evidence ${seq} does not exist`;
    const why = claimProblem(r.reason, run.obs.exchanges);
    if (why) return `${r.check}: "${r.reason}" ${why}`;
  }
  return null;
}

/** architecture.md §2.9: the tool list carries exactly the observation codes the case names (none where it names none),
 * each worded as one sentence; observations never change a state (the states above are checked as usual). */
export function observationProblem(run: ZooRun): string | null {
  const want = [...(ZOO_EXPECTATIONS[run.name]!.observations ?? [])].sort();
  const found = observationsOf(run.obs);
  const got = [...new Set(found.map((o) => o.code))].sort();
  if (JSON.stringify(got) !== JSON.stringify(want)) return `observations ${got.join(",") || "none"}, expected ${want.join(",") || "none"}`;
  for (const o of found) {
    const text = observationSentence(o);
    if (/malicious|\bsafe\b|score|rug pull/i.test(text)) return `observation "${text}" uses a verdict word`;
  }
  return null;
}

/** architecture.md §2.8: each check carries exactly the hint the case names (none where it names none), as one sentence
 * holding the expected facts. */
export function hintProblem(run: ZooRun): string | null {
  const exp = ZOO_EXPECTATIONS[run.name]!;
  for (const r of run.results) {
    const want = exp.hints?.[r.check];
    if (r.hint?.code !== want) return `${r.check}: hint ${r.hint?.code ?? "none"}, expected ${want ?? "none"}`;
    if (!r.hint) continue;
    const refusal = r.state === "not_checked" && r.notCheckedCause === "needs_configuration";
    if (r.state !== "failed" && r.state !== "observed_risk" && !refusal) return `${r.check}: a hint on a ${r.state} check`;
    const text = hintSentence(r.hint);
    const bad = reasonProblem(text);
    if (bad) return `${r.check}: hint "${text}" ${bad}`;
    const fragment = exp.hintIncludes?.[r.check];
    if (fragment && !text.toLowerCase().includes(fragment)) return `${r.check}: hint "${text}" lacks "${fragment}"`;
  }
  return null;
}
