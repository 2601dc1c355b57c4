import { Cron } from "croner";
import { getDb } from "../../db/client";
import type { Config } from "../config";
import { startRound, type RoundDeps } from "./round";

// Process-wide (globalThis, shared across Next's bundles): the registry a demo fleet serves replaces
// config.registryUrl for every round in this process: route, scheduler and CLI alike.
const REGISTRY_KEY = Symbol.for("mcp-status.rounds.registryUrl");
const BACKGROUND_KEY = Symbol.for("mcp-status.rounds.background");
const g = globalThis as Record<symbol, unknown>;

export function setRoundRegistryUrl(url: string | undefined): void {
  g[REGISTRY_KEY] = url;
}

/** Round dependencies from the process configuration: the one wiring used by the route, the scheduler and the CLI. */
export function roundDepsFromConfig(config: Config, extra: Partial<RoundDeps> = {}): RoundDeps {
  return {
    db: getDb(config),
    registryUrl: (g[REGISTRY_KEY] as string | undefined) ?? config.registryUrl,
    concurrency: config.probeConcurrency,
    allowPrivateNetworks: config.allowPrivateNetworks,
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
  // Demo hook: when config.demo is true, start the built-in registry + fleet here and call
  // setRoundRegistryUrl(fleet.registry.url) before the first round (the lead wires this in).
  const deps = () => roundDepsFromConfig(config, { trigger: "scheduler", log });
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
