import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import robotsParser from "robots-parser";
import { Agent, request } from "undici";
import type { AddressPolicy } from "../probe/address-policy";
import { isIpLiteral, unbracket } from "../probe/address-policy";
import type { HostGate } from "../probe/transport/http";

/** The user-agent token robots.txt rules name to address this probe. */
export const ROBOTS_TOKEN = "mcp-status-probe";
export const ROBOTS_MAX_BYTES = 64 * 1024;
export const ROBOTS_TIMEOUT_MS = 5_000;
export const ROBOTS_DISALLOW_REASON = "robots.txt disallows mcp-status-probe";

export interface RobotsFetch {
  /** HTTP status, or null when no answer arrived (then `error` says why). */
  status: number | null;
  body: string | null;
  error?: string;
}

/** Fetches `origin/robots.txt` under the probe's rules: address policy on every DNS answer (pinned), no
 * redirects, a short timeout, 64 KiB cap, one request at a time per host. */
export async function fetchRobots(
  origin: URL,
  o: { policy: AddressPolicy; userAgent: string; hostGate?: HostGate; timeoutMs?: number },
): Promise<RobotsFetch> {
  const host = unbracket(origin.hostname);
  let addrs: LookupAddress[];
  try {
    addrs = isIpLiteral(host)
      ? [{ address: host, family: host.includes(":") ? 6 : 4 }]
      : await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (e) {
    return { status: null, body: null, error: `DNS lookup failed (${(e as NodeJS.ErrnoException).code ?? "error"})` };
  }
  for (const a of addrs) {
    const why = o.policy.check(a.address);
    if (why) return { status: null, body: null, error: `address refused: ${why}` };
  }
  const pinned = addrs[0]!;
  const agent = new Agent({
    connect: {
      timeout: o.timeoutMs ?? ROBOTS_TIMEOUT_MS,
      lookup: (_h: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) =>
        opts.all ? cb(null, [pinned]) : cb(null, pinned.address, pinned.family),
    } as object,
    headersTimeout: o.timeoutMs ?? ROBOTS_TIMEOUT_MS,
    bodyTimeout: o.timeoutMs ?? ROBOTS_TIMEOUT_MS,
  });
  const release = o.hostGate ? await o.hostGate.acquire(origin.host) : () => undefined;
  try {
    const res = await request(new URL("/robots.txt", origin), {
      method: "GET",
      headers: { "user-agent": o.userAgent, accept: "text/plain" },
      dispatcher: agent,
      signal: AbortSignal.timeout(o.timeoutMs ?? ROBOTS_TIMEOUT_MS),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      chunks.push(b);
      size += b.length;
      if (size >= ROBOTS_MAX_BYTES) {
        res.body.destroy();
        break;
      }
    }
    return { status: res.statusCode, body: Buffer.concat(chunks).subarray(0, ROBOTS_MAX_BYTES).toString("utf8") };
  } catch (e) {
    return { status: null, body: null, error: (e as Error).message };
  } finally {
    release();
    await agent.destroy().catch(() => undefined);
  }
}

/** Whether robots.txt (as fetched) forbids our token from the server URL. Only a 2xx body carries rules: a
 * missing file (4xx) allows everything, and an unreachable one does not hide a server that is down. */
export function robotsDisallows(serverUrl: string, fetched: { status: number | null; body: string | null }): boolean {
  if (fetched.status === null || fetched.status < 200 || fetched.status >= 300 || !fetched.body) return false;
  const u = new URL(serverUrl);
  const robots = robotsParser(new URL("/robots.txt", u).toString(), fetched.body);
  return robots.isAllowed(u.toString(), ROBOTS_TOKEN) === false;
}
