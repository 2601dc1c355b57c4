import { request, type Dispatcher } from "undici";
import { z } from "zod";
import type { Transport } from "../probe/protocol";
import { parseRetryAfter } from "../probe";

// The registry's vocabulary (server.json, _meta, cursors) stops in this module: callers get RegistryServer.

const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

const HeaderSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  isRequired: z.boolean().nullish(),
  isSecret: z.boolean().nullish(),
  value: z.string().nullish(),
});

const RemoteSchema = z.looseObject({
  type: z.string(),
  url: z.string().nullish(),
  headers: z.array(HeaderSchema).nullish(),
  variables: z.record(z.string(), z.unknown()).nullish(),
});

const EntrySchema = z.looseObject({
  server: z.looseObject({
    name: z.string().min(1),
    title: z.string().nullish(),
    description: z.string().nullish(),
    version: z.string().nullish(),
    status: z.string().nullish(),
    remotes: z.array(RemoteSchema).nullish(),
  }),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});

const OfficialMetaSchema = z.looseObject({
  status: z.string().nullish(),
  updatedAt: z.string().nullish(),
  isLatest: z.boolean().nullish(),
});

const PageSchema = z.object({
  servers: z.array(EntrySchema),
  metadata: z
    .looseObject({ nextCursor: z.string().nullish(), count: z.number().nullish() })
    .nullish(),
});

/** One remote server as the rest of the system sees it. */
export interface RegistryServer {
  name: string;
  title: string | null;
  description: string | null;
  version: string | null;
  /** The chosen remote: the first streamable-http one, else the first sse one. */
  url: string;
  transport: Transport;
  /** Why the listed remote cannot be probed as is (URL template, required secret header); null when probeable. */
  needsConfig: string | null;
  registryUpdatedAt: string | null;
}

export class RegistryError extends Error {
  override name = "RegistryError";
}

export interface FetchRegistryOptions {
  dispatcher?: Dispatcher;
  /** Entries per page; the registry's maximum is 100. */
  limit?: number;
  /** Retries per page after a 429 (or 503 with Retry-After). */
  maxRetries?: number;
  /** Upper bound for one back-off wait. */
  maxBackoffMs?: number;
  /** Pause between pages to stay well under the registry's rate limit (about 10 requests a second). Default 100. */
  pageDelayMs?: number;
  /** Hard stop on pages read, against a cursor that never ends. */
  maxPages?: number;
  timeoutMs?: number;
  userAgent?: string;
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
}

export interface RegistryFetchResult {
  servers: RegistryServer[];
  pages: number;
  /** Entries seen in total, and those skipped as inactive or without a usable remote. */
  entries: number;
  inactive: number;
  withoutRemote: number;
  retries: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function pageUrl(base: string, limit: number, cursor: string | undefined): string {
  const u = `${base.replace(/\/+$/, "")}/v0.1/servers?version=latest&limit=${limit}`;
  return cursor === undefined ? u : `${u}&cursor=${encodeURIComponent(cursor)}`;
}

/** Reads every page of the registry. Throws RegistryError on a page it cannot trust; nothing partial is returned. */
export async function fetchRegistry(baseUrl: string, opts: FetchRegistryOptions = {}): Promise<RegistryFetchResult> {
  const limit = opts.limit ?? 100;
  const maxRetries = opts.maxRetries ?? 5;
  const maxBackoffMs = opts.maxBackoffMs ?? 120_000;
  const maxPages = opts.maxPages ?? 2_000;
  const sleep = opts.sleep ?? defaultSleep;
  const byName = new Map<string, { entry: RegistryServer; isLatest: boolean }>();
  let cursor: string | undefined;
  let pages = 0;
  let entries = 0;
  let inactive = 0;
  let withoutRemote = 0;
  let retries = 0;
  const seenCursors = new Set<string>();

  for (;;) {
    if (pages >= maxPages) throw new RegistryError(`registry paging did not end after ${maxPages} pages`);
    const url = pageUrl(baseUrl, limit, cursor);
    const body = await getPage(url, pages + 1, { ...opts, maxRetries, maxBackoffMs, sleep, onRetry: () => retries++ });
    const parsed = PageSchema.safeParse(body);
    if (!parsed.success) {
      const where = parsed.error.issues[0];
      throw new RegistryError(
        `registry page ${pages + 1} (${url}) is not a server list: ${where ? `${where.path.join(".") || "body"}: ${where.message}` : "invalid"}`,
      );
    }
    pages++;
    for (const e of parsed.data.servers) {
      entries++;
      const official = OfficialMetaSchema.safeParse(e._meta?.[OFFICIAL_META] ?? {});
      const meta = official.success ? official.data : {};
      const status = meta.status ?? e.server.status ?? "active";
      if (status !== "active") {
        inactive++;
        continue;
      }
      const server = toRegistryServer(e.server, meta.updatedAt ?? null);
      if (!server) {
        withoutRemote++;
        continue;
      }
      const prev = byName.get(server.name);
      const isLatest = meta.isLatest ?? true;
      if (!prev || (isLatest && !prev.isLatest)) byName.set(server.name, { entry: server, isLatest });
    }
    const next = parsed.data.metadata?.nextCursor;
    if (next === undefined || next === null || next === "") break;
    if (seenCursors.has(next)) throw new RegistryError(`registry returned cursor "${next}" twice; paging stopped`);
    seenCursors.add(next);
    cursor = next;
    const delay = opts.pageDelayMs ?? 100;
    if (delay > 0) await sleep(delay);
  }
  opts.log?.(
    `[registry] ${byName.size} remote servers from ${entries} entries in ${pages} pages (${inactive} inactive, ${withoutRemote} without a remote, ${retries} retries)`,
  );
  return { servers: [...byName.values()].map((v) => v.entry), pages, entries, inactive, withoutRemote, retries };
}

async function getPage(
  url: string,
  page: number,
  o: FetchRegistryOptions & { maxRetries: number; maxBackoffMs: number; sleep: (ms: number) => Promise<void>; onRetry: () => void },
): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: "GET",
        headers: { accept: "application/json", "user-agent": o.userAgent ?? "mcp-status" },
        dispatcher: o.dispatcher,
        headersTimeout: o.timeoutMs ?? 30_000,
        bodyTimeout: o.timeoutMs ?? 30_000,
      });
    } catch (err) {
      throw new RegistryError(`registry request ${url} failed: ${(err as Error).message}`);
    }
    const slowDown = res.statusCode === 429 || (res.statusCode === 503 && res.headers["retry-after"] !== undefined);
    if (slowDown) {
      await res.body.dump();
      if (attempt >= o.maxRetries) {
        throw new RegistryError(`registry kept answering ${res.statusCode} after ${o.maxRetries} retries (${url})`);
      }
      const header = res.headers["retry-after"];
      const retryAfter = parseRetryAfter(Array.isArray(header) ? header[0] : header);
      const wait = Math.min(retryAfter !== undefined ? retryAfter * 1000 : 1000 * 2 ** attempt, o.maxBackoffMs);
      o.log?.(`[registry] ${res.statusCode} on ${url}; retrying in ${Math.round(wait / 1000)} s`);
      o.onRetry();
      await o.sleep(wait);
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw new RegistryError(`registry answered HTTP ${res.statusCode} for ${url}`);
    }
    const text = await res.body.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new RegistryError(`registry page ${page} (${url}) is not JSON (starts with ${JSON.stringify(text.slice(0, 60))})`);
    }
  }
}

type Entry = z.infer<typeof EntrySchema>["server"];
type Remote = z.infer<typeof RemoteSchema>;

function toRegistryServer(s: Entry, updatedAt: string | null): RegistryServer | null {
  const remotes = (s.remotes ?? []).filter((r): r is Remote & { url: string } => typeof r.url === "string" && !!r.url);
  const remote = remotes.find((r) => r.type === "streamable-http") ?? remotes.find((r) => r.type === "sse");
  if (!remote) return null;
  return {
    name: s.name,
    title: s.title ?? null,
    description: s.description ?? null,
    version: s.version ?? null,
    url: remote.url,
    transport: remote.type === "sse" ? "sse" : "streamable-http",
    needsConfig: needsConfiguration(remote),
    registryUpdatedAt: updatedAt,
  };
}

/** Why a listed remote cannot be reached without the user's own values (a clause, no final period); null when it
 * can be probed as listed. */
export function needsConfiguration(remote: Remote & { url: string }): string | null {
  const vars = remote.url.match(/\{[^}]*\}/g);
  if (vars) {
    return `the listed URL is a template with ${[...new Set(vars)].join(", ")} for the user to fill in`;
  }
  const secret = (remote.headers ?? []).filter((h) => h.isSecret || (h.isRequired && !h.value));
  if (secret.length) {
    const names = secret.map((h) => h.name).join(", ");
    return `the remote requires the header${secret.length > 1 ? "s" : ""} ${names}, which the user must supply`;
  }
  try {
    const u = new URL(remote.url);
    if (u.protocol !== "https:" && u.protocol !== "http:") return `the listed URL uses ${u.protocol} rather than HTTP(S)`;
  } catch {
    return "the listed URL is not a valid URL";
  }
  return null;
}
