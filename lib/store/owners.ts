import { createHash, createHmac, randomBytes } from "node:crypto";
import { transaction, type Db } from "../../db/client";
import type { CheckResult } from "../checks/types";
import type { NotificationEvent } from "../vocabulary/notifications";
import type { ClaimState, OwnerLimitScope, OwnerProbeOutcome, OwnerSecretKind } from "../vocabulary/owners";
import type { UrlVariables } from "../probe/protocol";
import { metaOnce } from "./reprobe";
import { urlVariablesOf } from "./servers/registry";
import { UPTIME_WINDOWS, type ServerUptime, type UptimeWindow } from "./uptime";
import { eraseClaimSubscriptions, finishErasure } from "./subscriptions";

// Claims, owners' sealed values and the owner's-view runs (architecture.md §11). Tokens are kept as their SHA-256 only, so the
// database holds no capability; sealed values leave this module only to the round's owner step and the rotate command.

const DAY_MS = 86_400_000;
const HOUR = 3_600_000;

/** A fresh claim or manage token: 192 random bits. */
export const newOwnerToken = () => randomBytes(24).toString("base64url");
/** A fresh proof body (one line of the file at /.well-known/mcp-status-claim). */
export const newProof = () => `mcp-status-claim=${randomBytes(18).toString("base64url")}`;
const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("base64url");

export interface ClaimRow {
  id: number;
  serverId: number;
  server: string;
  proof: string;
  origin: string;
  state: ClaimState;
  lang: string;
  createdAt: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  misses: number;
}

const CLAIM_COLUMNS = `c.id, c.server_id as serverId, v.name as server, c.proof, c.origin, c.state, c.lang, c.created_at as createdAt,
  c.verified_at as verifiedAt, c.last_checked_at as lastCheckedAt, c.next_check_at as nextCheckAt, c.misses`;

/** Writes a pending claim; returns its id and the claim token (shown once: only its hash is kept). */
export function insertClaim(
  db: Db,
  c: { serverId: number; origin: string; proof: string; lang: string; now: Date },
): { claimId: number; token: string } {
  const token = newOwnerToken();
  const claimId = db.$client
    .prepare("insert into claims (server_id, claim_hash, proof, origin, lang, created_at) values (?, ?, ?, ?, ?, ?) returning id")
    .pluck()
    .get(c.serverId, hashToken(token), c.proof, c.origin, c.lang, c.now.toISOString()) as number;
  return { claimId, token };
}

/** The claim a claim token names, whatever its state; null when it names none. */
export function claimByToken(db: Db, token: string): ClaimRow | null {
  return (
    (db.$client
      .prepare(`select ${CLAIM_COLUMNS} from claims c join servers v on v.id = c.server_id where c.claim_hash = ?`)
      .get(hashToken(token)) as ClaimRow | undefined) ?? null
  );
}

/** The verified claim a manage token names; null when it names none (or its claim lapsed). */
export function claimByManageToken(db: Db, token: string): ClaimRow | null {
  return (
    (db.$client
      .prepare(
        `select ${CLAIM_COLUMNS} from claims c join servers v on v.id = c.server_id where c.manage_hash = ? and c.state = 'verified'`,
      )
      .get(hashToken(token)) as ClaimRow | undefined) ?? null
  );
}

/** Marks a claim verified and gives it a new manage token (a claimant who lost the link verifies again). */
export function markVerified(db: Db, claimId: number, now: Date, nextCheckAt: Date): string {
  const token = newOwnerToken();
  db.$client
    .prepare(
      `update claims set state = 'verified', manage_hash = ?, verified_at = ?, last_checked_at = ?, next_check_at = ?, misses = 0,
       lapsed_at = null where id = ?`,
    )
    .run(hashToken(token), now.toISOString(), now.toISOString(), nextCheckAt.toISOString(), claimId);
  return token;
}

/** Verified claims whose weekly re-check is due. */
export function dueRechecks(db: Db, now: Date, limit: number): ClaimRow[] {
  return db.$client
    .prepare(
      `select ${CLAIM_COLUMNS} from claims c join servers v on v.id = c.server_id
       where c.state = 'verified' and c.next_check_at <= ? order by c.next_check_at limit ?`,
    )
    .all(now.toISOString(), limit) as ClaimRow[];
}

/** Records a re-check: found resets the misses; the second miss in a row lapses the claim and deletes its configuration.
 * Returns the claim's state after it. */
export function recordRecheck(db: Db, claimId: number, found: boolean, now: Date, nextCheckAt: Date): ClaimState {
  return transaction(db, () => {
    const c = db.$client;
    const at = now.toISOString();
    if (found) {
      c.prepare("update claims set misses = 0, last_checked_at = ?, next_check_at = ? where id = ?").run(
        at,
        nextCheckAt.toISOString(),
        claimId,
      );
      return "verified";
    }
    const misses = (c
      .prepare("update claims set misses = misses + 1, last_checked_at = ? where id = ? returning misses")
      .pluck()
      .get(at, claimId) ?? 0) as number;
    if (misses < 2) {
      c.prepare("update claims set next_check_at = ? where id = ?").run(nextCheckAt.toISOString(), claimId);
      return "verified";
    }
    lapse(db, claimId, now);
    return "lapsed";
  });
}

/** A lapsed claim keeps no manage link, no configuration and no owner subscriptions. */
function lapse(db: Db, claimId: number, now: Date): void {
  const c = db.$client;
  c.prepare("update claims set state = 'lapsed', lapsed_at = ?, manage_hash = null, next_check_at = null where id = ?").run(
    now.toISOString(),
    claimId,
  );
  c.prepare("delete from owner_secrets where claim_id = ?").run(claimId);
  // The owner's address leaves the file too, as an unsubscribed one does (architecture.md §10).
  eraseClaimSubscriptions(db, claimId);
}

/** Gives a claim up: it lapses at once, with its configuration and owner subscriptions. */
export function giveUpClaim(db: Db, claimId: number, now: Date): void {
  transaction(db, () => lapse(db, claimId, now));
  finishErasure(db);
}

// ---- sealed values ----------------------------------------------------------------------------------------------------

export interface SealedSecret {
  kind: OwnerSecretKind;
  name: string;
  sealed: string;
  setAt: string;
  expiresAt: string | null;
  expiryToldAt: string | null;
}

/** Replaces a claim's whole configuration with `entries` (a name set again keeps nothing of its old value). */
export function replaceSecrets(
  db: Db,
  claimId: number,
  entries: readonly { kind: OwnerSecretKind; name: string; sealed: string; expiresAt: string | null }[],
  now: Date,
): void {
  transaction(db, () => {
    const c = db.$client;
    c.prepare("delete from owner_secrets where claim_id = ?").run(claimId);
    const put = c.prepare("insert into owner_secrets (claim_id, kind, name, sealed, set_at, expires_at) values (?, ?, ?, ?, ?, ?)");
    for (const e of entries) put.run(claimId, e.kind, e.name, e.sealed, now.toISOString(), e.expiresAt);
  });
}

export function deleteSecrets(db: Db, claimId: number): number {
  return db.$client.prepare("delete from owner_secrets where claim_id = ?").run(claimId).changes;
}

export function secretsOf(db: Db, claimId: number): SealedSecret[] {
  return db.$client
    .prepare(
      `select kind, name, sealed, set_at as setAt, expires_at as expiresAt, expiry_told_at as expiryToldAt
       from owner_secrets where claim_id = ? order by kind, name`,
    )
    .all(claimId) as SealedSecret[];
}

export function markExpiryTold(db: Db, claimId: number, kind: OwnerSecretKind, name: string, now: Date): void {
  db.$client
    .prepare("update owner_secrets set expiry_told_at = ? where claim_id = ? and kind = ? and name = ?")
    .run(now.toISOString(), claimId, kind, name);
}

/** The origin a claim proved (the owner's view never leaves it). */
export function claimOrigin(db: Db, claimId: number): string | null {
  return (db.$client.prepare("select origin from claims where id = ?").pluck().get(claimId) as string | undefined) ?? null;
}

/** The claim whose configuration the owner's view uses: the most recently verified one of the server that holds any value. */
export function ownerClaimFor(db: Db, serverId: number): number | null {
  return (
    (db.$client
      .prepare(
        `select c.id from claims c where c.server_id = ? and c.state = 'verified'
           and exists (select 1 from owner_secrets s where s.claim_id = c.id)
         order by c.verified_at desc, c.id desc limit 1`,
      )
      .pluck()
      .get(serverId) as number | undefined) ?? null
  );
}

/** Every sealed value, for the rotate command. */
export function allSealed(db: Db): (SealedSecret & { claimId: number })[] {
  return db.$client
    .prepare(
      "select claim_id as claimId, kind, name, sealed, set_at as setAt, expires_at as expiresAt, expiry_told_at as expiryToldAt from owner_secrets",
    )
    .all() as (SealedSecret & { claimId: number })[];
}

export function updateSealed(db: Db, rows: readonly { claimId: number; kind: OwnerSecretKind; name: string; sealed: string }[]): void {
  transaction(db, () => {
    const put = db.$client.prepare("update owner_secrets set sealed = ? where claim_id = ? and kind = ? and name = ?");
    for (const r of rows) put.run(r.sealed, r.claimId, r.kind, r.name);
  });
}

// ---- the owner's-view runs --------------------------------------------------------------------------------------------

export interface OwnerRunInput {
  claimId: number;
  serverId: number;
  roundId: number | null;
  at: Date;
  outcome: OwnerProbeOutcome;
  tools: number | null;
  results: CheckResult[];
  /** Redacted exchanges (JSON-ready), or null when nothing was sent. */
  exchanges: unknown[] | null;
}

export function insertOwnerRun(db: Db, r: OwnerRunInput): number {
  return db.$client
    .prepare(
      "insert into owner_runs (claim_id, server_id, round_id, at, outcome, tools, results, exchanges) values (?, ?, ?, ?, ?, ?, ?, ?) returning id",
    )
    .pluck()
    .get(
      r.claimId,
      r.serverId,
      r.roundId,
      r.at.toISOString(),
      r.outcome,
      r.tools,
      JSON.stringify(r.results),
      r.exchanges ? JSON.stringify(r.exchanges) : null,
    ) as number;
}

export interface OwnerView {
  claimId: number;
  checks: CheckResult[];
  outcome: OwnerProbeOutcome;
  tools: number | null;
  lastProbedAt: string;
  configuredAt: string;
  uptime: ServerUptime;
  exchanges: unknown[];
}

const WINDOW_DAYS: Record<UptimeWindow, number> = { last24h: 1, last7d: 7, last30d: 30, last90d: 90 };

/** The owner's view of a server (architecture.md §11): the latest owner's-view run of the claim whose configuration is used,
 * its uptime (up among up and down: a refused or unreadable configuration is the owner's trouble, left out), and when the
 * configuration was set. Null while no such run exists. */
export function ownerView(db: Db, serverId: number, now: Date): OwnerView | null {
  const claimId = ownerClaimFor(db, serverId);
  if (claimId === null) return null;
  const c = db.$client;
  const run = c
    .prepare("select at, outcome, tools, results, exchanges from owner_runs where claim_id = ? order by at desc, id desc limit 1")
    .get(claimId) as
    { at: string; outcome: OwnerProbeOutcome; tools: number | null; results: string; exchanges: string | null } | undefined;
  if (!run) return null;
  const configuredAt = c.prepare("select max(set_at) from owner_secrets where claim_id = ?").pluck().get(claimId) as string;
  const count = c.prepare(
    "select count(*) filter (where outcome = 'up') as up, count(*) filter (where outcome in ('up', 'down')) as reached from owner_runs where claim_id = ? and at >= ?",
  );
  const uptime = Object.fromEntries(
    UPTIME_WINDOWS.map((w) => {
      const from = new Date(now.getTime() - WINDOW_DAYS[w] * DAY_MS).toISOString();
      const { up, reached } = count.get(claimId, from) as { up: number; reached: number };
      return [w, { ratio: reached > 0 ? up / reached : null, up, reached, from }];
    }),
  ) as ServerUptime;
  return {
    claimId,
    checks: JSON.parse(run.results) as CheckResult[],
    outcome: run.outcome,
    tools: run.tools,
    lastProbedAt: run.at,
    configuredAt,
    uptime,
    exchanges: run.exchanges ? (JSON.parse(run.exchanges) as unknown[]) : [],
  };
}

/** The latest owner's-view run of one claim (the manage page shows its own, whichever claim the public view uses). */
export function latestOwnerRunOf(db: Db, claimId: number): { at: string; outcome: OwnerProbeOutcome; results: CheckResult[] } | null {
  const r = db.$client
    .prepare("select at, outcome, results from owner_runs where claim_id = ? order by at desc, id desc limit 1")
    .get(claimId) as { at: string; outcome: OwnerProbeOutcome; results: string } | undefined;
  return r ? { at: r.at, outcome: r.outcome, results: JSON.parse(r.results) as CheckResult[] } : null;
}

/** Deletes owner runs older than `keepMs`, and lapsed claims with nothing left to show after the same time. */
export function pruneOwners(db: Db, now: Date, keepMs: number): void {
  const before = new Date(now.getTime() - keepMs).toISOString();
  db.$client.prepare("delete from owner_runs where at < ?").run(before);
  db.$client.prepare("delete from owner_attempts where at < ?").run(new Date(now.getTime() - DAY_MS).toISOString());
}

// ---- owner messages ---------------------------------------------------------------------------------------------------

/** Puts an owner event in the outbox of that claim's own confirmed, unpaused subscriptions that asked for it (never another
 * owner's, never a public subscriber's), due at once: owner events are never folded. Returns the rows written. */
export function enqueueOwnerEvent(db: Db, claimId: number, event: NotificationEvent, facts: object, now: Date): number {
  const at = now.toISOString();
  return db.$client
    .prepare(
      `insert into outbox (message_id, subscription_id, kind, event, facts, created_at, due_at, next_try_at)
       select lower(hex(randomblob(16))), s.id, 'event', @event, @facts, @at, @at, @at
       from subscriptions s join subscribers b on b.id = s.subscriber_id
       where s.claim_id = @claimId and s.confirmed_at is not null and b.paused_at is null
         and exists (select 1 from json_each(s.events) where value = @event)`,
    )
    .run({ claimId, event, facts: JSON.stringify(facts), at }).changes;
}

/** Makes a subscription an owner's: it belongs to the claim and gets the owner events besides those it asked for. */
export function adoptSubscription(db: Db, subscriptionId: number, claimId: number, ownerEvents: readonly NotificationEvent[]): void {
  const c = db.$client;
  const events = JSON.parse(c.prepare("select events from subscriptions where id = ?").pluck().get(subscriptionId) as string) as string[];
  const merged = [...new Set([...events, ...ownerEvents])];
  c.prepare("update subscriptions set claim_id = ?, events = ? where id = ?").run(claimId, JSON.stringify(merged), subscriptionId);
}

/** How many of a claim's subscriptions are confirmed (the manage page says whether the owner will hear anything). */
export function ownerSubscriptionCount(db: Db, claimId: number): number {
  return db.$client
    .prepare("select count(*) from subscriptions where claim_id = ? and confirmed_at is not null")
    .pluck()
    .get(claimId) as number;
}

// ---- limits -----------------------------------------------------------------------------------------------------------

const LIMIT_KEY_META = "owners_limit_key";

function limitKey(db: Db, client: string): string {
  const key = metaOnce(db, LIMIT_KEY_META, () => randomBytes(32).toString("hex"));
  return createHmac("sha256", key).update(client).digest("base64url");
}

/** How many of `scope` a client address made in the last hour, and when the oldest of the last `limit` ends its hour. */
export function attemptsWithin(
  db: Db,
  o: { scope: OwnerLimitScope; client: string; now: Date; limit: number },
): { count: number; retryAt: string | null } {
  const since = new Date(o.now.getTime() - HOUR).toISOString();
  const rows = db.$client
    .prepare("select at from owner_attempts where scope = ? and key = ? and at > ? order by at")
    .pluck()
    .all(o.scope, limitKey(db, o.client), since) as string[];
  const oldest = rows.length >= o.limit ? rows[rows.length - o.limit]! : null;
  return { count: rows.length, retryAt: oldest ? new Date(Date.parse(oldest) + HOUR).toISOString() : null };
}

export function countAttempt(db: Db, o: { scope: OwnerLimitScope; client: string; now: Date }): void {
  db.$client
    .prepare("insert into owner_attempts (scope, key, at) values (?, ?, ?)")
    .run(o.scope, limitKey(db, o.client), o.now.toISOString());
}

// ---- what an owner may configure ----------------------------------------------------------------------------------------

export interface OwnerTarget {
  serverId: number;
  name: string;
  /** The probed remote (architecture.md §2.6); null when the server has none. */
  remoteUrl: string | null;
  transport: "streamable-http" | "sse" | null;
  /** The header names the registry lists as needed for the probed remote (never sent anonymously). */
  configHeaders: string[];
  /** The latest anonymous probe met a credential gate: an `Authorization` value may be configured. */
  gated: boolean;
  /** The URL variables without a default an owner fills in (architecture.md §11); null when the remote has none. */
  urlVariables: UrlVariables | null;
}

function targetWhere(db: Db, where: string, arg: string | number): OwnerTarget | null {
  const r = db.$client
    .prepare(
      `select id, name, remote_url, transport, config_headers, url_variables, reach, overall_cause, state_handshake, state_tools_list
       from servers where ${where}`,
    )
    .get(arg) as
    | {
        id: number;
        name: string;
        remote_url: string | null;
        transport: "streamable-http" | "sse" | null;
        config_headers: string | null;
        url_variables: string | null;
        reach: string | null;
        overall_cause: string | null;
      }
    | undefined;
  if (!r) return null;
  let headers: string[] = [];
  try {
    const v = JSON.parse(r.config_headers ?? "[]") as unknown;
    if (Array.isArray(v)) headers = v.filter((n): n is string => typeof n === "string");
  } catch {
    headers = [];
  }
  return {
    serverId: r.id,
    name: r.name,
    remoteUrl: r.remote_url,
    transport: r.transport,
    configHeaders: headers,
    gated: r.reach === "gated" || r.overall_cause === "credential_required",
    urlVariables: urlVariablesOf(r.url_variables),
  };
}

export const ownerTarget = (db: Db, name: string) => targetWhere(db, "name = ?", name);
export const ownerTargetById = (db: Db, serverId: number) => targetWhere(db, "id = ?", serverId);
