// The independent second reader (architecture.md §6): the official MCP SDK client, always starting with legacy
// `initialize`, reading the tool list and nothing else. It shares no MCP code with lib/probe; its HTTP goes
// through the probe's guarded undici Agent (address policy, pinned DNS, timeouts) via a custom fetch.
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type FetchLike } from "@modelcontextprotocol/client";
import { ReadableStream } from "node:stream/web";
import { fetch as undiciFetch, Response as UndiciResponse } from "undici";
import type { AddressPolicy } from "../../probe/address-policy";
import { SUITE_VERSION, type Transport } from "../../probe/protocol";
import { acquireBefore, type HostGate } from "../../probe/host-gate";
import { AddressRefusedError, type DnsLookup } from "../../probe/transport/dns";
import { HttpSession } from "../../probe/transport/http";
import { DEFAULT_LIMITS, type ProbeLimits } from "../../probe/types";

export interface CrossReaderOptions {
  policy: AddressPolicy;
  userAgent: string;
  /** The round's gate: one request at a time per host. */
  hostGate?: HostGate;
  /** Per-server deadline; default the probe's. */
  deadlineMs?: number;
  limits?: Partial<ProbeLimits>;
  dnsLookup?: DnsLookup;
}

export type CrossReaderResult =
  { ok: true; tools: unknown[]; protocolVersion: string | undefined; requests: number } | { ok: false; error: string; requests: number };

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** A fetch for the SDK transports with the probe's guards: policy-checked and pinned DNS, the host gate held until
 * the body is read (a GET event stream lets go once it opens, as in the probe), no redirects, a body cap, the
 * probe's User-Agent, no Origin or credentials, and the per-server deadline on everything. */
export function guardedFetch(
  session: HttpSession,
  options: { userAgent: string; hostGate?: HostGate; deadline: AbortSignal; maxBodyBytes: number; onRequest?: () => void },
): FetchLike {
  const fetchLike = async (input: string | URL, init: RequestInit = {}): Promise<UndiciResponse> => {
    const url = new URL(String(input));
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`refused to fetch ${url.protocol} URLs`);
    if (url.username || url.password) throw new Error("refused to send credentials in a URL");
    await session.resolve(url.hostname);
    const release = options.hostGate ? await acquireBefore(options.hostGate, url.host, options.deadline) : () => undefined;
    options.onRequest?.();
    const headers = new Headers(init.headers);
    for (const h of ["authorization", "cookie", "origin"]) headers.delete(h);
    headers.set("user-agent", options.userAgent);
    const signal = init.signal ? AbortSignal.any([init.signal, options.deadline]) : options.deadline;
    let res: UndiciResponse;
    try {
      res = await undiciFetch(url, {
        method: init.method ?? "GET",
        headers: [...headers],
        body: init.body as string | undefined,
        signal,
        redirect: "manual",
        dispatcher: session.dispatcher,
      });
    } catch (e) {
      release();
      throw e;
    }
    const method = (init.method ?? "GET").toUpperCase();
    const stream = method === "GET" && (res.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    if (stream || !res.body || NULL_BODY_STATUSES.has(res.status)) release();
    if (!res.body || NULL_BODY_STATUSES.has(res.status)) return res;
    const body = cappedBody(res.body as ReadableStream<Uint8Array>, options.maxBodyBytes, stream ? () => undefined : release);
    return new UndiciResponse(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return fetchLike as unknown as FetchLike;
}

/** The body passed through with a byte cap; `done` runs once when it ends, fails or is cancelled. */
function cappedBody(source: ReadableStream<Uint8Array>, max: number, done: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let bytes = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          finish();
          ctrl.close();
          return;
        }
        bytes += value.byteLength;
        if (bytes > max) {
          finish();
          ctrl.error(new Error(`body exceeded ${max} bytes`));
          void reader.cancel().catch(() => undefined);
          return;
        }
        ctrl.enqueue(value);
      } catch (e) {
        finish();
        ctrl.error(e);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}

/** Reads one server's tool list (all pages) with the official client in legacy mode; never calls a tool and never
 * throws for anything a server does. */
export async function crossReadServer(
  target: { url: string; transport: Transport },
  options: CrossReaderOptions,
): Promise<CrossReaderResult> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits, ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}) };
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`the cross-reader's ${limits.deadlineMs} ms deadline ran out`)),
    limits.deadlineMs,
  );
  const deadline = controller.signal;
  const session = new HttpSession({
    policy: options.policy,
    limits,
    userAgent: options.userAgent,
    deadline,
    exchanges: [],
    dnsLookup: options.dnsLookup,
  });
  let requests = 0;
  const fetch = guardedFetch(session, {
    userAgent: options.userAgent,
    hostGate: options.hostGate,
    deadline,
    maxBodyBytes: limits.maxBodyBytes,
    onRequest: () => void requests++,
  });
  const client = new Client(
    { name: "mcp-status-cross-reader", version: SUITE_VERSION },
    { versionNegotiation: { mode: "legacy" }, listMaxPages: limits.maxPages },
  );
  const url = new URL(target.url);
  // redirect "manual" also stops the SDK's own same-origin redirect following.
  const requestInit: RequestInit = { redirect: "manual" };
  const transport =
    target.transport === "sse"
      ? new SSEClientTransport(url, { fetch, requestInit })
      : new StreamableHTTPClientTransport(url, {
          fetch,
          requestInit,
          reconnectionOptions: {
            maxRetries: 0,
            initialReconnectionDelay: 1_000,
            maxReconnectionDelay: 1_000,
            reconnectionDelayGrowFactor: 1,
          },
        });
  transport.onerror = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    deadline.addEventListener("abort", () => reject(deadline.reason), { once: true });
  });
  stopped.catch(() => undefined);
  try {
    const opts = { signal: deadline, timeout: limits.deadlineMs };
    await Promise.race([client.connect(transport, opts), stopped]);
    const { tools } = await Promise.race([client.listTools(undefined, opts), stopped]);
    return { ok: true, tools, protocolVersion: client.getNegotiatedProtocolVersion(), requests };
  } catch (e) {
    return { ok: false, error: describe(e, deadline), requests };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
    controller.abort(new Error("closed"));
    await session.close();
  }
}

function describe(e: unknown, deadline: AbortSignal): string {
  if (deadline.aborted) return String((deadline.reason as Error)?.message ?? "the deadline ran out");
  const chain: unknown[] = [];
  for (let x: unknown = e; x && chain.length < 5; x = (x as { cause?: unknown }).cause) chain.push(x);
  const refused = chain.find((x) => x instanceof AddressRefusedError);
  if (refused) return `address refused: ${(refused as Error).message}`;
  // undici says "fetch failed" and keeps the reason (ECONNREFUSED, a timeout) in its cause.
  const code = chain.map((x) => (x as { code?: unknown }).code).find((c) => typeof c === "string");
  const msg =
    chain
      .map((x) => (x as Error)?.message ?? String(x))
      .filter((m) => m && m !== "fetch failed")
      .join(": ") || "fetch failed";
  return `${msg}${code && !msg.includes(String(code)) ? ` (${code})` : ""}`.replace(/\s+/g, " ").slice(0, 300);
}
