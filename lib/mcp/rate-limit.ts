import ipaddr from "ipaddr.js";

// The one limit on /mcp, per client address (README "The site as an MCP server"): a bucket of MCP_RATE_LIMIT.burst
// requests that refills at MCP_RATE_LIMIT.perMinute a minute. A client over it gets 429 with Retry-After (and,
// speaking 2026-07-28, the JSON-RPC error -32023 with data.retryAfterMs, draft SEP-3304).

export const MCP_RATE_LIMIT = { burst: 60, perMinute: 120 } as const;

export interface RateLimit {
  /** Requests a client may send at once. */
  burst: number;
  /** Requests a client regains per minute, up to `burst`. */
  perMinute: number;
}

export type RateVerdict = { ok: true } | { ok: false; retryAfterMs: number };

/** The address a request came from: the last X-Forwarded-For entry, the one appended by the process that
 * accepted the connection (the front of `npm start` from its socket, or Next.js itself under plain `next start`
 * when the client sent none). Earlier entries are what the client claimed and are never trusted. */
export function clientAddress(headers: Pick<Headers, "get">): string | null {
  const hops = headers.get("x-forwarded-for")?.split(",");
  const last = hops?.[hops.length - 1]?.trim();
  return last ? last : null;
}

/** The bucket an address counts against: an IPv4 address (IPv4-mapped IPv6 included) on its own, an IPv6
 * address by its /64, the block one subscriber usually holds whole. */
export function rateKey(address: string | null): string {
  if (!address) return "unknown";
  const bare = address.replace(/^\[|\](:\d+)?$/g, "");
  if (!ipaddr.isValid(bare)) return `other:${bare.slice(0, 64)}`;
  const a = ipaddr.process(bare);
  if (a.kind() === "ipv4") return a.toString();
  return `${(a as ipaddr.IPv6).toNormalizedString().split(":").slice(0, 4).join(":")}::/64`;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets keyed by client; the least recently seen are forgotten past `maxKeys` (a forgotten client
 * starts again with a full bucket, so memory stays bounded whatever the number of addresses). */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly limit: RateLimit = MCP_RATE_LIMIT,
    private readonly maxKeys = 50_000,
  ) {
    this.perMs = limit.perMinute / 60_000;
  }

  /** Counts one request by `key` at `nowMs`. */
  take(key: string, nowMs: number): RateVerdict {
    const prev = this.buckets.get(key);
    const tokens = prev ? Math.min(this.limit.burst, prev.tokens + Math.max(0, nowMs - prev.at) * this.perMs) : this.limit.burst;
    // Re-inserted, so Map order is least recently seen first; a refusal changes nothing else.
    this.buckets.delete(key);
    if (tokens < 1) {
      this.buckets.set(key, prev!);
      return { ok: false, retryAfterMs: Math.ceil((1 - tokens) / this.perMs) };
    }
    this.buckets.set(key, { tokens: tokens - 1, at: nowMs });
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    return { ok: true };
  }
}
