import ipaddr from "ipaddr.js";

/**
 * Which addresses the probe may connect to. The registry lists URLs anyone can publish, so
 * without this a listing could point the probe at our own network (SSRF).
 */
export interface AddressPolicy {
  readonly allowPrivate: boolean;
  /** null when the address may be contacted, else a short reason ("127.0.0.1 is a loopback address"). */
  check(address: string): string | null;
}

export interface AddressPolicyOptions {
  /** Loud knob: lets the probe reach loopback, private, link-local, CGNAT and ULA addresses. */
  allowPrivate: boolean;
  /** Extra CIDR ranges that are allowed even when allowPrivate is false ("127.0.0.1/32"); for tests. */
  allow?: readonly string[];
}

// Range names (ipaddr.js) that are ordinary public unicast. as112/amt are public anycast services.
const PUBLIC_RANGES = new Set(["unicast", "as112", "amt", "as112v6"]);
// Never useful, even on a private network: connecting to 0.0.0.0 reaches localhost on Linux.
const NEVER = new Set(["unspecified", "multicast", "broadcast"]);

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private (RFC 1918) address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT (100.64.0.0/10) address",
  uniqueLocal: "a unique local (fc00::/7) address",
  unspecified: "the unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved or documentation address",
  teredo: "a Teredo tunnel address",
  deprecatedSiteLocal: "a site-local address",
  discard: "a discard-only address",
  benchmarking: "a benchmarking address",
};

/** Strips the brackets a URL puts around an IPv6 literal. */
export function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(unbracket(host));
}

/** The IPv4 address an IPv6 address carries inside it (mapped, translated, NAT64, 6to4), if any. */
function embeddedV4(addr: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const b = addr.toByteArray();
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052") {
    return new ipaddr.IPv4(b.slice(12, 16));
  }
  if (range === "6to4") return new ipaddr.IPv4(b.slice(2, 6));
  return null;
}

export function createAddressPolicy(opts: AddressPolicyOptions): AddressPolicy {
  const allowed = (opts.allow ?? []).map((cidr) => ipaddr.parseCIDR(cidr));

  const classify = (addr: ipaddr.IPv4 | ipaddr.IPv6): { range: string; v4?: ipaddr.IPv4 } => {
    const range = addr.range();
    if (addr.kind() === "ipv6") {
      const v4 = embeddedV4(addr as ipaddr.IPv6, range);
      if (v4) return { range: v4.range(), v4 };
    }
    return { range };
  };

  return {
    allowPrivate: opts.allowPrivate,
    check(address: string): string | null {
      const raw = unbracket(address).split("%")[0] ?? "";
      if (!ipaddr.isValid(raw)) return `${address} is not an IP address`;
      const addr = ipaddr.parse(raw);
      for (const [net, bits] of allowed) {
        if (addr.kind() === net.kind() && addr.match(net, bits)) return null;
        if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() && net.kind() === "ipv4") {
          if ((addr as ipaddr.IPv6).toIPv4Address().match(net, bits)) return null;
        }
      }
      const { range, v4 } = classify(addr);
      if (PUBLIC_RANGES.has(range)) return null;
      if (!NEVER.has(range) && opts.allowPrivate) return null;
      const words = RANGE_WORDS[range] ?? `in the special-purpose range "${range}"`;
      const via = v4 ? ` (it embeds ${v4.toString()})` : "";
      return `${raw} is ${words}${via}`;
    },
  };
}
