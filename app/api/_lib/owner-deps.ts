import { getConfig } from "@/lib/config";
import { ownerDepsFromConfig, secretsKeysOf } from "@/lib/rounds/owners/wiring";
import { originFrom } from "@/lib/site/origin";
import type { OwnerRouteDeps } from "./owners";

/** The owners' routes' dependencies from the process configuration. */
export function ownerRouteDeps(request: Request): OwnerRouteDeps {
  const config = getConfig();
  return {
    ...ownerDepsFromConfig(config, { siteUrl: originFrom(request.headers, config.publicBaseUrl) }),
    keys: secretsKeysOf(config),
    publicBaseUrl: config.publicBaseUrl,
  };
}
