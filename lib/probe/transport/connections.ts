// The undici Agent every probe request goes through: connections only to addresses the policy allowed and DNS
// pinned, connect/header/body timeouts, certificates recorded (architecture.md §5); and the one a round keeps open.
import type { LookupAddress } from "node:dns";
import { Agent, type buildConnector } from "undici";
import type { AddressPolicy } from "../address-policy";
import type { ProbeLimits } from "../types";
import { CertificateBook, recordingConnector, type TrustAnchors } from "./certificates";
import { PinnedNames, resolveChecked, type DnsLookup } from "./dns";

/** An undici Agent whose connections only reach addresses `resolve` checked (and pinned). */
export function guardedAgent(
  limits: ProbeLimits,
  resolve: (hostname: string) => Promise<LookupAddress[]>,
  keepAliveMs: number,
  book: CertificateBook,
  ca?: TrustAnchors,
): Agent {
  const lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    cb: (err: Error | null, address?: string | LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname).then(
      (addrs) => {
        const fam = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : Number(options.family ?? 0);
        const usable = fam === 4 || fam === 6 ? addrs.filter((a) => a.family === fam) : addrs;
        const first = usable[0];
        if (!first) return cb(Object.assign(new Error(`no IPv${fam} address for ${hostname}`), { code: "ENOTFOUND" }));
        if (options.all) cb(null, usable);
        else cb(null, first.address, first.family);
      },
      (err: Error) => cb(err),
    );
  };
  return new Agent({
    connect: recordingConnector({ timeout: limits.connectTimeoutMs, lookup } as buildConnector.BuildOptions, book, ca),
    headersTimeout: limits.headersTimeoutMs,
    bodyTimeout: limits.bodyTimeoutMs,
    keepAliveTimeout: keepAliveMs,
    keepAliveMaxTimeout: keepAliveMs,
  });
}

/**
 * Connections a round keeps open between its probes: one Agent, so consecutive probes of servers on one
 * host reuse a warm connection (no new TCP and TLS handshake each time). Successful DNS answers are checked
 * and pinned for the round; a failed lookup is not kept here (each probe keeps its own). An idle connection
 * is closed after 1 s, before the shortest common server idle timeouts (gunicorn's 2 s, Node's 5 s), so a
 * reused one is not closed under us.
 */
export class SharedConnections {
  readonly agent: Agent;
  readonly certificates = new CertificateBook();
  private readonly names: PinnedNames;

  constructor(o: { policy: AddressPolicy; limits: ProbeLimits; dnsLookup?: DnsLookup; ca?: TrustAnchors }) {
    this.names = new PinnedNames((host) => resolveChecked(host, o.policy, o.dnsLookup), false);
    this.agent = guardedAgent(o.limits, (h) => this.resolve(h), 1_000, this.certificates, o.ca);
  }

  resolve(hostname: string): Promise<LookupAddress[]> {
    return this.names.resolve(hostname);
  }

  async close(): Promise<void> {
    await this.agent.destroy().catch(() => undefined);
  }
}
