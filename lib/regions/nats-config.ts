// The broker configuration the README documents (architecture.md §8): one user for the site, one per region. A region's
// user may subscribe only to its own probe subject and publish only replies, so the broker, not the agent, says which
// region an answer came from.
import { randomBytes } from "node:crypto";
import { MAX_ANSWER_BYTES } from "./wire";
import { agentQueue, ALL_PROBE_SUBJECTS, probeSubject, REGION_ID } from "../vocabulary/regions";

export interface NatsConfigInput {
  regions: readonly string[];
  /** host:port the broker listens on. */
  listen: string;
  /** Passwords by user; missing ones are generated. */
  passwords?: Record<string, string>;
  /** TLS for production: certificate and key files (and a CA for clients that present certificates). */
  tls?: { certFile: string; keyFile: string; caFile?: string };
}

export interface NatsConfigOutput {
  text: string;
  /** user → password, for NATS_USER/NATS_PASSWORD of the site (`site`) and of each region's agents (`agent-<id>`). */
  users: Record<string, string>;
}

export const SITE_USER = "site";
export const agentUser = (region: string) => `agent-${region}`;

const quote = (s: string) => JSON.stringify(s);

export function natsServerConfig(options: NatsConfigInput): NatsConfigOutput {
  for (const r of options.regions) if (!REGION_ID.test(r)) throw new Error(`${JSON.stringify(r)} is not a region id (${REGION_ID})`);
  const users: Record<string, string> = {};
  const pw = (u: string) => (users[u] = options.passwords?.[u] ?? randomBytes(18).toString("base64url"));
  const lines = [
    "# mcp-status: NATS for probing from several regions (written by npm run nats-config).",
    `listen: ${options.listen}`,
    `max_payload: ${MAX_ANSWER_BYTES}`,
    ...(options.tls
      ? [
          "tls {",
          `  cert_file: ${quote(options.tls.certFile)}`,
          `  key_file: ${quote(options.tls.keyFile)}`,
          ...(options.tls.caFile ? [`  ca_file: ${quote(options.tls.caFile)}`] : []),
          "}",
        ]
      : []),
    "authorization {",
    "  users = [",
    `    # The site: sends every region's probes and reads the answers on its inbox.`,
    `    { user: ${quote(SITE_USER)}, password: ${quote(pw(SITE_USER))}, permissions: { publish: [${quote(ALL_PROBE_SUBJECTS)}], subscribe: ["_INBOX.>"] } }`,
    ...options.regions.flatMap((r) => [
      `    # Region ${r}: its own subject in the queue group ${agentQueue(r)}, and replies only.`,
      `    { user: ${quote(agentUser(r))}, password: ${quote(pw(agentUser(r)))}, permissions: { subscribe: [${quote(probeSubject(r))}], publish: { deny: [">"] }, allow_responses: true } }`,
    ]),
    "  ]",
    "}",
  ];
  return { text: lines.join("\n") + "\n", users };
}
