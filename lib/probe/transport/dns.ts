// DNS for the probe's connections (architecture.md §5): every answer checked against the address policy, and
// pinned, so a later connection cannot be pointed elsewhere by a second answer (rebinding).
import dns from "node:dns";
import type { LookupAddress } from "node:dns";
import type { AddressPolicy } from "../address-policy";
import { isIpLiteral, unbracket } from "../address-policy";

export type DnsLookup = (hostname: string) => Promise<LookupAddress[]>;

/** The address policy refused a host or one of its DNS answers. */
export class AddressRefusedError extends Error {
  readonly code = "MCP_STATUS_ADDRESS_REFUSED";
}

const systemLookup: DnsLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Resolves a host and checks every answer against the policy (literal addresses are checked as they are). */
export async function resolveChecked(
  hostname: string,
  policy: AddressPolicy,
  dnsLookup: DnsLookup = systemLookup,
): Promise<LookupAddress[]> {
  const host = unbracket(hostname);
  if (isIpLiteral(host)) {
    const why = policy.check(host);
    if (why) throw new AddressRefusedError(why);
    return [{ address: host, family: host.includes(":") ? 6 : 4 }];
  }
  const addrs = await dnsLookup(host);
  if (addrs.length === 0) throw Object.assign(new Error(`no address for ${host}`), { code: "ENOTFOUND" });
  for (const a of addrs) {
    const why = policy.check(a.address);
    if (why) throw new AddressRefusedError(`${host} resolves to ${why.replace(/^\S+ is /, `${a.address}, `)}`);
  }
  return addrs;
}

/**
 * One answer per host, resolved once and reused by every later connection. A probe keeps a failed lookup too (one
 * answer per probe, and no retry storm); a round's shared connections forget it, so each probe asks again.
 */
export class PinnedNames {
  private readonly pinned = new Map<string, Promise<LookupAddress[]>>();

  constructor(
    private readonly lookup: (host: string) => Promise<LookupAddress[]>,
    private readonly keepFailures: boolean,
  ) {}

  resolve(hostname: string): Promise<LookupAddress[]> {
    const host = unbracket(hostname);
    let p = this.pinned.get(host);
    if (!p) {
      p = this.lookup(host);
      this.pinned.set(host, p);
      if (!this.keepFailures) p.catch(() => this.pinned.get(host) === p && this.pinned.delete(host));
    }
    return p;
  }
}
