// One NATS connection, for the site or an agent, from the configuration's values (architecture.md §8). Reconnects
// for ever: a broker that restarts is waited for, never given up on.
import fs from "node:fs";
import { connect, credsAuthenticator, type NatsConnection } from "@nats-io/transport-node";

export interface NatsOptions {
  /** NATS_URL: one URL or a comma list (nats://host:4222, tls://host:4222). */
  url: string;
  user?: string;
  password?: string;
  /** NATS_CREDS: a credentials file (JWT and nkey seed). */
  credsFile?: string;
  /** Shown in the broker's connection list. */
  name: string;
  log?: (line: string) => void;
}

export async function connectNats(options: NatsOptions): Promise<NatsConnection> {
  const log = options.log ?? ((l: string) => console.log(l));
  const nc = await connect({
    servers: options.url.split(",").map((s) => s.trim()),
    name: options.name,
    ...(options.user !== undefined ? { user: options.user, pass: options.password ?? "" } : {}),
    ...(options.credsFile ? { authenticator: credsAuthenticator(fs.readFileSync(options.credsFile)) } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    pingInterval: 10_000,
    maxPingOut: 2,
  });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnect")
        log(`[nats] ${options.name}: ${s.type === "disconnect" ? "disconnected" : "reconnected"} (${s.server})`);
      else if (s.type === "error") log(`[nats] ${options.name}: ${s.error.message}`);
    }
  })().catch(() => undefined);
  return nc;
}
