// The owners' feature from the process configuration: the keys, and the deps the routes and the round's re-check use.
import { getDb } from "../../../db/client";
import type { Config } from "../../config";
import { createAddressPolicy, DEFAULT_USER_AGENT, probeUserAgent } from "../../probe";
import type { SecretsKeys } from "../../store/secrets";
import type { OwnerDeps } from "./claims";

/** SECRETS_KEY and SECRETS_KEY_PREVIOUS; undefined without SECRETS_KEY (owner features off). */
export function secretsKeysOf(config: Config): SecretsKeys | undefined {
  const { secretsKey, secretsKeyPrevious } = config.owners;
  return secretsKey ? { current: secretsKey, ...(secretsKeyPrevious ? { previous: secretsKeyPrevious } : {}) } : undefined;
}

export function ownerDepsFromConfig(config: Config, options: { siteUrl: string; log?: (line: string) => void }): OwnerDeps {
  return {
    db: getDb(config),
    policy: createAddressPolicy({ allowPrivate: config.allowPrivateNetworks }),
    userAgent: config.publicBaseUrl ? probeUserAgent(config.publicBaseUrl) : DEFAULT_USER_AGENT,
    siteUrl: options.siteUrl,
    enabled: config.owners.secretsKey !== undefined,
    ...(options.log ? { log: options.log } : {}),
  };
}
