// Posting to a subscriber's webhook through the probe's own guards (architecture.md §5): the address policy on every DNS answer,
// answers pinned for the connection, no redirect followed, the whole exchange within 10 s and the answer read to at most
// 64 KiB. A webhook URL is an address: nothing here logs or returns it, only a status or an error code.
import { createHmac } from "node:crypto";
import { request } from "undici";
import { type AddressPolicy } from "../../probe/address-policy";
import { SharedConnections } from "../../probe/transport/connections";
import { AddressRefusedError, type DnsLookup } from "../../probe/transport/dns";
import { DEFAULT_LIMITS } from "../../probe/types";
import type { WebhookFlavor } from "../../vocabulary/notifications";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_ANSWER_BYTES = 64 * 1024;
export const WEBHOOK_USER_AGENT = "mcp-status-notifications";

/** How one post ended. `retryable`: a 5xx, 429 or a network error (worth another try); a refused address never is. */
export type PostOutcome =
  { ok: true; status: number } | { ok: false; retryable: boolean; refused: boolean; error: string; status?: number };

/** Which shape a webhook URL gets: Slack's and Discord's incoming-webhook hosts display their own; anything else, signed JSON. */
export function webhookFlavor(url: URL): WebhookFlavor {
  const host = url.hostname.toLowerCase();
  if ((host === "hooks.slack.com" || host === "hooks.slack-gov.com") && url.pathname.startsWith("/services/")) return "slack";
  if (/^(?:(?:ptb|canary)\.)?discord(?:app)?\.com$/.test(host) && url.pathname.startsWith("/api/webhooks/")) return "discord";
  return "json";
}

/** Why a string is not a webhook URL we accept, or null. */
export function webhookUrlProblem(raw: string): string | null {
  if (raw.length > 2048) return "A webhook URL may be at most 2,048 characters long.";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The webhook is not a URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "A webhook URL starts with https:// or http://.";
  if (url.username || url.password) return "A webhook URL may not carry a user name or password.";
  return null;
}

/** `sha256=<hex HMAC-SHA256 of the body with the secret>`: the X-Mcp-Status-Signature header. */
export function signature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Connections for a batch of posts: DNS answers checked and pinned for the batch's life, then forgotten with it. */
export class WebhookConnections {
  private readonly shared: SharedConnections;

  constructor(policy: AddressPolicy, dnsLookup?: DnsLookup) {
    this.shared = new SharedConnections({
      policy,
      dnsLookup,
      limits: {
        ...DEFAULT_LIMITS,
        connectTimeoutMs: WEBHOOK_TIMEOUT_MS,
        headersTimeoutMs: WEBHOOK_TIMEOUT_MS,
        bodyTimeoutMs: WEBHOOK_TIMEOUT_MS,
      },
    });
  }

  /** Null when the URL's host passes the address policy (nothing is sent), else why not. */
  async refusal(url: URL): Promise<string | null> {
    try {
      await this.shared.resolve(url.hostname);
      return null;
    } catch (e) {
      return e instanceof AddressRefusedError ? e.message : null;
    }
  }

  /** POSTs `body` with `headers`; never throws. */
  async post(url: URL, body: string, headers: Record<string, string>, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<PostOutcome> {
    try {
      // Literal addresses never reach the Agent's lookup hook: resolve (and check) first.
      await this.shared.resolve(url.hostname);
      const res = await request(url, {
        method: "POST",
        dispatcher: this.shared.agent,
        headers: { "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT, ...headers },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const status = res.statusCode;
      // The status is the answer; a body that is huge or never ends is cut off, not waited for.
      await drain(res.body, WEBHOOK_MAX_ANSWER_BYTES).catch(() => undefined);
      if (status >= 200 && status < 300) return { ok: true, status };
      const retryable = status >= 500 || status === 429;
      // A redirect is not followed: a receiver that moved must be subscribed again at its new URL.
      return {
        ok: false,
        retryable,
        refused: false,
        status,
        error: status >= 300 && status < 400 ? `HTTP ${status} (redirect, not followed)` : `HTTP ${status}`,
      };
    } catch (e) {
      if (e instanceof AddressRefusedError) return { ok: false, retryable: false, refused: true, error: "address not allowed" };
      return { ok: false, retryable: true, refused: false, error: errorCode(e) };
    }
  }

  async close(): Promise<void> {
    await this.shared.close();
  }
}

/** Reads an answer to its end up to `max` bytes, then stops reading (the connection is dropped, not the try). */
async function drain(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<void> {
  let n = 0;
  for await (const chunk of body) {
    n += chunk.length;
    if (n > max) {
      body.destroy();
      return;
    }
  }
}

/** An error as its code, never its message (undici's messages name the host and port). */
function errorCode(e: unknown): string {
  const err = e as { code?: string; name?: string };
  if (err.name === "TimeoutError" || err.name === "AbortError") return "timeout";
  return err.code ?? err.name ?? "network error";
}
