// The names of subscriptions and their deliveries (architecture.md §10): stored in the database, sent in webhook bodies
// and headers, counted in /metrics, shown on the manage page. Added to, never renamed.

/** What a message tells of. The first five come from a round's writes; the owner events come from the owners' feature and
 * are never folded by the flap rule. */
export const NOTIFICATION_EVENTS = [
  "state_changed",
  "incident_opened",
  "incident_resolved",
  "tools_changed",
  "observations_changed",
  "owner_configuration_refused",
  "owner_token_expiring",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** The events a subscription gets when it names none. */
export const DEFAULT_NOTIFICATION_EVENTS = [
  "state_changed",
  "incident_opened",
  "incident_resolved",
] as const satisfies readonly NotificationEvent[];

/** The events anyone may ask for on a server page or through the API (the owner events go to owners' subscriptions). */
export const PUBLIC_NOTIFICATION_EVENTS = [
  "state_changed",
  "incident_opened",
  "incident_resolved",
  "tools_changed",
  "observations_changed",
] as const satisfies readonly NotificationEvent[];

/** Events sent at once whatever the flap rule says: they are about one owner's configuration, not a flapping server. */
export const UNFOLDED_NOTIFICATION_EVENTS = [
  "owner_configuration_refused",
  "owner_token_expiring",
] as const satisfies readonly NotificationEvent[];

/** How a subscriber is reached. */
export const NOTIFICATION_CHANNELS = ["email", "webhook"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** The message shape a webhook gets: Slack's and Discord's incoming webhooks display their own shapes; any other URL gets the
 * signed JSON of the contract. */
export const WEBHOOK_FLAVORS = ["json", "slack", "discord"] as const;
export type WebhookFlavor = (typeof WEBHOOK_FLAVORS)[number];

/** What an outbox row is: the confirmation link of an email subscription, or a change. */
export const OUTBOX_KINDS = ["confirmation", "event"] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** Where an outbox row stands: waiting (its first try not yet due or made, or a retry due), delivered, folded into a later
 * message of its subscription (the flap rule), or given up after its tries (or its subscriber paused). */
export const OUTBOX_STATES = ["pending", "delivered", "folded", "failed"] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** How one delivery try ended, as /metrics counts it: delivered (2xx, or the SMTP server took the mail), retry (a 5xx, 429 or
 * network error with tries left), failed (given up: a 4xx, or the last try), refused (the address policy refused the webhook's
 * address: nothing was sent). */
export const DELIVERY_OUTCOMES = ["delivered", "retry", "failed", "refused"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Why a subscription could not be made (the API's 400, 404, 429 and 503 `error` codes). */
export const SUBSCRIBE_ERRORS = [
  "invalid_address",
  "address_not_allowed",
  "webhook_test_failed",
  "unknown_event",
  "unknown_server",
  "rate_limited",
  "email_disabled",
] as const;
export type SubscribeError = (typeof SUBSCRIBE_ERRORS)[number];

/** The outcome a server page's form shows after its post (?subscribe=…). */
export const SUBSCRIBE_FLASH_OUTCOMES = ["confirmation_sent", "form_expired", ...SUBSCRIBE_ERRORS] as const;
export type SubscribeFlash = (typeof SUBSCRIBE_FLASH_OUTCOMES)[number];

/** What the sign-up limits count: posts per client address (an hour) and confirmation emails per address (a day). */
export const SUBSCRIBE_LIMIT_SCOPES = ["client", "email"] as const;
export type SubscribeLimitScope = (typeof SUBSCRIBE_LIMIT_SCOPES)[number];

/** The `type` and X-Mcp-Status-Event of the test message a webhook must answer with a 2xx before it is subscribed. */
export const WEBHOOK_TEST_EVENT = "test";
