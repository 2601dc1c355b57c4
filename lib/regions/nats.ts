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

export async function connectNats(o: NatsOptions): Promise<NatsConnection> {
  const log = o.log ?? ((l: string) => console.log(l));
  const nc = await connect({
    servers: o.url.split(",").map((s) => s.trim()),
    name: o.name,
    ...(o.user !== undefined ? { user: o.user, pass: o.password ?? "" } : {}),
    ...(o.credsFile ? { authenticator: credsAuthenticator(fs.readFileSync(o.credsFile)) } : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    waitOnFirstConnect: true,
    pingInterval: 10_000,
    maxPingOut: 2,
  });
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnect")
        log(`[nats] ${o.name}: ${s.type === "disconnect" ? "disconnected" : "reconnected"} (${s.server})`);
      else if (s.type === "error") log(`[nats] ${o.name}: ${s.error.message}`);
    }
  })().catch(() => undefined);
  return nc;
}
