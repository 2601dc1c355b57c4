// The sender (architecture.md §10): takes due messages from the outbox and delivers them, off every round's and render's path
// (under `npm start` in a process of its own, lib/cli/notifier.ts). At least once: a message is leased before its try and
// recorded after it, so one whose process died is tried again when the lease ends. Three tries, with jittered back-off after a
// 5xx, 429, SMTP 4xx or network error; none after another 4xx. A log line names a subscription by its id, never an address.
import type { Db } from "../../../db/client";
import type { AddressPolicy } from "../../probe/address-policy";
import type { DnsLookup } from "../../probe/transport/dns";
import {
  finishErasure,
  formMessages,
  pruneSubscriptions,
  recordTry,
  takeDueMessages,
  type DueMessage,
  type TryResult,
} from "../../store/subscriptions";
import type { Mailer } from "./email";
import { mailFor, webhookRequestFor } from "./messages";
import { WebhookConnections } from "./webhook";

export const MAX_TRIES = 3;
export const PAUSE_AFTER_MS = 3 * 24 * 3_600_000;
export const UNCONFIRMED_MS = 7 * 24 * 3_600_000;
const DONE_KEPT_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

export interface SenderDeps {
  db: Db;
  policy: AddressPolicy;
  dnsLookup?: DnsLookup;
  /** Null without SMTP_URL: email messages wait (none is confirmed without a confirmation email, so there are none). */
  mailer: Mailer | null;
  /** The site's public origin, for the links in messages. */
  siteUrl: string;
  pollMs: number;
  retryBaseMs: number;
  foldMs: number;
  leaseMs: number;
  /** Tries in flight at once. */
  concurrency?: number;
  now?: () => Date;
  random?: () => number;
  log?: (line: string) => void;
}

/** The wait before try n+1 (n ≥ 1): base × 4^(n-1), times a jitter between ½ and 1½, so receivers that failed together are
 * not all tried again at the same instant. */
export function backoffMs(base: number, tries: number, random: () => number): number {
  return Math.round(base * 4 ** (tries - 1) * (0.5 + random()));
}

/** One try of one message; never throws. */
async function attempt(m: DueMessage, deps: SenderDeps, conns: WebhookConnections): Promise<TryResult & { refused?: boolean }> {
  const now = deps.now ?? (() => new Date());
  const retry = (error: string): TryResult =>
    m.attempts + 1 >= MAX_TRIES
      ? { kind: "failed", error }
      : {
          kind: "retry",
          error,
          nextTryAt: new Date(now().getTime() + backoffMs(deps.retryBaseMs, m.attempts + 1, deps.random ?? Math.random)).toISOString(),
        };
  if (m.kind === "event" && !m.confirmed) return { kind: "dropped", error: "not confirmed" };
  if (m.channel === "email") {
    if (!deps.mailer) return { kind: "dropped", error: "email is off (no SMTP_URL)" };
    const r = await deps.mailer.send(mailFor(m, deps.siteUrl));
    if (r.ok) return { kind: "delivered" };
    return r.retryable ? retry(r.error) : { kind: "failed", error: r.error };
  }
  const req = webhookRequestFor(m, deps.siteUrl);
  const r = await conns.post(new URL(m.address), req.body, req.headers);
  if (r.ok) return { kind: "delivered" };
  if (r.refused) return { kind: "failed", error: r.error, refused: true };
  return r.retryable ? retry(r.error) : { kind: "failed", error: r.error };
}

export interface PassSummary {
  formed: number;
  tried: number;
  delivered: number;
}

/** One pass: forms the messages the flap rule lets go, takes what is due and tries it, `concurrency` at a time. */
export async function sendDue(deps: SenderDeps, limit = 200): Promise<PassSummary> {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((l: string) => console.log(l));
  const formed = formMessages(deps.db, now(), { foldMs: deps.foldMs, batch: 1_000 });
  const due = takeDueMessages(deps.db, now(), { limit, leaseMs: deps.leaseMs });
  if (due.length === 0) return { formed, tried: 0, delivered: 0 };
  const conns = new WebhookConnections(deps.policy, deps.dnsLookup);
  let delivered = 0;
  let next = 0;
  const worker = async () => {
    for (let m = due[next++]; m; m = due[next++]) {
      const r = await attempt(m, deps, conns);
      const paused = recordTry(deps.db, m, r, now(), PAUSE_AFTER_MS, r.refused ? "refused" : undefined);
      if (r.kind === "delivered") delivered++;
      else {
        const what = `${m.kind === "confirmation" ? "confirmation" : m.event} message ${m.messageId} to subscription ${m.subscriptionId} (${m.channel})`;
        log(
          `[notify] ${what}: try ${m.attempts + 1} failed (${r.error}); ${r.kind === "retry" ? `next try at ${r.nextTryAt}` : "given up"}`,
        );
        if (paused) log(`[notify] subscriber of subscription ${m.subscriptionId} paused: its webhook has failed for 3 days`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 16, due.length) }, worker));
  } finally {
    await conns.close();
  }
  if (due.length > 1 || delivered !== due.length) log(`[notify] ${due.length} tried, ${delivered} delivered`);
  return { formed, tried: due.length, delivered };
}

export interface Sender {
  /** Runs a pass now (or waits for the one under way). */
  wake(): Promise<void>;
  stop(): Promise<void>;
}

/** Passes back to back while there is work, else one every `pollMs`; unconfirmed subscriptions and old rows pruned on the way. */
export function startSender(deps: SenderDeps): Sender {
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((l: string) => console.log(l));
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let prunedAt = 0;

  const loop = async () => {
    for (;;) {
      if (stopped) return;
      let s: PassSummary;
      try {
        if (now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
          prunedAt = now().getTime();
          const p = pruneSubscriptions(deps.db, now(), { unconfirmedMs: UNCONFIRMED_MS, doneMs: DONE_KEPT_MS });
          if (p.unconfirmed > 0) log(`[notify] ${p.unconfirmed} unconfirmed subscriptions older than 7 days deleted`);
        }
        // An erasure a reader kept from finishing (the site's pages, a round) is finished here, on a later pass.
        finishErasure(deps.db);
        s = await sendDue(deps);
      } catch (e) {
        log(`[notify] pass failed: ${(e as Error).message}`);
        return;
      }
      if (s.tried === 0 && s.formed === 0) return;
    }
  };
  const wake = () => {
    running ??= loop().finally(() => (running = null));
    return running;
  };
  const tick = () => {
    timer = setTimeout(() => void wake().finally(() => !stopped && tick()), deps.pollMs);
  };
  void wake();
  tick();
  return {
    wake,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      deps.mailer?.close();
    },
  };
}
