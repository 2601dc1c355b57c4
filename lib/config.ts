import path from "node:path";
import { z } from "zod";

// The only module that reads process.env. Everything else receives these values as parameters.
const boolFlag = z
  .string()
  .optional()
  .transform((v) => v === "1" || v?.toLowerCase() === "true");

const EnvSchema = z.object({
  REGISTRY_URL: z.string().url().optional().or(z.literal("").transform(() => undefined)),
  DATABASE_PATH: z.string().optional(),
  CRON_SECRET: z.string().optional(),
  PROBE_SCHEDULE: z.string().optional(),
  PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(512).optional(),
  PROBE_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  PROBE_ALLOW_PRIVATE_NETWORKS: boolFlag,
  MCP_STATUS_DEMO: z.enum(["0", "1", "true", "false", ""]).optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  ALERT_WEBHOOK_URL: z.string().url().optional().or(z.literal("").transform(() => undefined)),
  ALERT_STALE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).optional(),
  CROSS_READ_SAMPLE: z.coerce.number().int().min(0).max(100_000).optional(),
  REPROBE_MIN_MINUTES: z.coerce.number().int().min(1).max(10_080).optional(),
  REPROBE_HOURLY_CAP: z.coerce.number().int().min(0).max(100_000).optional(),
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(16_384).optional(),
  METRICS_TOKEN: z.string().optional(),
});

export const OFFICIAL_REGISTRY_URL = "https://registry.modelcontextprotocol.io";
export const DEFAULT_SCHEDULE = "*/5 * * * *";

export interface Config {
  /** Registry to read; undefined in the demo, where the built-in fleet's registry is used. */
  registryUrl: string | undefined;
  /** True when no REGISTRY_URL is set (or MCP_STATUS_DEMO=1): serve the built-in demo fleet on loopback. */
  demo: boolean;
  databasePath: string;
  cronSecret: string | undefined;
  /** Cron expression for the embedded scheduler; null turns it off. */
  probeSchedule: string | null;
  probeConcurrency: number;
  /** Probes in flight at once to a host serving 50 or more registry servers (DESIGN §2.5). */
  probeHostConcurrency: number;
  allowPrivateNetworks: boolean;
  publicBaseUrl: string | undefined;
  /** Where alert openings and resolutions are POSTed (chat incoming-webhook style); undefined: nowhere. */
  alertWebhookUrl: string | undefined;
  /** rounds_stale opens when no round has finished for this many minutes. */
  alertStaleMinutes: number;
  /** Servers the cross-reader reads once a day; 0 turns it off. */
  crossReadSample: number;
  /** "Probe again now": one accepted request per server in this many minutes (REPROBE_MIN_MINUTES, default 15). */
  reprobeMinMinutes: number;
  /** "Probe again now": accepted requests per hour across all servers (REPROBE_HOURLY_CAP, default 60; 0 turns the form off). */
  reprobeHourlyCap: number;
  /** Bytes of finished answers `npm start` keeps in front of Next.js (PAGE_CACHE_MB, default 256; 0 turns it off). */
  pageCacheBytes: number;
  /** Bearer token for GET /metrics (Prometheus); undefined: the endpoint is off. */
  metricsToken: string | undefined;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  // Unset REGISTRY_URL means the built-in demo fleet, unless MCP_STATUS_DEMO=0 asks for the official registry.
  const demoFlag = e.MCP_STATUS_DEMO === "1" || e.MCP_STATUS_DEMO === "true" ? true : e.MCP_STATUS_DEMO === "0" || e.MCP_STATUS_DEMO === "false" ? false : undefined;
  const demo = demoFlag ?? !e.REGISTRY_URL;
  return {
    registryUrl: demo ? undefined : (e.REGISTRY_URL ?? OFFICIAL_REGISTRY_URL),
    demo,
    databasePath: path.resolve(e.DATABASE_PATH || path.join(/*turbopackIgnore: true*/ process.cwd(), "data", "mcp-status.db")),
    cronSecret: e.CRON_SECRET || undefined,
    probeSchedule: e.PROBE_SCHEDULE === undefined ? DEFAULT_SCHEDULE : e.PROBE_SCHEDULE.trim() || null,
    probeConcurrency: e.PROBE_CONCURRENCY ?? 16,
    probeHostConcurrency: e.PROBE_HOST_CONCURRENCY ?? 4,
    // The demo fleet lives on loopback, so the demo needs the private-network allowance.
    allowPrivateNetworks: e.PROBE_ALLOW_PRIVATE_NETWORKS || demo,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    alertWebhookUrl: e.ALERT_WEBHOOK_URL,
    alertStaleMinutes: e.ALERT_STALE_MINUTES ?? 120,
    crossReadSample: e.CROSS_READ_SAMPLE ?? 200,
    reprobeMinMinutes: e.REPROBE_MIN_MINUTES ?? 15,
    reprobeHourlyCap: e.REPROBE_HOURLY_CAP ?? 60,
    pageCacheBytes: (e.PAGE_CACHE_MB ?? 256) * 1024 * 1024,
    metricsToken: e.METRICS_TOKEN || undefined,
  };
}

let cached: Config | undefined;
/** The process's configuration, parsed once. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
