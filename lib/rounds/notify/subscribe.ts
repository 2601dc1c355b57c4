// A sign-up, from the server page's form or the JSON API (architecture.md §10): checked against the limits, then an email gets
// a confirmation link through the outbox, and a webhook gets a test message that must answer 2xx within 10 s before anything
// is stored. A webhook whose address the policy refuses gets no request at all.
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db/client";
import type { AddressPolicy } from "../../probe/address-policy";
import type { DnsLookup } from "../../probe/transport/dns";
import type { Lang } from "../../site/labels";
import { testMessageReason } from "../../site/notify-text";
import { serverIdByName } from "../../store/history";
import { countAttempt, limitKey, saveSubscription } from "../../store/subscriptions";
import { adoptSubscription } from "../../store/owners";
import {
  DEFAULT_NOTIFICATION_EVENTS,
  PUBLIC_NOTIFICATION_EVENTS,
  UNFOLDED_NOTIFICATION_EVENTS,
  WEBHOOK_TEST_EVENT,
  type NotificationEvent,
  type SubscribeError,
} from "../../vocabulary/notifications";
import { linksOf, webhookBody, webhookRequest } from "./messages";
import { WebhookConnections, webhookFlavor, webhookUrlProblem } from "./webhook";

/** Confirmation emails one address may be sent in a day. */
export const EMAILS_PER_DAY = 3;
const HOUR = 3_600_000;

export interface SubscribeDeps {
  db: Db;
  policy: AddressPolicy;
  dnsLookup?: DnsLookup;
  /** False without SMTP_URL. */
  emailOn: boolean;
  /** Sign-ups a client address may post in an hour. */
  hourlyCap: number;
  /** The site's origin, for the links in the answer and in the test message. */
  siteUrl: string;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface SubscribeRequest {
  server: string;
  email?: string;
  webhook?: string;
  events?: readonly string[];
  /** The client address the re-probe limit uses (the last X-Forwarded-For hop), or null. */
  client: string | null;
  lang: Lang;
  /** architecture.md §11: an owner's subscription, made from the manage page of this claim: it also gets the owner events. */
  claimId?: number;
}

export type SubscribeAnswer =
  | { ok: true; status: "confirmation_sent" }
  | { ok: true; status: "active"; secret?: string; manage: string }
  | { ok: false; error: SubscribeError; message: string; retryAfterS?: number };

const refuse = (error: SubscribeError, message: string, retryAfterS?: number): SubscribeAnswer => ({
  ok: false,
  error,
  message,
  ...(retryAfterS !== undefined ? { retryAfterS } : {}),
});

/** A plain check of an email address's form: one @, a local part and a dotted domain, no spaces or angle brackets. */
export function emailProblem(raw: string): string | null {
  if (raw.length > 254) return "An email address may be at most 254 characters long.";
  if (!/^[^\s@<>()",;:\\[\]]{1,64}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/.test(raw))
    return "That is not an email address.";
  return null;
}

/** The domain lower-cased (the local part is the mailbox's own business). */
const normalEmail = (raw: string) => {
  const at = raw.lastIndexOf("@");
  return `${raw.slice(0, at)}@${raw.slice(at + 1).toLowerCase()}`;
};

function eventsOf(raw: readonly string[] | undefined): NotificationEvent[] | string {
  if (raw === undefined || raw.length === 0) return [...DEFAULT_NOTIFICATION_EVENTS];
  const known = new Set<string>(PUBLIC_NOTIFICATION_EVENTS);
  const bad = raw.find((e) => !known.has(e));
  if (bad !== undefined) return bad;
  return PUBLIC_NOTIFICATION_EVENTS.filter((e) => raw.includes(e));
}

const retryAfter = (retryAt: string, now: Date) => Math.max(1, Math.ceil((Date.parse(retryAt) - now.getTime()) / 1000));

export async function subscribe(deps: SubscribeDeps, req: SubscribeRequest): Promise<SubscribeAnswer> {
  const now = deps.now ?? (() => new Date());
  if ((req.email === undefined) === (req.webhook === undefined))
    return refuse("invalid_address", "Send either an email address or a webhook URL.");
  const events = eventsOf(req.events);
  if (typeof events === "string")
    return refuse(
      "unknown_event",
      `Unknown event ${JSON.stringify(events).slice(0, 80)}: choose among ${PUBLIC_NOTIFICATION_EVENTS.join(", ")}.`,
    );
  if (req.email !== undefined && !deps.emailOn)
    return refuse("email_disabled", "Email is off on this site (no SMTP server is set up); webhooks still work.");
  const problem = req.email !== undefined ? emailProblem(req.email) : webhookUrlProblem(req.webhook!);
  if (problem) return refuse("invalid_address", problem);
  const serverId = serverIdByName(deps.db, req.server);
  if (serverId === null) return refuse("unknown_server", "No server by that registry name.");
  const client = countAttempt(deps.db, {
    scope: "client",
    key: limitKey(deps.db, req.client ?? "unknown"),
    now: now(),
    limit: deps.hourlyCap,
    windowMs: HOUR,
  });
  if (!client.ok)
    return refuse(
      "rate_limited",
      `At most ${deps.hourlyCap} sign-ups an hour come from one address; try again later.`,
      retryAfter(client.retryAt, now()),
    );

  if (req.email !== undefined) {
    const address = normalEmail(req.email);
    const day = countAttempt(deps.db, {
      scope: "email",
      key: limitKey(deps.db, address),
      now: now(),
      limit: EMAILS_PER_DAY,
      windowMs: 24 * HOUR,
    });
    if (!day.ok)
      return refuse(
        "rate_limited",
        `At most ${EMAILS_PER_DAY} confirmation emails a day go to one address; try again later.`,
        retryAfter(day.retryAt, now()),
      );
    const saved = saveSubscription(deps.db, { serverId, channel: "email", address, flavor: null, events, lang: req.lang, now: now() });
    if (req.claimId !== undefined) adoptSubscription(deps.db, saved.subscriptionId, req.claimId, UNFOLDED_NOTIFICATION_EVENTS);
    return { ok: true, status: "confirmation_sent" };
  }

  const url = new URL(req.webhook!);
  const flavor = webhookFlavor(url);
  const conns = new WebhookConnections(deps.policy, deps.dnsLookup);
  try {
    const refused = await conns.refusal(url);
    if (refused)
      return refuse(
        "address_not_allowed",
        `The webhook's address is not allowed: ${refused.replace(/^\S+ resolves to /, "it resolves to ")}.`,
      );
    const secret = flavor === "json" ? randomBytes(32).toString("base64url") : null;
    const links = { ...linksOf(deps.siteUrl, req.server, ""), manage: "", unsubscribe: "" };
    const body = webhookBody(
      randomBytes(16).toString("hex"),
      WEBHOOK_TEST_EVENT,
      req.server,
      { reason: testMessageReason(req.server), at: now().toISOString() },
      0,
      links,
    );
    const test = webhookRequest(flavor, secret, body, req.lang, testMessageReason(req.server));
    const r = await conns.post(url, test.body, test.headers);
    if (!r.ok) {
      if (r.refused) return refuse("address_not_allowed", "The webhook's address is not allowed.");
      return refuse("webhook_test_failed", `The test message got ${r.error} instead of a 2xx within 10 seconds.`);
    }
    const saved = saveSubscription(deps.db, {
      serverId,
      channel: "webhook",
      address: url.href,
      flavor,
      events,
      lang: req.lang,
      now: now(),
      secret,
    });
    if (req.claimId !== undefined) adoptSubscription(deps.db, saved.subscriptionId, req.claimId, UNFOLDED_NOTIFICATION_EVENTS);
    deps.log?.(`[notify] subscription ${saved.subscriptionId} (webhook, ${flavor}) active for ${req.server}`);
    return { ok: true, status: "active", ...(secret ? { secret } : {}), manage: linksOf(deps.siteUrl, req.server, saved.token).manage };
  } finally {
    await conns.close();
  }
}
