import { Cron } from "croner";
import { getDb } from "../../db/client";
import type { Config } from "../config";
import { startDemo } from "../demo/start";
import { startAlertClock, type AlertClock } from "../alerts/clock";
import { evaluateAlerts } from "../alerts/evaluate";
import { createAddressPolicy, DEFAULT_USER_AGENT, probeUserAgent } from "../probe";
import { makeAllDue } from "../store/write";
import type { HostGate } from "../probe/transport/http";
import { createHostGate } from "./host-gate";
import { startRound, type RoundDeps } from "./round";

// Process-wide (globalThis, shared across Next's bundles): the registry a demo fleet serves replaces
// config.registryUrl for every round in this process: route, scheduler and CLI alike.
const REGISTRY_KEY = Symbol.for("mcp-status.rounds.registryUrl");
const BACKGROUND_KEY = Symbol.for("mcp-status.rounds.background");
const GATE_KEY = Symbol.for("mcp-status.rounds.hostGate");
const g = globalThis as Record<symbol, unknown>;

export function setRoundRegistryUrl(url: string | undefined): void {
  g[REGISTRY_KEY] = url;
}

/** Round dependencies from the process configuration: the one wiring used by the route, the scheduler and the CLI. */
/** One host gate per process: rounds (route, scheduler) and the cross-reader queue on it together. */
function processHostGate(): HostGate {
  return ((g[GATE_KEY] as HostGate | undefined) ??= createHostGate());
}

export function roundDepsFromConfig(config: Config, extra: Partial<RoundDeps> = {}): RoundDeps {
  const db = getDb(config);
  return {
    db,
    hostGate: processHostGate(),
    registryUrl: (g[REGISTRY_KEY] as string | undefined) ?? config.registryUrl,
    concurrency: config.probeConcurrency,
    allowPrivateNetworks: config.allowPrivateNetworks,
    ...(config.publicBaseUrl ? { userAgent: probeUserAgent(config.publicBaseUrl) } : {}),
    // Alerts are judged as soon as a round ends (rounds_stale resolves at once); the site's clock delivers them.
    onFinished: () => {
      const clock = (g[BACKGROUND_KEY] as Background | undefined)?.alerts;
      if (clock) void clock.tick();
      else evaluateAlerts(db, new Date(), { staleMinutes: config.alertStaleMinutes, log: extra.log });
    },
    ...extra,
  };
}

/** The alert clock's wiring from the process configuration. */
export function alertClockFromConfig(config: Config, log: (line: string) => void, intervalMs?: number): AlertClock {
  return startAlertClock(
    {
      db: getDb(config),
      staleMinutes: config.alertStaleMinutes,
      webhookUrl: config.alertWebhookUrl,
      siteUrl: config.publicBaseUrl,
      crossRead:
        config.crossReadSample > 0
          ? {
              sample: config.crossReadSample,
              policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
              userAgent: config.publicBaseUrl ? probeUserAgent(config.publicBaseUrl) : DEFAULT_USER_AGENT,
              hostGate: processHostGate(),
            }
          : null,
      log,
    },
    intervalMs,
  );
}

export interface Background {
  scheduler: Cron | null;
  alerts: AlertClock;
  stop(): void;
}

/** Starts what runs inside `next start` besides requests: the embedded round scheduler (PROBE_SCHEDULE; empty
 * disables it) and the alert clock (always). Idempotent per process. The demo's built-in registry and fleet hook in here too. */
export async function startBackground(config: Config, log: (line: string) => void = console.log): Promise<Background> {
  const existing = g[BACKGROUND_KEY] as Background | undefined;
  if (existing) return existing;
  const deps = () => roundDepsFromConfig(config, { trigger: "scheduler", log });
  if (config.demo) await startDemoRound(config, log);
  let scheduler: Cron | null = null;
  if (config.probeSchedule) {
    scheduler = new Cron(config.probeSchedule, { protect: true, catch: true, unref: true }, () => {
      const r = startRound(deps());
      if (!r.started) {
        log(`[scheduler] skipped: ${r.reason}`);
        return;
      }
      return r.done.then(() => undefined);
    });
    log(`[scheduler] rounds on "${config.probeSchedule}", next at ${scheduler.nextRun()?.toISOString() ?? "never"}`);
  } else {
    log("[scheduler] PROBE_SCHEDULE is empty: embedded scheduler off");
  }
  // The alert clock runs whatever PROBE_SCHEDULE says: rounds may come from an outside cron, or not at all.
  const alerts = alertClockFromConfig(config, log);
  log(`[alerts] clock started: rounds_stale after ${config.alertStaleMinutes} min, webhook ${config.alertWebhookUrl ? "on" : "off"}, cross-read sample ${config.crossReadSample}`);
  const background: Background = {
    scheduler,
    alerts,
    stop() {
      scheduler?.stop();
      alerts.stop();
      g[BACKGROUND_KEY] = undefined;
    },
  };
  g[BACKGROUND_KEY] = background;
  return background;
}

/** The demo: built-in registry and fleet on loopback, then a first round at once (not at the first cron tick),
 * re-reading the registry because the fleet's ports are new on every start. */
async function startDemoRound(config: Config, log: (line: string) => void): Promise<void> {
  const db = getDb(config);
  const fleet = await startDemo(db, log);
  setRoundRegistryUrl(fleet.registry.url);
  makeAllDue(db, new Date().toISOString(), "demo start");
  const r = startRound(roundDepsFromConfig(config, { trigger: "demo-start", log, registryMaxAgeMs: 0 }));
  if (!r.started) {
    log(`[demo] first round not started: ${r.reason}`);
    return;
  }
  void r.done.then((s) => log(`[demo] first round ${s.status}: ${s.probed} servers probed; pages now show their verdicts`));
}
