import { createHmac, randomBytes } from "node:crypto";
import { transaction, type Db } from "../../db/client";
import type { NotificationChannel, NotificationEvent, OutboxKind, SubscribeLimitScope, WebhookFlavor } from "../vocabulary/notifications";
import { UNFOLDED_NOTIFICATION_EVENTS } from "../vocabulary/notifications";
import type { DeliveryOutcome } from "../vocabulary/notifications";
import { countEvent } from "./counters";
import { prepared } from "./prepared";
import { metaOnce } from "./reprobe";
import { getMeta, META_KEYS, setMeta } from "./meta";

// Subscriptions, their outbox and the sign-up limits (architecture.md §10). Addresses go in and never come out of this
// module except to the sender (`takeDueMessages`): every view it answers names a subscriber by channel and shape only.

const SITE_KEY_META = "subscriptions_key";
const HOUR = 3_600_000;

/** A fresh capability token (the confirm, manage and unsubscribe links) or webhook secret. */
export const newToken = () => randomBytes(24).toString("base64url");

const siteKey = (db: Db) => metaOnce(db, SITE_KEY_META, () => randomBytes(32).toString("hex"));

/** The key an address is counted under by the sign-up limits: an HMAC with the site's own key, so no address is stored. */
export function limitKey(db: Db, address: string): string {
  return createHmac("sha256", siteKey(db)).update(address).digest("base64url");
}

/** What a subscriber is found by (its unique index): an HMAC of channel and address with the site's key, another input than
 * the limits' keys. The index never holds the address, whose bytes a deleted index entry can leave in interior pages. */
function addressHash(db: Db, channel: NotificationChannel, address: string): string {
  return createHmac("sha256", siteKey(db)).update(`subscriber\n${channel}\n${address}`).digest("base64url");
}

// Connections whose subscribers all carry their hash (kept on globalThis: a page and a route are separate bundles).
const HASHED_KEY = Symbol.for("mcp-status.store.subscribers-hashed");
const hashed = ((globalThis as { [HASHED_KEY]?: WeakSet<object> })[HASHED_KEY] ??= new WeakSet());

/** Gives every subscriber stored before address hashes (migration 0021) its hash: once per connection, before a sign-up
 * looks one up. Rows are unique by address already, so their hashes are too. */
function hashStoredAddresses(db: Db): void {
  if (hashed.has(db.$client)) return;
  const c = db.$client;
  const rows = c.prepare("select id, channel, address from subscribers where address_hash is null").all() as {
    id: number;
    channel: NotificationChannel;
    address: string;
  }[];
  if (rows.length > 0) {
    const set = c.prepare("update subscribers set address_hash = ? where id = ? and address = ?");
    transaction(db, () => {
      for (const r of rows) set.run(addressHash(db, r.channel, r.address), r.id, r.address);
    });
  }
  hashed.add(c);
}

export type LimitVerdict = { ok: true } | { ok: false; retryAt: string };

/** Counts one sign-up under `scope` and `key` unless `limit` were already counted in the last `windowMs`; check and count in
 * one immediate transaction, so concurrent posts cannot both slip under the limit. */
export function countAttempt(
  db: Db,
  options: { scope: SubscribeLimitScope; key: string; now: Date; limit: number; windowMs: number },
): LimitVerdict {
  return transaction(db, () => {
    const since = new Date(options.now.getTime() - options.windowMs).toISOString();
    const rows = db.$client
      .prepare("select at from subscribe_attempts where scope = ? and key = ? and at > ? order by at")
      .pluck()
      .all(options.scope, options.key, since) as string[];
    if (rows.length >= options.limit) {
      const oldest = rows[rows.length - options.limit]!;
      return { ok: false, retryAt: new Date(Date.parse(oldest) + options.windowMs).toISOString() };
    }
    db.$client
      .prepare("insert into subscribe_attempts (scope, key, at) values (?, ?, ?)")
      .run(options.scope, options.key, options.now.toISOString());
    return { ok: true };
  });
}

export interface NewSubscription {
  serverId: number;
  channel: NotificationChannel;
  address: string;
  flavor: WebhookFlavor | null;
  events: readonly NotificationEvent[];
  lang: string;
  now: Date;
  /** Webhooks: the signing secret (null for Slack and Discord shapes). Email: undefined. */
  secret?: string | null;
}

export interface SavedSubscription {
  subscriptionId: number;
  token: string;
  confirmed: boolean;
}

/** Writes a subscriber and its subscription to one server, in one transaction. An email subscription stays unconfirmed and
 * gets a confirmation message in the outbox (a confirmed one keeps its events and gets the link again); a webhook, whose test
 * message already got its 2xx, is confirmed at once and takes the new secret and events. */
export function saveSubscription(db: Db, s: NewSubscription): SavedSubscription {
  hashStoredAddresses(db);
  return transaction(db, () => {
    const nowIso = s.now.toISOString();
    const c = db.$client;
    const hash = addressHash(db, s.channel, s.address);
    c.prepare(
      `insert into subscribers (channel, address, address_hash, flavor, lang, created_at) values (?, ?, ?, ?, ?, ?)
       on conflict (address_hash) do update set lang = excluded.lang`,
    ).run(s.channel, s.address, hash, s.flavor, s.lang, nowIso);
    const subscriberId = c.prepare("select id from subscribers where address_hash = ?").pluck().get(hash) as number;
    const existing = c
      .prepare("select id, token, confirmed_at from subscriptions where subscriber_id = ? and server_id = ?")
      .get(subscriberId, s.serverId) as { id: number; token: string; confirmed_at: string | null } | undefined;
    const events = JSON.stringify(s.events);
    if (s.channel === "webhook") {
      c.prepare("update subscribers set failing_since = null, paused_at = null where id = ?").run(subscriberId);
      if (existing) {
        c.prepare("update subscriptions set events = ?, secret = ?, confirmed_at = coalesce(confirmed_at, ?) where id = ?").run(
          events,
          s.secret ?? null,
          nowIso,
          existing.id,
        );
        return { subscriptionId: existing.id, token: existing.token, confirmed: true };
      }
      const token = newToken();
      const id = c
        .prepare(
          "insert into subscriptions (subscriber_id, server_id, token, events, secret, created_at, confirmed_at) values (?, ?, ?, ?, ?, ?, ?) returning id",
        )
        .pluck()
        .get(subscriberId, s.serverId, token, events, s.secret ?? null, nowIso, nowIso) as number;
      return { subscriptionId: id, token, confirmed: true };
    }
    let id: number;
    let token: string;
    if (existing) {
      ({ id, token } = existing);
      if (!existing.confirmed_at) c.prepare("update subscriptions set events = ?, created_at = ? where id = ?").run(events, nowIso, id);
    } else {
      token = newToken();
      id = c
        .prepare("insert into subscriptions (subscriber_id, server_id, token, events, created_at) values (?, ?, ?, ?, ?) returning id")
        .pluck()
        .get(subscriberId, s.serverId, token, events, nowIso) as number;
    }
    insertMessage(db, { subscriptionId: id, kind: "confirmation", event: null, facts: {}, now: s.now, dueNow: true });
    return { subscriptionId: id, token, confirmed: existing?.confirmed_at != null };
  });
}

function insertMessage(
  db: Db,
  m: { subscriptionId: number; kind: OutboxKind; event: NotificationEvent | null; facts: object; now: Date; dueNow: boolean },
): void {
  const nowIso = m.now.toISOString();
  db.$client
    .prepare(
      "insert into outbox (message_id, subscription_id, kind, event, facts, created_at, due_at, next_try_at) values (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .run(
      newMessageId(),
      m.subscriptionId,
      m.kind,
      m.event,
      JSON.stringify(m.facts),
      nowIso,
      m.dueNow ? nowIso : null,
      m.dueNow ? nowIso : null,
    );
}

const newMessageId = () => randomBytes(16).toString("hex");

export type ConfirmOutcome = "confirmed" | "already_confirmed" | "expired" | "unknown";

/** Opens a confirmation link: confirms the subscription while it is younger than `maxAgeMs`. */
export function confirmSubscription(db: Db, token: string, now: Date, maxAgeMs: number): ConfirmOutcome {
  return transaction(db, () => {
    const row = db.$client.prepare("select id, created_at, confirmed_at from subscriptions where token = ?").get(token) as
      { id: number; created_at: string; confirmed_at: string | null } | undefined;
    if (!row) return "unknown";
    if (row.confirmed_at) return "already_confirmed";
    if (now.getTime() - Date.parse(row.created_at) > maxAgeMs) return "expired";
    db.$client.prepare("update subscriptions set confirmed_at = ? where id = ?").run(now.toISOString(), row.id);
    return "confirmed";
  });
}

/**
 * Runs `write` (one transaction that deletes or overwrites addresses or secrets) so the old bytes leave the file too, not only
 * the tables (architecture.md §10): SQLite's secure_delete zeroes the freed space, and a TRUNCATE checkpoint empties the
 * write-ahead log, which still holds the pages as they were. The checkpoint cannot finish while a reader (another process)
 * is on an older snapshot: then it is left pending and `finishErasure` completes it on the sender's next pass.
 */
function erasing<T>(db: Db, write: () => T): T {
  const c = db.$client;
  const mode = secureDeleteMode(db);
  c.pragma("secure_delete = ON");
  let out: T;
  try {
    out = transaction(db, () => {
      const r = write();
      if (!getMeta(db, META_KEYS.erasurePendingSince)) setMeta(db, META_KEYS.erasurePendingSince, new Date().toISOString());
      return r;
    });
  } finally {
    c.pragma(`secure_delete = ${mode}`);
  }
  finishErasure(db);
  return out;
}

/** The connection's secure_delete setting by name: the pragma reads back 0, 1 or 2, but takes 2 as ON, not FAST. */
function secureDeleteMode(db: Db): "OFF" | "ON" | "FAST" {
  return (["OFF", "ON", "FAST"] as const)[db.$client.pragma("secure_delete", { simple: true }) as number] ?? "ON";
}

/** Deletes the subscriptions an owner's claim made (architecture.md §11) and the subscribers left without one, inside the
 * caller's transaction, as an erasure: freed bytes zeroed, and the write-ahead log emptied once the transaction is over
 * (`finishErasure`: the caller's, or the sender's next pass). */
export function eraseClaimSubscriptions(db: Db, claimId: number): void {
  const c = db.$client;
  const mode = secureDeleteMode(db);
  c.pragma("secure_delete = ON");
  try {
    if (c.prepare("delete from subscriptions where claim_id = ?").run(claimId).changes === 0) return;
    dropEmptySubscribers(db);
    if (!getMeta(db, META_KEYS.erasurePendingSince)) setMeta(db, META_KEYS.erasurePendingSince, new Date().toISOString());
  } finally {
    c.pragma(`secure_delete = ${mode}`);
  }
}

/** Empties the write-ahead log if an erasure is pending, without waiting on readers (a request must not stall on them).
 * True when nothing is left pending. */
export function finishErasure(db: Db): boolean {
  if (!getMeta(db, META_KEYS.erasurePendingSince)) return true;
  const c = db.$client;
  const wait = c.pragma("busy_timeout", { simple: true }) as number;
  c.pragma("busy_timeout = 0");
  let done = false;
  try {
    const [r] = c.pragma("wal_checkpoint(TRUNCATE)") as { busy: number; log: number; checkpointed: number }[];
    done = r !== undefined && r.busy === 0 && r.log <= 0;
  } catch {
    // SQLITE_BUSY or LOCKED: another connection holds the checkpoint or a write; the next pass tries again.
  } finally {
    c.pragma(`busy_timeout = ${wait}`);
  }
  // The flag's own removal is a fresh, small write-ahead log: it holds no address.
  if (done) c.prepare("delete from meta where key = ?").run(META_KEYS.erasurePendingSince);
  return done;
}

/** Deletes the subscriber when it holds no subscription any more: an unsubscribed address is not kept. */
function dropEmptySubscribers(db: Db): void {
  db.$client
    .prepare("delete from subscribers where not exists (select 1 from subscriptions s where s.subscriber_id = subscribers.id)")
    .run();
}

/** Removes one subscription (its pending messages with it). False when the token names none. */
export function unsubscribe(db: Db, token: string): boolean {
  return erasing(db, () => {
    const n = db.$client.prepare("delete from subscriptions where token = ?").run(token).changes;
    dropEmptySubscribers(db);
    return n > 0;
  });
}

/** Deletes the subscriber that holds `token`, with every subscription and message it had. */
export function deleteSubscriber(db: Db, token: string): boolean {
  return erasing(db, () => {
    const id = subscriberOf(db, token);
    if (id === null) return false;
    db.$client.prepare("delete from subscribers where id = ?").run(id);
    return true;
  });
}

function subscriberOf(db: Db, token: string): number | null {
  return (db.$client.prepare("select subscriber_id from subscriptions where token = ?").pluck().get(token) as number | undefined) ?? null;
}

/** A new signing secret for a signed webhook subscription, answered once; the old one is erased from the file (a receiver
 * checks with the new one from the next message on). Null when the token names none, or a Slack or Discord one (unsigned). */
export function rotateSecret(db: Db, token: string): string | null {
  const secret = newToken();
  const changed = erasing(
    db,
    () => db.$client.prepare("update subscriptions set secret = ? where token = ? and secret is not null").run(secret, token).changes,
  );
  return changed > 0 ? secret : null;
}

/** Sets the events of one subscription; an owner's subscription (architecture.md §11) keeps the owner events whatever is set. */
export function setEvents(db: Db, token: string, events: readonly NotificationEvent[]): boolean {
  const owner = JSON.stringify([...new Set([...events, ...UNFOLDED_NOTIFICATION_EVENTS])]);
  return (
    db.$client
      .prepare("update subscriptions set events = case when claim_id is null then ? else ? end where token = ?")
      .run(JSON.stringify(events), owner, token).changes > 0
  );
}

/** Takes a paused webhook up again: its failures start counting anew. */
export function resumeSubscriber(db: Db, token: string): boolean {
  const id = subscriberOf(db, token);
  if (id === null) return false;
  db.$client.prepare("update subscribers set paused_at = null, failing_since = null where id = ?").run(id);
  return true;
}

export interface ManagedSubscription {
  token: string;
  server: string;
  events: NotificationEvent[];
  createdAt: string;
  confirmedAt: string | null;
  lastSentAt: string | null;
}

/** What a manage link shows: the subscriber by channel and shape (never its address) and all its subscriptions. */
export interface ManageView {
  channel: NotificationChannel;
  flavor: WebhookFlavor | null;
  lang: string;
  failingSince: string | null;
  pausedAt: string | null;
  subscriptions: ManagedSubscription[];
}

export function manageView(db: Db, token: string): ManageView | null {
  const id = subscriberOf(db, token);
  if (id === null) return null;
  const b = db.$client.prepare("select channel, flavor, lang, failing_since, paused_at from subscribers where id = ?").get(id) as {
    channel: NotificationChannel;
    flavor: WebhookFlavor | null;
    lang: string;
    failing_since: string | null;
    paused_at: string | null;
  };
  const rows = db.$client
    .prepare(
      `select s.token, v.name as server, s.events, s.created_at, s.confirmed_at, s.last_sent_at
       from subscriptions s join servers v on v.id = s.server_id where s.subscriber_id = ? order by v.name`,
    )
    .all(id) as {
    token: string;
    server: string;
    events: string;
    created_at: string;
    confirmed_at: string | null;
    last_sent_at: string | null;
  }[];
  return {
    channel: b.channel,
    flavor: b.flavor,
    lang: b.lang,
    failingSince: b.failing_since,
    pausedAt: b.paused_at,
    subscriptions: rows.map((r) => ({
      token: r.token,
      server: r.server,
      events: JSON.parse(r.events) as NotificationEvent[],
      createdAt: r.created_at,
      confirmedAt: r.confirmed_at,
      lastSentAt: r.last_sent_at,
    })),
  };
}

/** Puts a change of one server in the outbox of every confirmed, unpaused subscription that asked for its event: one statement,
 * in the caller's transaction (the one that writes the change), however many subscribers there are. Returns the rows written. */
export function enqueueServerEvent(db: Db, serverId: number, event: NotificationEvent, facts: object, now: Date): number {
  const nowIso = now.toISOString();
  const unfolded = (UNFOLDED_NOTIFICATION_EVENTS as readonly string[]).includes(event);
  return prepared(db, "outbox.enqueue", () =>
    db.$client.prepare(
      `insert into outbox (message_id, subscription_id, kind, event, facts, created_at, due_at, next_try_at)
       select lower(hex(randomblob(16))), s.id, 'event', @event, @facts, @now, @due, @due
       from subscriptions s join subscribers b on b.id = s.subscriber_id
       where s.server_id = @serverId and s.confirmed_at is not null and b.paused_at is null
         and exists (select 1 from json_each(s.events) where value = @event)`,
    ),
  ).run({ serverId, event, facts: JSON.stringify(facts), now: nowIso, due: unfolded ? nowIso : null }).changes;
}

/** The flap rule (architecture.md §10): a subscription whose last message went out `foldMs` ago or more (or never) gets its
 * waiting changes as one message, now: the latest state change (or the latest change), the others folded into it ("and N
 * more changes"). A
 * subscription with a message still being tried waits for it. Forms at most `batch` messages; returns how many. */
export function formMessages(db: Db, now: Date, options: { foldMs: number; batch: number }): number {
  const nowIso = now.toISOString();
  const before = new Date(now.getTime() - options.foldMs).toISOString();
  return transaction(db, () => {
    const c = db.$client;
    const ready = c
      .prepare(
        `select s.id from subscriptions s
         where (s.last_sent_at is null or s.last_sent_at <= @before)
           and exists (select 1 from outbox o where o.subscription_id = s.id and o.state = 'pending' and o.due_at is null)
           and not exists (select 1 from outbox o where o.subscription_id = s.id and o.state = 'pending' and o.due_at is not null and o.kind = 'event')
         limit @batch`,
      )
      .pluck()
      .all({ before, batch: options.batch }) as number[];
    const waiting = c.prepare(
      "select id, event, facts from outbox where subscription_id = ? and state = 'pending' and due_at is null order by id",
    );
    const fold = c.prepare("update outbox set state = 'folded', folded_into = ?, done_at = ? where id = ?");
    const head = c.prepare("update outbox set due_at = ?, next_try_at = ?, folded = ?, facts = ? where id = ?");
    const sent = c.prepare("update subscriptions set last_sent_at = ? where id = ?");
    for (const id of ready) {
      const rows = waiting.all(id) as { id: number; event: NotificationEvent | null; facts: string }[];
      if (rows.length === 0) continue;
      // The message leads with the latest state change (from the state before the first one folded), else the latest change.
      const states = rows.filter((r) => r.event === "state_changed");
      const lead = states[states.length - 1] ?? rows[rows.length - 1]!;
      const facts = JSON.parse(lead.facts) as Record<string, unknown>;
      if (states.length > 1) facts.from = (JSON.parse(states[0]!.facts) as Record<string, unknown>).from;
      for (const r of rows) if (r.id !== lead.id) fold.run(lead.id, nowIso, r.id);
      head.run(nowIso, nowIso, rows.length - 1, JSON.stringify(facts), lead.id);
      sent.run(nowIso, id);
    }
    return ready.length;
  });
}

/** A message ready to be tried, with what the sender needs (the one place an address leaves the store). */
export interface DueMessage {
  id: number;
  messageId: string;
  kind: OutboxKind;
  event: NotificationEvent | null;
  facts: Record<string, unknown>;
  createdAt: string;
  attempts: number;
  folded: number;
  subscriptionId: number;
  token: string;
  secret: string | null;
  confirmed: boolean;
  server: string;
  subscriberId: number;
  channel: NotificationChannel;
  address: string;
  flavor: WebhookFlavor | null;
  lang: string;
  failingSince: string | null;
}

/** Takes up to `limit` messages whose try is due and leases them for `leaseMs` (a process killed mid-try leaves them to be
 * tried again once the lease is over). Messages of a paused subscriber are not taken. */
export function takeDueMessages(db: Db, now: Date, options: { limit: number; leaseMs: number }): DueMessage[] {
  const nowIso = now.toISOString();
  return transaction(db, () => {
    const c = db.$client;
    const rows = c
      .prepare(
        `select o.id, o.message_id, o.kind, o.event, o.facts, o.created_at, o.attempts, o.folded, s.id as subscription_id, s.token,
                s.secret, s.confirmed_at, v.name as server, b.id as subscriber_id, b.channel, b.address, b.flavor, b.lang, b.failing_since
         from outbox o join subscriptions s on s.id = o.subscription_id join subscribers b on b.id = s.subscriber_id
           join servers v on v.id = s.server_id
         where o.state = 'pending' and o.next_try_at is not null and o.next_try_at <= ? and b.paused_at is null
         order by o.next_try_at limit ?`,
      )
      .all(nowIso, options.limit) as {
      id: number;
      message_id: string;
      kind: OutboxKind;
      event: NotificationEvent | null;
      facts: string;
      created_at: string;
      attempts: number;
      folded: number;
      subscription_id: number;
      token: string;
      secret: string | null;
      confirmed_at: string | null;
      server: string;
      subscriber_id: number;
      channel: NotificationChannel;
      address: string;
      flavor: WebhookFlavor | null;
      lang: string;
      failing_since: string | null;
    }[];
    const lease = new Date(now.getTime() + options.leaseMs).toISOString();
    const take = c.prepare("update outbox set next_try_at = ? where id = ?");
    for (const r of rows) take.run(lease, r.id);
    return rows.map((r) => ({
      id: r.id,
      messageId: r.message_id,
      kind: r.kind,
      event: r.event,
      facts: JSON.parse(r.facts) as Record<string, unknown>,
      createdAt: r.created_at,
      attempts: r.attempts,
      folded: r.folded,
      subscriptionId: r.subscription_id,
      token: r.token,
      secret: r.secret,
      confirmed: r.confirmed_at !== null,
      server: r.server,
      subscriberId: r.subscriber_id,
      channel: r.channel,
      address: r.address,
      flavor: r.flavor,
      lang: r.lang,
      failingSince: r.failing_since,
    }));
  });
}

/** What became of one try. */
export type TryResult =
  | { kind: "delivered" }
  /** Tried again at `nextTryAt`. */
  | { kind: "retry"; error: string; nextTryAt: string }
  /** Given up. `pause`: the subscriber has failed long enough to be paused. */
  | { kind: "failed"; error: string }
  /** Not sent: an email subscription that is not confirmed (nothing but the confirmation goes to it). */
  | { kind: "dropped"; error: string };

/** Records a try, and what it means for its subscriber: a delivery clears its failing streak; a failure starts one, and a
 * webhook whose streak is `pauseAfterMs` old is paused. Returns true when this try paused the subscriber. */
export function recordTry(
  db: Db,
  m: Pick<DueMessage, "id" | "subscriberId" | "channel">,
  r: TryResult,
  now: Date,
  pauseAfterMs: number,
  outcome?: DeliveryOutcome,
): boolean {
  const nowIso = now.toISOString();
  return transaction(db, () => {
    const c = db.$client;
    countEvent(db, "notification_deliveries", `${m.channel}:${outcome ?? (r.kind === "dropped" ? "failed" : r.kind)}`);
    switch (r.kind) {
      case "delivered":
        c.prepare("update outbox set state = 'delivered', attempts = attempts + 1, done_at = ?, last_error = null where id = ?").run(
          nowIso,
          m.id,
        );
        c.prepare("update subscribers set failing_since = null where id = ? and failing_since is not null").run(m.subscriberId);
        return false;
      case "retry":
        c.prepare("update outbox set attempts = attempts + 1, next_try_at = ?, last_error = ? where id = ?").run(
          r.nextTryAt,
          r.error,
          m.id,
        );
        break;
      case "failed":
      case "dropped":
        c.prepare("update outbox set state = 'failed', attempts = attempts + 1, done_at = ?, last_error = ? where id = ?").run(
          nowIso,
          r.error,
          m.id,
        );
        break;
    }
    if (m.channel !== "webhook" || r.kind === "dropped") return false;
    c.prepare("update subscribers set failing_since = ? where id = ? and failing_since is null").run(nowIso, m.subscriberId);
    const since = c.prepare("select failing_since from subscribers where id = ?").pluck().get(m.subscriberId) as string | null | undefined;
    if (!since || now.getTime() - Date.parse(since) < pauseAfterMs) return false;
    c.prepare("update subscribers set paused_at = ? where id = ? and paused_at is null").run(nowIso, m.subscriberId);
    return true;
  });
}

/** How late the outbox is: the age past its due time of the oldest message that should have gone by now (formed and due,
 * or waiting though its subscription may send); null when nothing is due. */
export function outboxLateness(db: Db, now: Date, foldMs: number): { lateMs: number; due: number } | null {
  const nowIso = now.toISOString();
  const r = db.$client
    .prepare(
      `select min(due) as oldest, count(*) as n from (
         select o.due_at as due from outbox o join subscriptions s on s.id = o.subscription_id join subscribers b on b.id = s.subscriber_id
         where o.state = 'pending' and o.due_at is not null and o.due_at <= @now and b.paused_at is null
         union all
         select max(o.created_at, coalesce(strftime('%Y-%m-%dT%H:%M:%fZ', s.last_sent_at, @fold), '')) as due
         from outbox o join subscriptions s on s.id = o.subscription_id join subscribers b on b.id = s.subscriber_id
         where o.state = 'pending' and o.due_at is null and b.paused_at is null)
       where due <= @now`,
    )
    .get({ now: nowIso, fold: `+${Math.round(foldMs / 1000)} seconds` }) as { oldest: string | null; n: number };
  if (!r.oldest) return null;
  return { lateMs: Math.max(0, now.getTime() - Date.parse(r.oldest)), due: r.n };
}

/** Deletes what is kept no longer: subscriptions never confirmed within `unconfirmedMs` (and subscribers left empty), finished
 * outbox rows older than `doneMs`, and sign-up counts older than a day. */
export function pruneSubscriptions(db: Db, now: Date, options: { unconfirmedMs: number; doneMs: number }): { unconfirmed: number } {
  const cutoff = new Date(now.getTime() - options.unconfirmedMs).toISOString();
  const stale = db.$client.prepare("select 1 from subscriptions where confirmed_at is null and created_at < ? limit 1").get(cutoff);
  return (stale ? erasing : transaction)(db, () => {
    const c = db.$client;
    const unconfirmed = c.prepare("delete from subscriptions where confirmed_at is null and created_at < ?").run(cutoff).changes;
    if (unconfirmed > 0) dropEmptySubscribers(db);
    c.prepare("delete from outbox where state <> 'pending' and done_at < ?").run(new Date(now.getTime() - options.doneMs).toISOString());
    c.prepare("delete from subscribe_attempts where at < ?").run(new Date(now.getTime() - 24 * HOUR).toISOString());
    return { unconfirmed };
  });
}
