import path from "node:path";
import { z } from "zod";
import { REGION_ID } from "./vocabulary/regions";

// The only module that reads process.env. Everything else receives these values as parameters.
const boolFlag = z
  .string()
  .optional()
  .transform((v) => v === "1" || v?.toLowerCase() === "true");

const EnvSchema = z.object({
  REGISTRY_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  DATABASE_PATH: z.string().optional(),
  OPEN_DATA_DIR: z.string().optional(),
  CRON_SECRET: z.string().optional(),
  PROBE_SCHEDULE: z.string().optional(),
  PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(512).optional(),
  PROBE_HOST_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  PROBE_ALLOW_PRIVATE_NETWORKS: boolFlag,
  MCP_STATUS_DEMO: z.enum(["0", "1", "true", "false", ""]).optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  ALERT_WEBHOOK_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  ALERT_STALE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .optional(),
  CROSS_READ_SAMPLE: z.coerce.number().int().min(0).max(100_000).optional(),
  REPROBE_MIN_MINUTES: z.coerce.number().int().min(1).max(10_080).optional(),
  REPROBE_HOURLY_CAP: z.coerce.number().int().min(0).max(100_000).optional(),
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(16_384).optional(),
  FRONT_STALE_MS: z.coerce.number().int().min(0).max(3_600_000).optional(),
  FRONT_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  FRONT_MAX_RENDERS: z.coerce.number().int().min(1).max(256).optional(),
  FRONT_RENDER_QUEUE: z.coerce.number().int().min(0).max(10_000).optional(),
  FRONT_RESTART_MAX_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  METRICS_TOKEN: z.string().optional(),
  NATS_URL: z.string().optional(),
  NATS_USER: z.string().optional(),
  NATS_PASSWORD: z.string().optional(),
  NATS_CREDS: z.string().optional(),
  PROBE_REGIONS: z.string().optional(),
  PROBE_LOCAL_REGION: z.string().optional(),
  REGION_RECOVERY_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  MAIL_FROM: z.string().optional(),
  SUBSCRIBE_HOURLY_CAP: z.coerce.number().int().min(0).max(100_000).optional(),
  NOTIFY_POLL_MS: z.coerce.number().int().min(10).max(600_000).optional(),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).optional(),
  NOTIFY_FOLD_MINUTES: z.coerce
    .number()
    .min(0)
    .max(24 * 60)
    .optional(),
  NOTIFY_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
  SECRETS_KEY: z.string().optional(),
  SECRETS_KEY_PREVIOUS: z.string().optional(),
});

export const OFFICIAL_REGISTRY_URL = "https://registry.modelcontextprotocol.io";
export const DEFAULT_SCHEDULE = "*/5 * * * *";

export interface Config {
  /** Registry to read; undefined in the demo, where the built-in fleet's registry is used. */
  registryUrl: string | undefined;
  /** True when no REGISTRY_URL is set (or MCP_STATUS_DEMO=1): serve the built-in demo fleet on loopback. */
  demo: boolean;
  databasePath: string;
  /** Where the daily open-data files are written and served from (architecture.md §3): OPEN_DATA_DIR, else open-data/ beside the
   * database file. */
  openDataDir: string;
  cronSecret: string | undefined;
  /** Cron expression for the embedded scheduler; null turns it off. */
  probeSchedule: string | null;
  probeConcurrency: number;
  /** Probes in flight at once to a host serving 50 or more registry servers (architecture.md §2.5). */
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
  /** The budgets and limits of `npm start`'s front process (architecture.md §7). */
  front: FrontLimits;
  /** Bearer token for GET /metrics (Prometheus); undefined: the endpoint is off. */
  metricsToken: string | undefined;
  /** Probing from several regions (architecture.md §8); undefined without NATS_URL: one region, `local`, in-process. */
  regions: RegionsConfig | undefined;
  /** The broker connection's values, for the site and for an agent (`npm run agent`); undefined without NATS_URL. */
  nats: NatsConfig | undefined;
  /** Subscriptions and their deliveries (architecture.md §10). */
  notifications: NotificationsConfig;
  /** Owners' claims and the owner's view (architecture.md §11). */
  owners: OwnersConfig;
}

export interface OwnersConfig {
  /** SECRETS_KEY (32 bytes, base64): seals owners' configured values; undefined turns the owner features off. */
  secretsKey: Buffer | undefined;
  /** SECRETS_KEY_PREVIOUS: read during a rotation (`npm run secrets -- rotate` seals everything under SECRETS_KEY again). */
  secretsKeyPrevious: Buffer | undefined;
}

/** A 32-byte key given as base64 (or base64url); undefined when unset or empty; an error for anything else. */
function secretsKeyOf(name: string, raw: string | undefined): Buffer | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  const key = Buffer.from(v, "base64");
  if (key.length !== 32 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(v))
    throw new Error(`invalid configuration: ${name}: must be 32 bytes in base64 (openssl rand -base64 32)`);
  return key;
}

export interface NotificationsConfig {
  /** SMTP_URL (`smtp://` or `smtps://`, credentials in it); undefined: email is off on this site, webhooks still work. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From of every email (default mcp-status@<PUBLIC_BASE_URL's host>, else mcp-status@localhost). */
  mailFrom: string;
  /** Sign-ups a client address may post in an hour (SUBSCRIBE_HOURLY_CAP, default 10; 0 turns sign-ups off). */
  subscribeHourlyCap: number;
  /** How often the sender looks for due messages when it found none (NOTIFY_POLL_MS, default 2 s). */
  pollMs: number;
  /** The first retry waits about this long, the second four times it, each with jitter (NOTIFY_RETRY_BASE_MS, default 30 s). */
  retryBaseMs: number;
  /** The flap rule: at most one message per subscription in this long (NOTIFY_FOLD_MINUTES, default 60). */
  foldMs: number;
  /** A try not recorded this long after it was taken (the process died) is made again (NOTIFY_LEASE_MS, default 60 s). */
  leaseMs: number;
}

export interface NatsConfig {
  url: string;
  user: string | undefined;
  password: string | undefined;
  credsFile: string | undefined;
  /** PROBE_ALLOW_PRIVATE_NETWORKS alone, without the demo's allowance: what an agent probes with. */
  allowPrivateNetworks: boolean;
}

export interface RegionsConfig {
  /** PROBE_REGIONS: the regions probes are sent to, in order; PROBE_LOCAL_REGION among them when set. */
  regions: string[];
  /** PROBE_LOCAL_REGION: the region the site itself probes as, in-process; undefined when every region is an agent. */
  local: string | undefined;
  /** REGION_RECOVERY_SECONDS: how often a down region is asked again, rounds or not; undefined for the default (30 s). */
  recoveryIntervalMs: number | undefined;
}

export interface FrontLimits {
  /** Bytes of finished answers kept in memory (PAGE_CACHE_MB, default 256; 0 turns the cache off). */
  cacheBytes: number;
  /** How long after its last confirmation a previous answer may still be served while the new one renders
   * (FRONT_STALE_MS, default 3 s). */
  staleMs: number;
  /** A renderer that sends no headers in this long is a 504, and a request waiting for another's render
   * waits at most this long (FRONT_HEADERS_TIMEOUT_MS, default 30 s). */
  headersTimeoutMs: number;
  /** Renders (requests handed to the renderer) running at once (FRONT_MAX_RENDERS, default 4). */
  maxRenders: number;
  /** Requests that may wait for a render slot; beyond them a request gets 503 with Retry-After: 1
   * (FRONT_RENDER_QUEUE, default 32). */
  renderQueue: number;
  /** The renderer is started again after it exits, waiting 1 s, then 2, 4 … up to this (FRONT_RESTART_MAX_MS, default 30 s). */
  restartMinMs: number;
  restartMaxMs: number;
  /** A renderer that does not listen this long after its start is killed and started again. */
  startTimeoutMs: number;
  /** The largest request body the front forwards (bigger: 413). */
  maxRequestBodyBytes: number;
  /** How long the front keeps an idle client connection: longer than clients keep theirs (undici 4 s,
   * proxies often 60 s), so no client sends a request on a connection the front is closing. */
  clientKeepAliveMs: number;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  // Unset REGISTRY_URL means the built-in demo fleet, unless MCP_STATUS_DEMO=0 asks for the official registry.
  const demoFlag =
    e.MCP_STATUS_DEMO === "1" || e.MCP_STATUS_DEMO === "true"
      ? true
      : e.MCP_STATUS_DEMO === "0" || e.MCP_STATUS_DEMO === "false"
        ? false
        : undefined;
  const demo = demoFlag ?? !e.REGISTRY_URL;
  const databasePath = path.resolve(e.DATABASE_PATH || path.join(/*turbopackIgnore: true*/ process.cwd(), "data", "mcp-status.db"));
  return {
    registryUrl: demo ? undefined : (e.REGISTRY_URL ?? OFFICIAL_REGISTRY_URL),
    demo,
    databasePath,
    openDataDir: path.resolve(e.OPEN_DATA_DIR || path.join(path.dirname(databasePath), "open-data")),
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
    front: {
      cacheBytes: (e.PAGE_CACHE_MB ?? 256) * 1024 * 1024,
      staleMs: e.FRONT_STALE_MS ?? 3_000,
      headersTimeoutMs: e.FRONT_HEADERS_TIMEOUT_MS ?? 30_000,
      maxRenders: e.FRONT_MAX_RENDERS ?? 4,
      renderQueue: e.FRONT_RENDER_QUEUE ?? 32,
      restartMinMs: Math.min(1_000, e.FRONT_RESTART_MAX_MS ?? 30_000),
      restartMaxMs: e.FRONT_RESTART_MAX_MS ?? 30_000,
      startTimeoutMs: 120_000,
      maxRequestBodyBytes: 1024 * 1024,
      clientKeepAliveMs: 65_000,
    },
    metricsToken: e.METRICS_TOKEN || undefined,
    ...natsAndRegions(e),
    notifications: {
      smtpUrl: e.SMTP_URL,
      mailFrom: e.MAIL_FROM?.trim() || `mcp-status@${e.PUBLIC_BASE_URL ? new URL(e.PUBLIC_BASE_URL).hostname : "localhost"}`,
      subscribeHourlyCap: e.SUBSCRIBE_HOURLY_CAP ?? 10,
      pollMs: e.NOTIFY_POLL_MS ?? 2_000,
      retryBaseMs: e.NOTIFY_RETRY_BASE_MS ?? 30_000,
      foldMs: (e.NOTIFY_FOLD_MINUTES ?? 60) * 60_000,
      leaseMs: e.NOTIFY_LEASE_MS ?? 60_000,
    },
    owners: {
      secretsKey: secretsKeyOf("SECRETS_KEY", e.SECRETS_KEY),
      secretsKeyPrevious: secretsKeyOf("SECRETS_KEY_PREVIOUS", e.SECRETS_KEY_PREVIOUS),
    },
  };
}

function natsAndRegions(e: z.infer<typeof EnvSchema>): Pick<Config, "nats" | "regions"> {
  const url = e.NATS_URL?.trim() || undefined;
  const list = (e.PROBE_REGIONS ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  const local = e.PROBE_LOCAL_REGION?.trim() || undefined;
  for (const r of [...list, ...(local ? [local] : [])]) {
    if (!REGION_ID.test(r)) throw new Error(`invalid configuration: PROBE_REGIONS: ${JSON.stringify(r)} is not a region id (${REGION_ID})`);
  }
  if (list.length === 0 && local) throw new Error("invalid configuration: PROBE_LOCAL_REGION needs PROBE_REGIONS");
  if (e.NATS_USER && e.NATS_CREDS) throw new Error("invalid configuration: NATS_USER and NATS_CREDS: set one of them");
  const nats = url
    ? {
        url,
        user: e.NATS_USER || undefined,
        password: e.NATS_PASSWORD,
        credsFile: e.NATS_CREDS || undefined,
        allowPrivateNetworks: e.PROBE_ALLOW_PRIVATE_NETWORKS,
      }
    : undefined;
  if (!url || list.length === 0) return { nats, regions: undefined };
  const regions = local && !list.includes(local) ? [...list, local] : list;
  if (new Set(regions).size !== regions.length) throw new Error("invalid configuration: PROBE_REGIONS names a region twice");
  const recoveryIntervalMs = e.REGION_RECOVERY_SECONDS === undefined ? undefined : e.REGION_RECOVERY_SECONDS * 1000;
  return { nats, regions: { regions, local, recoveryIntervalMs } };
}

let cached: Config | undefined;
/** The process's configuration, parsed once. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
