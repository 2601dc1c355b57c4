import robotsParser from "robots-parser";
import type { Db } from "../../db/client";
import type { AddressPolicy } from "../probe/address-policy";
import { DEFAULT_LIMITS } from "../probe/types";
import type { HostGate } from "../probe/host-gate";
import type { DnsLookup } from "../probe/transport/dns";
import { HttpSession } from "../probe/transport/http";
import { robotsFetchedSince } from "../store/hosts";
import { getRobots, putRobots, type RobotsRow } from "../store/optouts";

/** The user-agent token robots.txt rules name to address this probe. */
export const ROBOTS_TOKEN = "mcp-status-probe";
export const ROBOTS_MAX_BYTES = 64 * 1024;
export const ROBOTS_TIMEOUT_MS = 5_000;
export const ROBOTS_DISALLOW_REASON = "robots.txt disallows mcp-status-probe";
/** A cached robots.txt is used for a day. */
export const ROBOTS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface RobotsFetch {
  /** HTTP status, or null when no answer arrived (then `error` says why). */
  status: number | null;
  body: string | null;
  error?: string;
}

/** Fetches `origin/robots.txt` through the probe's own HTTP session (address policy, pinned DNS, no redirects,
 * the full User-Agent, the host gate), with a short timeout and a 64 KiB cap; a longer file is read to the cap. */
export async function fetchRobots(
  origin: URL,
  options: { policy: AddressPolicy; userAgent: string; hostGate?: HostGate; timeoutMs?: number; dnsLookup?: DnsLookup },
): Promise<RobotsFetch> {
  const timeoutMs = options.timeoutMs ?? ROBOTS_TIMEOUT_MS;
  const http = new HttpSession({
    policy: options.policy,
    limits: {
      ...DEFAULT_LIMITS,
      connectTimeoutMs: timeoutMs,
      headersTimeoutMs: timeoutMs,
      bodyTimeoutMs: timeoutMs,
      deadlineMs: timeoutMs,
      maxBodyBytes: ROBOTS_MAX_BYTES,
    },
    userAgent: options.userAgent,
    ...(options.hostGate ? { hostGate: options.hostGate } : {}),
    deadline: AbortSignal.timeout(timeoutMs),
    exchanges: [],
    ...(options.dnsLookup ? { dnsLookup: options.dnsLookup } : {}),
  });
  try {
    const a = await http.send({
      phase: "robots",
      method: "GET",
      url: new URL("/robots.txt", origin).toString(),
      headers: { accept: "text/plain" },
    });
    if (a.status === undefined) return { status: null, body: null, error: a.error ?? "no answer" };
    if (a.failure && a.failure !== "cap") return { status: a.status, body: null, error: a.error };
    return { status: a.status, body: a.text };
  } finally {
    await http.close();
  }
}

function parsed(url: URL, fetched: { status: number | null; body: string | null }) {
  if (fetched.status === null || fetched.status < 200 || fetched.status >= 300 || !fetched.body) return null;
  return robotsParser(new URL("/robots.txt", url).toString(), fetched.body);
}

/** Whether robots.txt (as fetched) forbids our token from the URL. Only a 2xx body carries rules: a missing
 * file (4xx) allows everything, and an unreachable one does not hide a server that is down. */
export function robotsDisallows(url: string, fetched: { status: number | null; body: string | null }): boolean {
  const u = new URL(url);
  return parsed(u, fetched)?.isAllowed(u.toString(), ROBOTS_TOKEN) === false;
}

/** The Crawl-delay (seconds) robots.txt sets for our token, or null. */
export function robotsCrawlDelay(url: string, fetched: { status: number | null; body: string | null }): number | null {
  const delay = parsed(new URL(url), fetched)?.getCrawlDelay(ROBOTS_TOKEN);
  return delay !== undefined && Number.isFinite(delay) && delay > 0 ? delay : null;
}

export interface RobotsBook {
  /** robots.txt of the URL's host: from the cache when fetched within a day, else fetched once for the round. */
  rowFor(url: URL): Promise<RobotsRow>;
  /** Whether the host's robots.txt is known this round (then its Crawl-delay is known too). */
  known(host: string): boolean;
}

/** The round's view of robots.txt: the day-long cache in the database, one fetch per host however many probes
 * ask at once, and each host's Crawl-delay handed to the gate as soon as it is known. */
export function createRobotsBook(options: {
  db: Db;
  now: () => Date;
  policy: AddressPolicy;
  userAgent: string;
  gate: HostGate & { setCrawlDelay(host: string, seconds: number | null): void };
}): RobotsBook {
  const rows = new Map<string, Promise<RobotsRow>>();
  const known = new Set<string>();
  const learn = (row: RobotsRow): RobotsRow => {
    // Rows cached before the column existed carry no delay yet: read it from the stored body.
    options.gate.setCrawlDelay(row.host, row.crawlDelaySeconds ?? robotsCrawlDelay(`http://${row.host}/`, row));
    known.add(row.host);
    return row;
  };
  for (const row of robotsFetchedSince(options.db, new Date(options.now().getTime() - ROBOTS_MAX_AGE_MS).toISOString())) {
    rows.set(row.host, Promise.resolve(learn(row)));
  }
  return {
    known: (host) => known.has(host.toLowerCase()),
    rowFor(url) {
      const host = url.host.toLowerCase();
      let p = rows.get(host);
      if (!p) {
        p = fetchRobots(new URL(url.origin), { policy: options.policy, userAgent: options.userAgent, hostGate: options.gate }).then((f) => {
          // No answer at all may be our own network (architecture.md §2.7): the last file read stays in force, Crawl-delay
          // included, and is not replaced by the failure.
          const before = f.status === null ? getRobots(options.db, host) : null;
          if (before && before.status !== null) return learn(before);
          const row: RobotsRow = {
            host,
            fetchedAt: options.now().toISOString(),
            status: f.status,
            body: f.body,
            disallowed: robotsDisallows(url.toString(), f),
            crawlDelaySeconds: robotsCrawlDelay(url.toString(), f),
          };
          putRobots(options.db, row);
          return learn(row);
        });
        rows.set(host, p);
      }
      return p;
    },
  };
}
