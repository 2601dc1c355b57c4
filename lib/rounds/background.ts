import { Cron } from "croner";
import { getDb } from "../../db/client";
import type { Config } from "../config";
import { startDemo } from "../demo/start";
import { probeUserAgent } from "../probe";
import { makeAllDue } from "../store/servers";
import { startRoundAfterReprobes } from "./reprobe";
import { startRound, type RoundDeps } from "./round";

// Process-wide (globalThis, shared across Next's bundles) so instrumentation starts the scheduler once.
const BACKGROUND_KEY = Symbol.for("mcp-status.rounds.background");
const g = globalThis as Record<symbol, unknown>;

/** Round dependencies from the process configuration: the one wiring used by the route, the scheduler and the CLI.
 * `extra.registryUrl` replaces config.registryUrl (the demo passes its built-in registry). */
export function roundDepsFromConfig(config: Config, extra: Partial<RoundDeps> = {}): RoundDeps {
  return {
    db: getDb(config),
    registryUrl: config.registryUrl,
    concurrency: config.probeConcurrency,
    hostConcurrency: config.probeHostConcurrency,
    allowPrivateNetworks: config.allowPrivateNetworks,
    ...(config.publicBaseUrl ? { userAgent: probeUserAgent(config.publicBaseUrl) } : {}),
    ...extra,
  };
}

export interface Background {
  scheduler: Cron | null;
  stop(): void;
}

/** Starts what runs inside `next start` besides requests: the embedded round scheduler (PROBE_SCHEDULE; empty
 * disables it). Idempotent per process. The demo's built-in registry and fleet hook in here too. */
export async function startBackground(config: Config, log: (line: string) => void = console.log): Promise<Background> {
  const existing = g[BACKGROUND_KEY] as Background | undefined;
  if (existing) return existing;
  // Rounds started elsewhere in a demo (the API route, the CLI) probe the fleet the demo start listed.
  const registryUrl = config.demo ? await startDemoRound(config, log) : config.registryUrl;
  const deps = () => roundDepsFromConfig(config, { trigger: "scheduler", log, registryUrl });
  let scheduler: Cron | null = null;
  if (config.probeSchedule) {
    scheduler = new Cron(config.probeSchedule, { protect: true, catch: true, unref: true }, async () => {
      const r = await startRoundAfterReprobes(deps());
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
  const background: Background = {
    scheduler,
    stop() {
      scheduler?.stop();
      g[BACKGROUND_KEY] = undefined;
    },
  };
  g[BACKGROUND_KEY] = background;
  return background;
}

/** The demo: built-in registry and fleet on loopback, then a first round at once (not at the first cron tick),
 * re-reading the registry because the fleet's ports are new on every start. Returns the registry's URL. */
async function startDemoRound(config: Config, log: (line: string) => void): Promise<string> {
  const db = getDb(config);
  const fleet = await startDemo(db, log);
  const registryUrl = fleet.registry.url;
  makeAllDue(db, new Date().toISOString(), "demo start");
  const r = startRound(roundDepsFromConfig(config, { trigger: "demo-start", log, registryMaxAgeMs: 0, registryUrl }));
  if (!r.started) log(`[demo] first round not started: ${r.reason}`);
  else void r.done.then((s) => log(`[demo] first round ${s.status}: ${s.probed} servers probed; pages now show their verdicts`));
  return registryUrl;
}
