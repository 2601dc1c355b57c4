// The kinds the judges must store beside the states for the zoo cases where the kind is the point: the index names
// them on its chips, the overall headline carries them, and the cross-reader's "explained" rests on the no-fallback
// rule. Every other case is held to the same invariants by the zoo harness (a kind on every Not checked, none
// elsewhere). Data only, beside expectations.ts.
import type { CheckId, NoFallbackRule, NotCheckedCause } from "@/lib/vocabulary/checks";
import { REACH_CAUSES } from "./reach";

export interface ZooCauses {
  causes?: Partial<Record<CheckId, NotCheckedCause>>;
  /** The rule (and number) that ended discovery without a fallback, on the first discovery check that carries one. */
  noFallback?: { rule: NoFallbackRule; code: number | null };
}

const discovery = (cause: NotCheckedCause) => ({ handshake: cause, protocol_version: cause, tools_list: cause });
const every = (cause: NotCheckedCause) => ({ ...discovery(cause), error_taxonomy: cause, auth_metadata: cause });

export const ZOO_CAUSES: Record<string, ZooCauses> = {
  "modern-healthy-paged": { causes: { auth_metadata: "no_challenge" } },
  "credential-gate-valid-prm": { causes: { ...discovery("credential_required"), error_taxonomy: "withheld" } },
  "modern-tools-list-gated": { causes: { tools_list: "credential_required", error_taxonomy: "withheld" } },
  "slow-down-429-discover": { causes: every("slow_down") },
  "slow-down-503-retry-after-discover": { causes: every("slow_down") },
  "opted-out-host": { causes: every("opted_out") },
  "auth-prm-on-opted-out-host": { causes: { auth_metadata: "opted_out" } },
  "auth-prm-private-address": { causes: { auth_metadata: "address_policy" } },
  "auth-challenge-without-resource-metadata": { causes: { auth_metadata: "no_metadata_url" } },
  "tools-list-outlasts-deadline": { causes: { tools_list: "deadline" } },
  "reserved-name-listed": { causes: { error_taxonomy: "withheld" } },
  "discover-500-stack-trace": { noFallback: { rule: "discover_server_error", code: 500 }, causes: { error_taxonomy: "withheld" } },
  "discover-503-without-retry-after": { noFallback: { rule: "discover_server_error", code: 503 } },
  "declined-32022-json": { noFallback: { rule: "modern_declined", code: -32022 } },
  "declined-32020-sse": { noFallback: { rule: "modern_declined", code: -32020 } },
  "hostile-redirect-discover": { noFallback: { rule: "discover_redirect", code: 302 } },
  "redirect-http-to-https": { noFallback: { rule: "discover_redirect", code: 301 } },
  "redirect-without-location": { noFallback: { rule: "discover_redirect", code: 302 } },
  "discover-only-newer-versions": { noFallback: { rule: "newer_revisions_only", code: null } },
  ...REACH_CAUSES,
};
