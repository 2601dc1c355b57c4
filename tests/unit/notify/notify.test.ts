import { createHmac } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { createAddressPolicy } from "@/lib/probe";
import { createMailer } from "@/lib/rounds/notify/email";
import { sendDue, type SenderDeps } from "@/lib/rounds/notify/sender";
import { subscribe, type SubscribeDeps } from "@/lib/rounds/notify/subscribe";
import { confirmSubscription, manageView, outboxLateness, pruneSubscriptions, unsubscribe } from "@/lib/store/subscriptions";
import { eventCounts } from "@/lib/store/counters";
import { down, healthy, record, setup, tool } from "../rounds/observations";
import { startReceiver, startSmtp } from "../../fixtures/receivers";

// Subscriptions end to end inside one process: a real database, rounds' own writes (persistRun) putting changes in the outbox,
// the sender delivering to a real SMTP server and real HTTP receivers on loopback. Time is a clock the test moves.

const T0 = Date.UTC(2026, 11, 5, 9);
const MIN = 60_000;
const tools = [tool("search", "Search")];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function world(o: { smtp?: boolean; allowPrivate?: boolean } = {}) {
  const { db, id } = setup(["io.example/a", "io.example/b"]);
  let clock = T0;
  const now = () => new Date(clock);
  const smtp = o.smtp === false ? null : await startSmtp();
  if (smtp) closers.push(smtp.close);
  const policy = createAddressPolicy({ allowPrivate: o.allowPrivate ?? true });
  const mailer = smtp ? createMailer(smtp.url, "mcp-status@status.example", "status.example") : null;
  if (mailer) closers.push(async () => mailer.close());
  const sub: SubscribeDeps = { db, policy, emailOn: !!smtp, hourlyCap: 10, siteUrl: "https://status.example", now };
  const send: SenderDeps = {
    db,
    policy,
    mailer,
    siteUrl: "https://status.example",
    pollMs: 10,
    retryBaseMs: 1_000,
    foldMs: 60 * MIN,
    leaseMs: 60_000,
    now,
    random: () => 0.5,
  };
  // The server's first read: healthy, so a later failure is a state change and an incident.
  record(db, id("io.example/a"), healthy(now(), tools), now());
  return {
    db,
    id,
    smtp,
    sub,
    send,
    now,
    advance: (ms: number) => (clock += ms),
    fail: () => record(db, id("io.example/a"), down(now()), now()),
    heal: () => record(db, id("io.example/a"), healthy(now(), tools), now()),
  };
}

const pending = (db: ReturnType<typeof setup>["db"]) =>
  db.$client.prepare("select count(*) from outbox where state = 'pending'").pluck().get() as number;

describe("email subscriptions", () => {
  test("the first email is only the confirmation link; after confirming, a change comes with the manage and one-click links", async () => {
    const w = await world();
    expect(await subscribe(w.sub, { server: "io.example/a", email: "Someone@Example.COM", client: "203.0.113.1", lang: "en" })).toEqual({
      ok: true,
      status: "confirmation_sent",
    });
    // A change before confirming sends nothing to the address.
    w.fail();
    await sendDue(w.send);
    const [confirm] = await w.smtp!.until(1);
    expect(confirm!.to).toEqual(["Someone@example.com"]);
    expect(confirm!.raw).not.toMatch(/^List-Unsubscribe/im);
    const token = /\/subscriptions\/confirm\/([A-Za-z0-9_-]+)/.exec(confirm!.text)![1]!;
    expect(w.smtp!.mails).toHaveLength(1);

    expect(confirmSubscription(w.db, token, w.now(), 7 * 24 * 60 * MIN)).toBe("confirmed");
    w.advance(MIN);
    w.heal();
    await sendDue(w.send);
    // state_changed (failed → verified) and incident_resolved came from one run: one message, the other folded into it.
    const mails = await w.smtp!.until(2);
    await sendDue(w.send);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain("And 1 more change");
    const change = mails[1]!;
    expect(change.subject).toMatch(/io\.example\/a/);
    expect(change.text).toContain(`https://status.example/subscriptions/${token}`);
    const head = change.raw.split("\r\n\r\n")[0]!.replace(/\r\n\s+/g, " ");
    expect(head).toMatch(new RegExp(`^List-Unsubscribe: <https://status\\.example/subscriptions/${token}/unsubscribe>$`, "m"));
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
  });

  test("without SMTP_URL the API answers email_disabled", async () => {
    const w = await world({ smtp: false });
    const a = await subscribe(w.sub, { server: "io.example/a", email: "a@example.com", client: null, lang: "en" });
    expect(a).toMatchObject({ ok: false, error: "email_disabled" });
  });

  test("three confirmation emails a day per address, then 429 with a retry time", async () => {
    const w = await world();
    for (let i = 0; i < 3; i++)
      expect(
        await subscribe(w.sub, { server: "io.example/a", email: "a@example.com", client: `198.51.100.${i}`, lang: "en" }),
      ).toMatchObject({ ok: true });
    const a = await subscribe(w.sub, { server: "io.example/b", email: "a@example.com", client: "198.51.100.9", lang: "en" });
    expect(a).toMatchObject({ ok: false, error: "rate_limited" });
    expect(a.ok === false && a.retryAfterS).toBeGreaterThan(23 * 3600);
  });

  test("malformed addresses, unknown events and unknown servers are refused", async () => {
    const w = await world();
    const s = (r: Partial<Parameters<typeof subscribe>[1]>) => subscribe(w.sub, { server: "io.example/a", client: null, lang: "en", ...r });
    expect(await s({ email: "not an address" })).toMatchObject({ error: "invalid_address" });
    expect(await s({ webhook: "ftp://example.com/x" })).toMatchObject({ error: "invalid_address" });
    expect(await s({ email: "a@example.com", events: ["state_changed", "everything"] })).toMatchObject({ error: "unknown_event" });
    expect(await s({ email: "a@example.com", events: ["owner_token_expiring"] })).toMatchObject({ error: "unknown_event" });
    expect(await s({ server: "io.example/none", email: "a@example.com" })).toMatchObject({ error: "unknown_server" });
  });

  test("unconfirmed subscriptions and their addresses are deleted after 7 days; an unsubscribed address is deleted", async () => {
    const w = await world();
    await subscribe(w.sub, { server: "io.example/a", email: "old@example.com", client: null, lang: "en" });
    w.advance(7 * 24 * 60 * MIN + MIN);
    expect(pruneSubscriptions(w.db, w.now(), { unconfirmedMs: 7 * 24 * 60 * MIN, doneMs: 30 * 24 * 60 * MIN })).toEqual({ unconfirmed: 1 });
    expect(w.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
  });
});

describe("webhook subscriptions", () => {
  test("the test message must get a 2xx; changes then arrive signed with the secret shown once", async () => {
    const w = await world();
    const rx = await startReceiver([200]);
    closers.push(rx.close);
    const a = await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en" });
    expect(a).toMatchObject({ ok: true, status: "active" });
    if (!a.ok || a.status !== "active") throw new Error("not active");
    expect(rx.hits).toHaveLength(1);
    expect(rx.hits[0]!.headers["x-mcp-status-event"]).toBe("test");

    w.advance(MIN);
    w.fail();
    await sendDue(w.send);
    const [, hit] = await rx.until(2);
    const body = JSON.parse(hit!.body) as Record<string, unknown>;
    expect(hit!.headers["x-mcp-status-signature"]).toBe(`sha256=${createHmac("sha256", a.secret!).update(hit!.body).digest("hex")}`);
    expect(body).toMatchObject({
      server: { name: "io.example/a", page: "https://status.example/servers/io.example/a" },
      at: w.now().toISOString(),
    });
    expect(["state_changed", "incident_opened"]).toContain(body.type);
    expect(body.more).toBe(1);
    expect(hit!.headers["x-mcp-status-event"]).toBe(body.type);
  });

  test("a receiver that answers 503 twice, then 200, gets one message three times with one id", async () => {
    const w = await world();
    const rx = await startReceiver([200, 503, 503, 200]);
    closers.push(rx.close);
    await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en" });
    w.fail();
    await sendDue(w.send);
    expect(rx.hits).toHaveLength(2);
    await sendDue(w.send); // the back-off has not passed: nothing
    expect(rx.hits).toHaveLength(2);
    w.advance(1_000);
    await sendDue(w.send);
    w.advance(4_000);
    await sendDue(w.send);
    expect(rx.hits).toHaveLength(4);
    const ids = rx.hits.slice(1).map((h) => (JSON.parse(h.body) as { id: string }).id);
    expect(new Set(ids).size).toBe(1);
    expect(pending(w.db)).toBe(0);
    const counts = eventCounts(w.db).filter((c) => c.name === "notification_deliveries");
    expect(Object.fromEntries(counts.map((c) => [c.label, c.value]))).toEqual({ "webhook:retry": 2, "webhook:delivered": 1 });
  });

  test("a 4xx is not tried again", async () => {
    const w = await world();
    const rx = await startReceiver([200, 410]);
    closers.push(rx.close);
    await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en" });
    w.fail();
    await sendDue(w.send);
    w.advance(60 * MIN);
    await sendDue(w.send);
    expect(rx.hits).toHaveLength(2);
    expect(w.db.$client.prepare("select state, attempts, last_error from outbox where state <> 'folded'").get()).toEqual({
      state: "failed",
      attempts: 1,
      last_error: "HTTP 410",
    });
  });

  test("a loopback webhook is refused without a request when private networks are not allowed", async () => {
    const w = await world({ allowPrivate: false });
    const rx = await startReceiver([200]);
    closers.push(rx.close);
    const a = await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en" });
    expect(a).toMatchObject({ ok: false, error: "address_not_allowed" });
    expect(rx.hits).toHaveLength(0);
  });

  test("a test message answered 404 makes no subscription", async () => {
    const w = await world();
    const rx = await startReceiver([404]);
    closers.push(rx.close);
    expect(await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en" })).toMatchObject({
      ok: false,
      error: "webhook_test_failed",
    });
    expect(w.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
  });

  test("a flapping server sends one message an hour, the rest folded into the next", async () => {
    const w = await world();
    const rx = await startReceiver([200]);
    closers.push(rx.close);
    await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en", events: ["state_changed"] });
    for (let i = 0; i < 4; i++) {
      w.advance(5 * MIN);
      if (i % 2 === 0) w.fail();
      else w.heal();
      await sendDue(w.send);
    }
    expect(rx.hits).toHaveLength(2); // the test message and the first change, at once
    expect(outboxLateness(w.db, w.now(), w.send.foldMs)).toBeNull();
    w.advance(45 * MIN);
    await sendDue(w.send);
    expect(rx.hits).toHaveLength(3);
    expect(JSON.parse(rx.hits[2]!.body)).toMatchObject({ type: "state_changed", from: "failed", to: "verified", more: 2 });
  });

  test("a webhook failing for 3 days is paused, and its manage view says so", async () => {
    const w = await world();
    const rx = await startReceiver([200, 500]);
    closers.push(rx.close);
    const a = await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en" });
    for (let day = 0; day < 4; day++) {
      if (day % 2 === 0) w.fail();
      else w.heal();
      for (let t = 0; t < 3; t++) {
        await sendDue(w.send);
        w.advance(10 * MIN);
      }
      w.advance(24 * 60 * MIN - 30 * MIN);
    }
    const token = a.ok && a.status === "active" ? new URL(a.manage).pathname.split("/").pop()! : "";
    const view = manageView(w.db, token)!;
    expect(view.pausedAt).not.toBeNull();
    expect(JSON.stringify(view)).not.toContain("127.0.0.1");
    expect(unsubscribe(w.db, token)).toBe(true);
    expect(w.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
  });
});

describe("the outbox", () => {
  test("a change is written with the run: a round's rollback leaves no message, and its commit leaves one per subscription", async () => {
    const w = await world();
    const rx = await startReceiver([200]);
    closers.push(rx.close);
    await subscribe(w.sub, { server: "io.example/a", webhook: rx.url, client: null, lang: "en", events: ["state_changed"] });
    expect(() =>
      w.db.$client.transaction(() => {
        w.fail();
        throw new Error("rolled back");
      })(),
    ).toThrow("rolled back");
    expect(pending(w.db)).toBe(0);
    w.fail();
    expect(pending(w.db)).toBe(1);
    expect(outboxLateness(w.db, new Date(w.now().getTime() + 16 * MIN), w.send.foldMs)?.lateMs).toBe(16 * MIN);
  });
});
