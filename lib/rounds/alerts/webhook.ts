// Alert delivery to ALERT_WEBHOOK_URL: one JSON POST per opening and per resolution, in the shape chat
// incoming webhooks display ({text}), with the alert's facts beside it. Delivery is recorded per event.
import { request } from "undici";
import type { Db } from "../../../db/client";
import type { UnwritableAlert } from "../../../db/write-watch";
import { alertSentence } from "../../site/alert-text";
import { recordDeliveryAttempt, undeliveredAlertEvents, type AlertEvent } from "../../store/alerts";
import { heldAlert } from "./unwritable";

export const WEBHOOK_MAX_ATTEMPTS = 5;
/** Wait before attempt n+1 is base × 4^(n-1): 15 s, 1 min, 4 min, 16 min by default. */
export const WEBHOOK_BACKOFF_MS = 15_000;
/** Events older than this are not sent any more (a webhook configured today should not replay last month). */
export const WEBHOOK_MAX_AGE_MS = 24 * 3_600_000;
const TIMEOUT_MS = 10_000;

export { alertSentence };

/** An event to send: a stored one, or the opening of the alert held in memory (id null until it is stored). */
type Sendable = { event: Pick<AlertEvent["event"], "state">; alert: Omit<AlertEvent["alert"], "id"> & { id: number | null } };

export interface WebhookPayload {
  text: string;
  alert: {
    id: number | null;
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

export function webhookPayload(e: Sendable, siteUrl?: string): WebhookPayload {
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
export async function deliverPendingAlerts(db: Db, options: DeliverOptions): Promise<{ delivered: number; failed: number }> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? ((l: string) => console.log(l));
  const backoff = options.backoffMs ?? WEBHOOK_BACKOFF_MS;
  const since = new Date(now().getTime() - WEBHOOK_MAX_AGE_MS).toISOString();
  let delivered = 0;
  let failed = 0;
  for (const e of undeliveredAlertEvents(db, { since, maxAttempts: WEBHOOK_MAX_ATTEMPTS })) {
    const { attempts, lastAttemptAt } = e.event;
    if (!attemptDue(attempts, lastAttemptAt, now(), backoff)) continue;
    const error = await post(options.url, webhookPayload(e, options.siteUrl));
    recordDeliveryAttempt(db, e.event.id, { at: now().toISOString(), delivered: !error, error: error ?? undefined });
    logAttempt(log, `${e.alert.kind} ${e.event.state === "open" ? "opening" : "resolution"} (alert ${e.alert.id})`, attempts, error);
    if (!error) delivered++;
    else failed++;
  }
  return { delivered, failed };
}

/** POSTs the opening of database_unwritable, which cannot be stored, with the same retries; its delivery is kept on the
 * held alert and stored with it once writes work again. Never throws. */
export async function deliverHeldOpening(db: Db, held: UnwritableAlert, options: DeliverOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  const d = held.opening;
  const view = heldAlert(db);
  if (
    !view ||
    d.deliveredAt ||
    d.attempts >= WEBHOOK_MAX_ATTEMPTS ||
    !attemptDue(d.attempts, d.lastAttemptAt, now(), options.backoffMs ?? WEBHOOK_BACKOFF_MS)
  )
    return;
  const alert = { ...view, resolvedAt: null, resolvedMessage: null };
  const error = await post(options.url, webhookPayload({ event: { state: "open" }, alert }, options.siteUrl));
  const at = now().toISOString();
  logAttempt(options.log ?? ((l: string) => console.log(l)), "database_unwritable opening (held in memory)", d.attempts, error);
  Object.assign(d, {
    attempts: d.attempts + 1,
    lastAttemptAt: at,
    ...(error ? { lastError: error } : { deliveredAt: at, lastError: null }),
  });
}

/** Attempt n+1 waits base × 4^(n-1) after attempt n. */
function attemptDue(attempts: number, lastAttemptAt: string | null, now: Date, backoffMs: number): boolean {
  return attempts === 0 || !lastAttemptAt || now.getTime() >= Date.parse(lastAttemptAt) + backoffMs * 4 ** (attempts - 1);
}

function logAttempt(log: (line: string) => void, what: string, attempts: number, error: string | null): void {
  if (!error) return log(`[alerts] webhook delivered the ${what}`);
  const left = WEBHOOK_MAX_ATTEMPTS - attempts - 1;
  log(`[alerts] webhook failed for the ${what}, attempt ${attempts + 1}: ${error}; ${left > 0 ? `${left} attempts left` : "giving up"}`);
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
