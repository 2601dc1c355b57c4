import { Cron } from "croner";
import { getDb } from "../../db/client";
import { DatabaseUnwritable, unwritableCode } from "../../db/write-watch";
import type { Config } from "../config";
import { startDemo } from "../demo/start";
import { startAlertClock, type AlertClock } from "./alerts/clock";
import { evaluateAlerts } from "./alerts/evaluate";
import { createAddressPolicy, DEFAULT_USER_AGENT, probeUserAgent } from "../probe";
import { getRound } from "../store/rounds";
import { makeAllDue } from "../store/servers/round";
import { REPROBE_ROUND_TRIGGER } from "../vocabulary/store";
import { afterRound } from "./census";
import { startDemoChanges } from "./demo-changes";
import { createHostGate, type RoundHostGate } from "./host-gate";
import { startRoundAfterReprobes } from "./reprobe";
import { roundRegionsFrom, startRegionRecovery, type RegionRecovery } from "./regions";
import { startRound, type RoundDeps, type StartResult } from "./round";
import { createMailer } from "./notify/email";
import { startSender, type Sender } from "./notify/sender";
import { startClaimClock, type ClaimClock } from "./owners/clock";
import { createOwnerStep } from "./owners/view";
import { ownerDepsFromConfig, secretsKeysOf } from "./owners/wiring";

// Process-wide (globalThis, shared across Next's bundles) so instrumentation starts the scheduler once.
const BACKGROUND_KEY = Symbol.for("mcp-status.rounds.background");
const g = globalThis as Record<symbol, unknown>;

/** Round dependencies from the process configuration: the one wiring used by the route, the scheduler and the CLI.
 * `extra.registryUrl` replaces config.registryUrl (the demo passes its built-in registry). */
export function roundDepsFromConfig(config: Config, extra: Partial<RoundDeps> = {}): RoundDeps {
  const db = getDb(config);
  const regions = roundRegionsFrom(config);
  return {
    db,
    registryUrl: config.registryUrl,
    concurrency: config.probeConcurrency,
    hostConcurrency: config.probeHostConcurrency,
    allowPrivateNetworks: config.allowPrivateNetworks,
    ...(config.publicBaseUrl ? { userAgent: probeUserAgent(config.publicBaseUrl) } : {}),
    // architecture.md §8: with NATS_URL and PROBE_REGIONS the rounds probe through the regions.
    ...(regions ? { regions } : {}),
    // architecture.md §11: the owner's view, with SECRETS_KEY only.
    ...(config.owners.secretsKey ? { owners: createOwnerStep(db, secretsKeysOf(config)) } : {}),
    // Alerts are judged as soon as a round ends (rounds_stale resolves at once); the site's clock delivers them. A full round
    // that finished well is followed by the day's census (architecture.md §3): counted at once, before any other write.
    onFinished: (s) => {
      const clock = (g[BACKGROUND_KEY] as Background | undefined)?.alerts;
      if (clock) void clock.tick();
      else
        evaluateAlerts(db, new Date(), {
          staleMinutes: config.alertStaleMinutes,
          notifyFoldMs: config.notifications.foldMs,
          log: extra.log,
        });
      if (s.status === "done" && getRound(db, s.roundId)?.trigger !== REPROBE_ROUND_TRIGGER)
        void afterRound({
          db,
          now: extra.now ?? (() => new Date()),
          log: extra.log ?? console.log,
          roundId: s.roundId,
          openDataDir: config.openDataDir,
        });
    },
    ...extra,
  };
}

/** The sender of subscribers' messages from the process configuration (architecture.md §10). `siteUrl`: where the site answers,
 * for the links in messages, when PUBLIC_BASE_URL does not say. */
export function senderFromConfig(config: Config, options: { siteUrl: string; log: (line: string) => void }): Sender {
  const n = config.notifications;
  return startSender({
    db: getDb(config),
    policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
    mailer: n.smtpUrl ? createMailer(n.smtpUrl, n.mailFrom, new URL(config.publicBaseUrl ?? options.siteUrl).hostname) : null,
    siteUrl: config.publicBaseUrl ?? options.siteUrl,
    pollMs: n.pollMs,
    retryBaseMs: n.retryBaseMs,
    foldMs: n.foldMs,
    leaseMs: n.leaseMs,
    log: options.log,
  });
}

/** The alert clock's wiring from the process configuration. */
export function alertClockFromConfig(
  config: Config,
  options: { log: (line: string) => void; hostGate: RoundHostGate; intervalMs?: number },
): AlertClock {
  return startAlertClock(
    {
      db: getDb(config),
      staleMinutes: config.alertStaleMinutes,
      notifyFoldMs: config.notifications.foldMs,
      webhookUrl: config.alertWebhookUrl,
      siteUrl: config.publicBaseUrl,
      crossRead:
        config.crossReadSample > 0
          ? {
              sample: config.crossReadSample,
              policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
              userAgent: config.publicBaseUrl ? probeUserAgent(config.publicBaseUrl) : DEFAULT_USER_AGENT,
              hostGate: options.hostGate,
            }
          : null,
      log: options.log,
    },
    options.intervalMs,
  );
}

export interface Background {
  scheduler: Cron | null;
  alerts: AlertClock;
  /** The cross-reader's view of the site's host gate: one request at a time per host, paced together with every
   * round on the same database, in this process or another (architecture.md §2.5). */
  hostGate: RoundHostGate;
  /** architecture.md §8: asks down regions again on a clock of its own; null without regions. */
  recovery: RegionRecovery | null;
  /** architecture.md §11: the weekly re-check of owners' proofs, on a clock of its own; null without SECRETS_KEY. */
  claims: ClaimClock | null;
  stop(): void;
}

/** Starts what runs inside the site process (`npm start`) besides requests: the embedded round scheduler (PROBE_SCHEDULE; empty
 * disables it) and the alert clock (always). Idempotent per process. The demo's built-in registry and fleet hook in here too. */
export async function startBackground(
  config: Config,
  log: (line: string) => void = console.log,
  options: { sender?: { siteUrl: string } } = {},
): Promise<Background> {
  const existing = g[BACKGROUND_KEY] as Background | undefined;
  if (existing) return existing;
  const hostGate = createHostGate({ db: getDb(config), limitOf: () => 1 });
  // Rounds started elsewhere in a demo (the API route, the CLI) probe the fleet the demo start listed.
  const registryUrl = config.demo ? await startDemoRound(config, log) : config.registryUrl;
  const deps = () => roundDepsFromConfig(config, { trigger: "scheduler", log, registryUrl });
  let scheduler: Cron | null = null;
  if (config.probeSchedule) {
    scheduler = new Cron(config.probeSchedule, { protect: true, catch: true, unref: true }, async () => {
      let r: StartResult;
      try {
        r = await startRoundAfterReprobes(deps());
      } catch (e) {
        // architecture.md §6: no round starts while database_unwritable is open (or its lock could not be written).
        const code = unwritableCode(e);
        if (!code) throw e;
        log(
          `[scheduler] skipped: ${e instanceof DatabaseUnwritable ? e.message : `the database cannot be written (${code}: ${(e as Error).message})`}`,
        );
        return;
      }
      if (!r.started) {
        log(`[scheduler] skipped: ${r.reason}`);
        return;
      }
      await r.done;
    });
    log(`[scheduler] rounds on "${config.probeSchedule}", next at ${scheduler.nextRun()?.toISOString() ?? "never"}`);
  } else {
    log("[scheduler] PROBE_SCHEDULE is empty: embedded scheduler off");
  }
  // The alert clock runs whatever PROBE_SCHEDULE says: rounds may come from an outside cron, or not at all.
  const alerts = alertClockFromConfig(config, { log, hostGate });
  log(
    `[alerts] clock started: rounds_stale after ${config.alertStaleMinutes} min, webhook ${config.alertWebhookUrl ? "on" : "off"}, cross-read sample ${config.crossReadSample}`,
  );
  // architecture.md §8: a down region is asked again whether or not rounds run, so a replaced agent is seen.
  const regions = roundRegionsFrom(config);
  const recovery = regions ? startRegionRecovery({ db: getDb(config), config: regions, log }) : null;
  // Owners' proofs are fetched again whether or not rounds run here, through the same host gate as the cross-reader.
  const claims = config.owners.secretsKey
    ? startClaimClock({ ...ownerDepsFromConfig(config, { siteUrl: config.publicBaseUrl ?? "", log }), hostGate })
    : null;
  // Under `npm start` the front runs the sender in a process of its own (lib/cli/notifier.ts); alone (next start, next dev), here.
  const sender = options.sender ? senderFromConfig(config, { siteUrl: options.sender.siteUrl, log }) : null;
  const background: Background = {
    scheduler,
    alerts,
    hostGate,
    recovery,
    claims,
    stop() {
      scheduler?.stop();
      alerts.stop();
      recovery?.stop();
      claims?.stop();
      void sender?.stop();
      g[BACKGROUND_KEY] = undefined;
    },
  };
  g[BACKGROUND_KEY] = background;
  return background;
}

/** The demo: built-in registry and fleet on loopback, then a first round at once (not at the first cron tick),
 * re-reading every page of the registry because the fleet's ports are new on every start (an incremental read would
 * miss them: the entries' updatedAt does not change). Returns the registry's URL. */
async function startDemoRound(config: Config, log: (line: string) => void): Promise<string> {
  const db = getDb(config);
  const fleet = await startDemo(db, log);
  const registryUrl = fleet.registry.url;
  makeAllDue(db, new Date().toISOString(), "demo start");
  const r = startRound(
    roundDepsFromConfig(config, { trigger: "demo-start", log, registryMaxAgeMs: 0, registryFullReadMaxAgeMs: 0, registryUrl }),
  );
  if (!r.started) log(`[demo] first round not started: ${r.reason}`);
  else
    void r.done.then((s) => {
      log(`[demo] first round ${s.status}: ${s.probed} servers probed; pages now show their verdicts`);
      // Then the changing server's next steps: tool changes and an incident within the first minutes.
      startDemoChanges(() => roundDepsFromConfig(config, { trigger: "demo-start", log, registryUrl }), { log });
    });
  return registryUrl;
}
