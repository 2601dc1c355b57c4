// Alert delivery to ALERT_WEBHOOK_URL: one JSON POST per opening and per resolution, in the shape chat
// incoming webhooks display ({text}), with the alert's facts beside it. Delivery is recorded per event.
import { request } from "undici";
import type { Db } from "../../../db/client";
import { alertSentence } from "../../site/alert-text";
import { recordDeliveryAttempt, undeliveredAlertEvents, type AlertEvent } from "../../store/alerts";

export const WEBHOOK_MAX_ATTEMPTS = 5;
/** Wait before attempt n+1 is base × 4^(n-1): 15 s, 1 min, 4 min, 16 min by default. */
export const WEBHOOK_BACKOFF_MS = 15_000;
/** Events older than this are not sent any more (a webhook configured today should not replay last month). */
export const WEBHOOK_MAX_AGE_MS = 24 * 3_600_000;
const TIMEOUT_MS = 10_000;

export { alertSentence };

export interface WebhookPayload {
  text: string;
  alert: {
    id: number;
    kind: AlertEvent["alert"]["kind"];
    state: AlertEvent["event"]["state"];
    since: string;
    resolvedAt: string | null;
    day: string;
    message: string;
    resolvedMessage: string | null;
    value: number | null;
    baseline: number | null;
    /** What the alert is about for kinds that open one per thing: a region_down's region. */
    subject?: string;
    url?: string;
  };
}

export function webhookPayload(e: AlertEvent, siteUrl?: string): WebhookPayload {
  const a = e.alert;
  return {
    text: alertSentence(e),
    alert: {
      id: a.id,
      kind: a.kind,
      state: e.event.state,
      since: a.createdAt,
      resolvedAt: e.event.state === "resolved" ? a.resolvedAt : null,
      day: a.day,
      message: a.message,
      resolvedMessage: e.event.state === "resolved" ? a.resolvedMessage : null,
      value: a.value,
      baseline: a.baseline,
      ...(a.subject ? { subject: a.subject } : {}),
      ...(siteUrl ? { url: `${siteUrl.replace(/\/+$/, "")}/coverage` } : {}),
    },
  };
}

export interface DeliverOptions {
  url: string;
  now?: () => Date;
  siteUrl?: string;
  backoffMs?: number;
  log?: (line: string) => void;
}

/** POSTs every event that is due (not delivered, not backing off, not given up); never throws. */
export async function deliverPendingAlerts(db: Db, o: DeliverOptions): Promise<{ delivered: number; failed: number }> {
  const now = o.now ?? (() => new Date());
  const log = o.log ?? ((l: string) => console.log(l));
  const backoff = o.backoffMs ?? WEBHOOK_BACKOFF_MS;
  const since = new Date(now().getTime() - WEBHOOK_MAX_AGE_MS).toISOString();
  let delivered = 0;
  let failed = 0;
  for (const e of undeliveredAlertEvents(db, { since, maxAttempts: WEBHOOK_MAX_ATTEMPTS })) {
    const { attempts, lastAttemptAt } = e.event;
    if (attempts > 0 && lastAttemptAt && now().getTime() < Date.parse(lastAttemptAt) + backoff * 4 ** (attempts - 1)) continue;
    const error = await post(o.url, webhookPayload(e, o.siteUrl));
    recordDeliveryAttempt(db, e.event.id, { at: now().toISOString(), delivered: !error, error: error ?? undefined });
    const what = `${e.alert.kind} ${e.event.state === "open" ? "opening" : "resolution"} (alert ${e.alert.id})`;
    if (!error) {
      delivered++;
      log(`[alerts] webhook delivered the ${what}`);
    } else {
      failed++;
      const left = WEBHOOK_MAX_ATTEMPTS - attempts - 1;
      log(
        `[alerts] webhook failed for the ${what}, attempt ${attempts + 1}: ${error}; ${left > 0 ? `${left} attempts left` : "giving up"}`,
      );
    }
  }
  return { delivered, failed };
}

/** null when the receiver answered 2xx, else why not. */
async function post(url: string, payload: WebhookPayload): Promise<string | null> {
  try {
    const res = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "mcp-status-alerts" },
      body: JSON.stringify(payload),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      signal: AbortSignal.timeout(TIMEOUT_MS * 2),
    });
    await res.body.dump();
    return res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`;
  } catch (e) {
    const err = e as Error & { code?: string };
    return err.code ? `${err.code}: ${err.message}` : err.message;
  }
}
