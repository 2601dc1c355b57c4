// Why a probe's request got no HTTP answer: the kinds the probe records, the checks judge and the regions weigh.

/**
 * Why a request got no HTTP answer at all, when the cause lies in the network between the probe and the
 * server (architecture.md §2.7): such a failure may be the probe's own. `nxdomain` (the name does not exist) and
 * `dns_unavailable` (the resolver did not answer) are told apart because only the second can be ours.
 */
export const NETWORK_ERROR_KINDS = ["dns_unavailable", "nxdomain", "refused", "connect_timeout", "tls", "reset"] as const;
export type NetworkErrorKind = (typeof NETWORK_ERROR_KINDS)[number];
