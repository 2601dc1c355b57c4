// What a round does with one due server (architecture.md §3): skip it when it must get no request (no address: a URL
// variable without a default; an invalid URL, an opt-out, robots.txt), else hand it to the round's probe step, then judge
// what came back. The step is the one seam for where a probe runs; this file decides only whether and how.
import { judge } from "../checks";
import { probeServer, unprobedObservation, type ProbeOptions, type SharedConnections } from "../probe";
import type { AddressPolicy } from "../probe/address-policy";
import { DEFAULT_LIMITS, type Blocked, type ProbeObservation, type ProbeTarget } from "../probe/types";
import type { DueServer } from "../store/servers/round";
import { configHeadersOf, urlVariablesOf } from "../store/servers/registry";
import type { UrlVariables } from "../probe/protocol";
import type { OptOutSource } from "../vocabulary/store";
import type { RoundHostGate } from "./host-gate";
import type { PersistInput } from "./persist";
import { robotsDisallows, ROBOTS_DISALLOW_REASON, type RobotsBook } from "./robots";
import { probeAsOwner, wantsOwnerView, type OwnerStep } from "./owners/view";

/**
 * The probe step: one server the round decided to probe, with the options it built for it (address policy,
 * host gate, kept-open connections, limits), to an observation. Like `probeServer`, it never throws for anything
 * a server does. `probeInProcess` runs lib/probe here. A step that judges what it probed itself returns a
 * `JudgedProbe` instead (architecture.md §8: the regions' quorum).
 */
export type ProbeStep = (server: DueServer, target: ProbeTarget, options: ProbeOptions) => Promise<ProbeObservation | JudgedProbe>;

/** What a step hands back when it has judged the probe itself (architecture.md §8: the quorum decides the checks'
 * states and reasons, and the other regions' reads are written beside the verdict). */
export interface JudgedProbe {
  judged: Pick<PersistInput, "obs" | "results" | "skipped" | "regional">;
}

export const probeInProcess = (_server: DueServer, target: ProbeTarget, options: ProbeOptions): Promise<ProbeObservation> =>
  probeServer(target, options);

/** Requests one probe sends, about (the initialize-first client's three after a modern handshake included, architecture.md
 * §2.10): a Crawl-delay lengthens the probe's deadline by this many gaps. */
export const REQUESTS_PER_PROBE = 11;

/** What every server of one round shares. */
export interface ServerContext {
  roundId: number;
  now: () => Date;
  policy: AddressPolicy;
  isOptedOut: (host: string) => string | null;
  /** null when the round does not consult robots.txt (RoundDeps.robots false). */
  robots: RobotsBook | null;
  gate: RoundHostGate;
  /** Kept open between the round's probes, so servers on one host share warm connections. */
  connections: SharedConnections;
  probe: ProbeStep;
  limits?: ProbeOptions["limits"];
  userAgent?: string;
  /** architecture.md §11: the owner's view, probed after an anonymous read that ended at the key or the gate; absent
   * without SECRETS_KEY. */
  owners?: OwnerStep;
}

/** Probes one server (or decides not to) and judges it: what persist writes for it. */
export async function serverRun(ctx: ServerContext, server: DueServer): Promise<PersistInput> {
  const { now, robots } = ctx;
  // Suite 0.15.0: a server that needs configuration through its headers alone is probed without them (never sent).
  const configHeaders = server.needsConfig ? configHeadersOf(server.configHeaders ?? null) : null;
  const listed: ProbeTarget = {
    url: server.remoteUrl ?? "",
    transport: server.transport ?? "streamable-http",
    ...(configHeaders ? { configHeaders } : {}),
  };
  const skip = (blocked: Blocked, optOutSource?: OptOutSource): PersistInput => {
    const obs = unprobedObservation(listed, blocked, now());
    return { serverId: server.id, roundId: ctx.roundId, obs, results: judge(obs), skipped: true, optOutSource, now: now() };
  };

  if (server.needsConfig && !configHeaders) {
    const run = skip({ kind: "needs_config", detail: server.needsConfig });
    // architecture.md §11: the public run stays "no address"; an owner's URL variables give the owner's view one.
    const vars = ctx.owners ? urlVariablesOf(server.urlVariables) : null;
    if (ctx.owners && vars) {
      const owner = await ownerBehindVariables(ctx, ctx.owners, server, vars, listed.transport);
      if (owner) run.owner = owner;
    }
    return run;
  }
  let url: URL;
  try {
    url = new URL(server.remoteUrl ?? "");
  } catch {
    return skip({ kind: "invalid_url", detail: `the listed URL ${JSON.stringify(server.remoteUrl)} is not a valid URL` });
  }
  const operator = ctx.isOptedOut(url.host);
  if (operator) return skip({ kind: "opted_out", host: url.host, reason: operator }, "operator");
  if (robots && (await robotsForbid(robots, url))) {
    return skip({ kind: "opted_out", host: url.host, reason: ROBOTS_DISALLOW_REASON }, "robots");
  }

  const options = probeOptions(ctx, url);
  const probed = await ctx.probe(server, { ...listed, url: url.toString() }, options);
  const run: PersistInput =
    "judged" in probed
      ? { serverId: server.id, roundId: ctx.roundId, ...probed.judged, now: now() }
      : { serverId: server.id, roundId: ctx.roundId, obs: probed, results: judge(probed), skipped: false, now: now() };
  if (ctx.owners && wantsOwnerView(run.obs)) {
    const owner = await probeAsOwner(ctx.owners, server, { url: url.toString(), transport: listed.transport }, options, ctx.roundId, now);
    if (owner) run.owner = owner;
  }
  return run;
}

/** What a probe of `url` is given: the round's address policy, opt-outs, robots.txt, host gate, connections and limits. */
function probeOptions(ctx: ServerContext, url: URL): ProbeOptions {
  const { now, robots } = ctx;
  const crawlDelayMs = ctx.gate.crawlDelayMs(url.host);
  const deadlineMs = ctx.limits?.deadlineMs ?? DEFAULT_LIMITS.deadlineMs;
  return {
    addressPolicy: ctx.policy,
    isOptedOut: ctx.isOptedOut,
    // A metadata host's robots.txt is read (and cached) like a server host's before anything is fetched there.
    ...(robots ? { robotsOptOut: async (u: string) => ((await robotsForbid(robots, new URL(u))) ? ROBOTS_DISALLOW_REASON : null) } : {}),
    hostGate: ctx.gate,
    connections: ctx.connections,
    // Waiting out a Crawl-delay is our pacing, not the server's slowness.
    limits: { ...ctx.limits, deadlineMs: deadlineMs + REQUESTS_PER_PROBE * crawlDelayMs },
    ...(ctx.userAgent ? { userAgent: ctx.userAgent } : {}),
    now: () => now(),
  };
}

/** The owner's view of a server with no address without URL variables: probeAsOwner fills the template, keeps to the
 * claimed origin, and probes only when the filled URL's host is not opted out and robots.txt allows its path. */
async function ownerBehindVariables(
  ctx: ServerContext,
  owners: OwnerStep,
  server: DueServer,
  vars: UrlVariables,
  transport: ProbeTarget["transport"],
): Promise<PersistInput["owner"] | null> {
  let base: URL;
  try {
    base = new URL(vars.template);
  } catch {
    return null;
  }
  const robots = ctx.robots;
  const allowed = async (filled: URL) => !ctx.isOptedOut(filled.host) && !(robots && (await robotsForbid(robots, filled)));
  return probeAsOwner(owners, server, { url: vars.template, transport }, probeOptions(ctx, base), ctx.roundId, ctx.now, {
    urlVariables: vars,
    allowed,
  });
}

/** robots.txt says our token may not fetch the URL; the file is read at most once a day per host. */
async function robotsForbid(robots: RobotsBook, url: URL): Promise<boolean> {
  return robotsDisallows(url.toString(), await robots.rowFor(url));
}
