import { request, type Dispatcher } from "undici";
import { z } from "zod";
import type { RegistryRemote, Transport, UrlVariables } from "../probe/protocol";
import { parseRetryAfter } from "../probe";
import { REGISTRY_WITHDRAWALS, type RegistryWithdrawal } from "../vocabulary/store";
import { analyseRemote, chooseRemote, MAX_REMOTES } from "./remotes";

// The registry's vocabulary (server.json, _meta, cursors) stops in this module: callers get RegistryServer.

const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

const EntrySchema = z.looseObject({
  server: z.looseObject({
    name: z.string().min(1),
    title: z.string().nullish(),
    description: z.string().nullish(),
    version: z.string().nullish(),
    status: z.string().nullish(),
    remotes: z.unknown().optional(),
  }),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});

const OfficialMetaSchema = z.looseObject({
  status: z.string().nullish(),
  statusMessage: z.string().nullish(),
  updatedAt: z.string().nullish(),
  isLatest: z.boolean().nullish(),
});

/** The registry caps an owner's status message at 500 characters; ours holds whatever a registry sends to that. */
const STATUS_MESSAGE_MAX = 500;

/** A page larger than this aborts the read (a misconfigured or hostile REGISTRY_URL could send gigabytes); a real
 * page of 100 entries is a few hundred KB. */
export const REGISTRY_PAGE_MAX_BYTES = 8 * 1024 * 1024;

const PageSchema = z.object({
  // Entries are read one by one: a malformed entry is logged and skipped, never the page.
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullish(), count: z.number().nullish() }).nullish(),
});

/** One remote server as the rest of the system sees it. */
export interface RegistryServer {
  name: string;
  title: string | null;
  description: string | null;
  version: string | null;
  /** The probed remote (architecture.md §2.6: the first needing no configuration, streamable-http before sse), its
   * variables' defaults filled in; when every remote needs configuration, the first streamable-http one. */
  url: string;
  transport: Transport;
  /** Why no listed remote can be probed as is (a URL variable without default, a required header, a
   * `{placeholder}` header value); null when one can. */
  needsConfig: string | null;
  /** Suite 0.15.0: the headers the probed remote lists as needed, never sent; empty when it needs none (architecture.md §2.6). */
  configHeaders: string[];
  /** No listed remote has an address the probe may use (a URL variable without a default): nothing is ever sent. */
  noAddress: boolean;
  /** architecture.md §11: the URL variables an owner may fill in when no remote has an address without them; null otherwise. */
  urlVariables: UrlVariables | null;
  /** Every listed remote the probe could speak, in registry order, with its standing. */
  remotes: RegistryRemote[];
  registryUpdatedAt: string | null;
  /** The owner's words on the entry's status (the registry's `statusMessage`), cut to 500 characters; null when none. */
  registryStatusMessage: string | null;
}

/** A server whose latest version its owner marked deprecated or deleted: kept with its history, probed no more. */
export interface RegistryWithdrawn {
  name: string;
  status: RegistryWithdrawal;
  statusMessage: string | null;
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
  /** Read only entries updated since this instant (the registry's `updated_since`, which also lists deleted ones);
   * absent: a full read, deleted entries included so their owners' messages are kept. */
  updatedSince?: string;
  /** Bytes one page may take; more aborts the read. Default REGISTRY_PAGE_MAX_BYTES. */
  maxPageBytes?: number;
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
}

export interface RegistryFetchResult {
  servers: RegistryServer[];
  /** Entries whose latest version is deprecated or deleted. */
  withdrawn: RegistryWithdrawn[];
  pages: number;
  /** Entries seen in total, and those skipped as inactive, without a usable remote, or unreadable. */
  entries: number;
  malformed: number;
  inactive: number;
  withoutRemote: number;
  retries: number;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function pageUrl(base: string, limit: number, cursor: string | undefined, updatedSince: string | undefined): string {
  const filter = updatedSince === undefined ? "&include_deleted=true" : `&updated_since=${encodeURIComponent(updatedSince)}`;
  const u = `${base.replace(/\/+$/, "")}/v0.1/servers?version=latest&limit=${limit}${filter}`;
  return cursor === undefined ? u : `${u}&cursor=${encodeURIComponent(cursor)}`;
}

/** The owner's message as stored: control characters dropped, cut to the registry's own cap. */
function statusMessageOf(raw: string | null | undefined): string | null {
  if (typeof raw !== "string") return null;
  const clean = raw.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
  return clean ? clean.slice(0, STATUS_MESSAGE_MAX) : null;
}

/** Reads every page of the registry (or, with `updatedSince`, the entries changed since then). Throws RegistryError on a
 * page it cannot trust; nothing partial is returned. */
export async function fetchRegistry(baseUrl: string, opts: FetchRegistryOptions = {}): Promise<RegistryFetchResult> {
  const limit = opts.limit ?? 100;
  const maxRetries = opts.maxRetries ?? 5;
  const maxBackoffMs = opts.maxBackoffMs ?? 120_000;
  const maxPages = opts.maxPages ?? 2_000;
  const sleep = opts.sleep ?? defaultSleep;
  const byName = new Map<string, { entry: RegistryServer | RegistryWithdrawn; isLatest: boolean }>();
  let cursor: string | undefined;
  let pages = 0;
  let entries = 0;
  let inactive = 0;
  let withoutRemote = 0;
  let malformed = 0;
  let retries = 0;
  const seenCursors = new Set<string>();

  for (;;) {
    if (pages >= maxPages) throw new RegistryError(`registry paging did not end after ${maxPages} pages`);
    const url = pageUrl(baseUrl, limit, cursor, opts.updatedSince);
    const body = await getPage(url, pages + 1, { ...opts, maxRetries, maxBackoffMs, sleep, onRetry: () => retries++ });
    const parsed = PageSchema.safeParse(body);
    if (!parsed.success) {
      const where = parsed.error.issues[0];
      throw new RegistryError(
        `registry page ${pages + 1} (${url}) is not a server list: ${where ? `${where.path.join(".") || "body"}: ${where.message}` : "invalid"}`,
      );
    }
    pages++;
    for (const [i, raw] of parsed.data.servers.entries()) {
      entries++;
      const one = EntrySchema.safeParse(raw);
      if (!one.success) {
        malformed++;
        const where = one.error.issues[0];
        opts.log?.(
          `[registry] page ${pages} entry ${i + 1}${entryName(raw)} skipped: ${where ? `${where.path.join(".") || "entry"}: ${where.message}` : "unreadable"}`,
        );
        continue;
      }
      const e = one.data;
      const official = OfficialMetaSchema.safeParse(e._meta?.[OFFICIAL_META] ?? {});
      const meta = official.success ? official.data : {};
      const status = meta.status ?? e.server.status ?? "active";
      const statusMessage = statusMessageOf(meta.statusMessage);
      let item: RegistryServer | RegistryWithdrawn | null;
      if (status === "active") {
        item = toRegistryServer(e.server, meta.updatedAt ?? null, statusMessage, opts.log);
        if (!item) {
          withoutRemote++;
          continue;
        }
      } else {
        inactive++;
        if (!(REGISTRY_WITHDRAWALS as readonly string[]).includes(status)) continue;
        item = { name: e.server.name, status: status as RegistryWithdrawal, statusMessage, registryUpdatedAt: meta.updatedAt ?? null };
      }
      const prev = byName.get(item.name);
      const isLatest = meta.isLatest ?? true;
      if (!prev || (isLatest && !prev.isLatest)) byName.set(item.name, { entry: item, isLatest });
    }
    const next = parsed.data.metadata?.nextCursor;
    if (next === undefined || next === null || next === "") break;
    if (seenCursors.has(next)) throw new RegistryError(`registry returned cursor "${next}" twice; paging stopped`);
    seenCursors.add(next);
    cursor = next;
    const delay = opts.pageDelayMs ?? 100;
    if (delay > 0) await sleep(delay);
  }
  const servers: RegistryServer[] = [];
  const withdrawn: RegistryWithdrawn[] = [];
  for (const { entry } of byName.values()) {
    if ("url" in entry) servers.push(entry);
    else withdrawn.push(entry);
  }
  opts.log?.(
    `[registry] ${servers.length} remote servers from ${entries} entries in ${pages} pages${opts.updatedSince ? ` updated since ${opts.updatedSince}` : ""} (${inactive} inactive, ${withoutRemote} without a remote, ${malformed} unreadable, ${retries} retries)`,
  );
  return { servers, withdrawn, pages, entries, inactive, withoutRemote, malformed, retries };
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
    const text = await readCapped(res, url, page, o.maxPageBytes ?? REGISTRY_PAGE_MAX_BYTES);
    try {
      return JSON.parse(text);
    } catch {
      throw new RegistryError(`registry page ${page} (${url}) is not JSON (starts with ${JSON.stringify(text.slice(0, 60))})`);
    }
  }
}

/** The page's body as text, read no further than `cap` bytes: a longer one is cut off and aborts the read. */
async function readCapped(res: Dispatcher.ResponseData, url: string, page: number, cap: number): Promise<string> {
  const tooLarge = () => new RegistryError(`registry page ${page} (${url}) is larger than ${cap} bytes; the read stopped there`);
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > cap) {
    res.body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      res.body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

type Entry = z.infer<typeof EntrySchema>["server"];

/** " (io.x/y)" when a skipped entry still names itself, for the log. */
function entryName(raw: unknown): string {
  const name = (raw as { server?: { name?: unknown } } | null)?.server?.name;
  return typeof name === "string" && name ? ` (${JSON.stringify(name.slice(0, 120))})` : "";
}

function toRegistryServer(
  s: Entry,
  updatedAt: string | null,
  statusMessage: string | null,
  log?: (line: string) => void,
): RegistryServer | null {
  const problems: string[] = [];
  let listed: unknown[] = [];
  if (Array.isArray(s.remotes)) listed = s.remotes;
  else if (s.remotes !== undefined && s.remotes !== null) problems.push("remotes is not a list");
  if (listed.length > MAX_REMOTES) problems.push(`${listed.length} remotes listed; the first ${MAX_REMOTES} were read`);
  const analysed = listed
    .slice(0, MAX_REMOTES)
    .map((r, i) => analyseRemote(r, problems, i))
    .filter((a) => a !== null);
  if (problems.length)
    log?.(
      `[registry] ${JSON.stringify(s.name.slice(0, 120))}: ${problems.slice(0, 5).join("; ")}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}`,
    );
  const choice = chooseRemote(analysed);
  if (!choice) return null;
  return {
    name: s.name,
    title: s.title ?? null,
    description: s.description ?? null,
    version: s.version ?? null,
    url: choice.url,
    transport: choice.transport,
    needsConfig: choice.needsConfig,
    configHeaders: choice.configHeaders,
    noAddress: choice.noAddress,
    urlVariables: choice.urlVariables,
    remotes: choice.remotes,
    registryUpdatedAt: updatedAt,
    registryStatusMessage: statusMessage,
  };
}
