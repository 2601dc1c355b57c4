import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, test } from "vitest";
import { getConfirm, postManage, postSubscription, type SubscriptionRouteDeps } from "@/app/api/_lib/subscriptions";
import { createAddressPolicy } from "@/lib/probe";
import { getMeta, META_KEYS } from "@/lib/store/meta";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { closeDb, MIGRATIONS_FOLDER, openDb } from "@/db/client";
import { adoptSubscription, giveUpClaim, insertClaim, markVerified } from "@/lib/store/owners";
import { confirmSubscription, finishErasure, saveSubscription, unsubscribe } from "@/lib/store/subscriptions";
import { UNFOLDED_NOTIFICATION_EVENTS } from "@/lib/vocabulary/notifications";
import { startReceiver } from "../../fixtures/receivers";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// architecture.md §10, privacy at rest: an unsubscribed address and a replaced webhook secret are gone from the bytes of the
// SQLite file and its write-ahead log, not only from the tables. Real route logic, a real database file, a real receiver.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function world() {
  const t = tempDb("at-rest-");
  cleanups.push(t.cleanup);
  applyRegistrySnapshot(t.db, [listedServer("io.example/a", "https://a.example/mcp")], new Date().toISOString());
  const deps: SubscriptionRouteDeps = {
    db: t.db,
    policy: createAddressPolicy({ allowPrivate: true }),
    emailOn: true,
    hourlyCap: 10,
    siteUrl: "http://127.0.0.1:3000",
  };
  const subscribe = async (body: unknown) =>
    (await postSubscription(
      new Request("http://127.0.0.1:3000/api/servers/io.example/a/subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
        body: JSON.stringify(body),
      }),
      "io.example/a",
      deps,
    )) as Response;
  const manage = (token: string, action: string, body = "") =>
    postManage(
      new Request(`http://127.0.0.1:3000/subscriptions/${token}/${action}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      }),
      token,
      action,
      { db: t.db },
    );
  /** How often `text` occurs in the raw bytes of the database file and its write-ahead log. */
  const onDisk = (text: string) => {
    const needle = Buffer.from(text, "utf8");
    let n = 0;
    for (const f of [t.file, `${t.file}-wal`]) {
      if (!fs.existsSync(f)) continue;
      const bytes = fs.readFileSync(f);
      for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + 1)) n++;
    }
    return n;
  };
  const token = () => t.db.$client.prepare("select token from subscriptions order by id desc").pluck().get() as string;
  return { t, subscribe, manage, onDisk, token };
}

/** How often each of `texts` occurs in the raw bytes of `file` and its write-ahead log. */
function occurrences(file: string, texts: readonly string[]): Map<string, number> {
  const files = [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f));
  return new Map(
    texts.map((text) => {
      const needle = Buffer.from(text, "utf8");
      let n = 0;
      for (const bytes of files) for (let i = bytes.indexOf(needle); i >= 0; i = bytes.indexOf(needle, i + 1)) n++;
      return [text, n];
    }),
  );
}

describe("addresses and secrets at rest", () => {
  test("an unsubscribed email address is gone from the database file and the write-ahead log", async () => {
    const w = world();
    const address = "someone.private@example.org";
    expect((await w.subscribe({ email: address })).status).toBe(202);
    const token = w.token();
    expect(getConfirm(token, { db: w.t.db, now: new Date() }).status).toBe(303);
    // The search can find it while it is kept (the sign-up limit counts an HMAC of it, never the address).
    expect(w.onDisk(address)).toBeGreaterThan(0);
    const res = await w.manage(token, "unsubscribe", "List-Unsubscribe=One-Click");
    expect(res.status).toBe(200);
    expect(w.t.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
    expect(w.onDisk(address)).toBe(0);
    expect(fs.statSync(`${w.t.file}-wal`).size).toBeLessThan(64 * 1024);
    expect(getMeta(w.t.db, META_KEYS.erasurePendingSince)).toBeNull();
    // The erasure's own secure_delete = ON is over: the connection is back to FAST (the pragma reads FAST back as 2).
    expect(w.t.db.$client.pragma("secure_delete", { simple: true })).toBe(2);
  });

  test("a claim given up erases its owner's subscriptions: the owner's address leaves the file and its log", () => {
    const w = world();
    const serverId = w.t.db.$client.prepare("select id from servers").pluck().get() as number;
    const address = "owner.private@example.org";
    const { claimId } = insertClaim(w.t.db, { serverId, origin: "https://a.example", proof: "p", lang: "en", now: new Date() });
    markVerified(w.t.db, claimId, new Date(), new Date(Date.now() + 7 * 86_400_000));
    const sub = saveSubscription(w.t.db, {
      serverId,
      channel: "email",
      address,
      flavor: null,
      events: ["state_changed"],
      lang: "en",
      now: new Date(),
    });
    confirmSubscription(w.t.db, sub.token, new Date(), 86_400_000);
    adoptSubscription(w.t.db, sub.subscriptionId, claimId, UNFOLDED_NOTIFICATION_EVENTS);
    expect(w.onDisk(address)).toBeGreaterThan(0);
    giveUpClaim(w.t.db, claimId, new Date());
    expect(w.t.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
    expect(w.onDisk(address)).toBe(0);
    expect(getMeta(w.t.db, META_KEYS.erasurePendingSince)).toBeNull();
    expect(w.t.db.$client.pragma("secure_delete", { simple: true })).toBe(2);
  });

  test("among many subscribers, erased addresses leave no byte behind: the index holds hashes, and page splits leave no copy", async () => {
    const w = world();
    const serverId = w.t.db.$client.prepare("select id from servers").pluck().get() as number;
    // Enough rows for the table and its index to split into interior pages many times over.
    const addresses = Array.from({ length: 1500 }, (_, i) => `person.${String(i).padStart(4, "0")}.x${(i * 7919) % 1000}@example.org`);
    const tokens = w.t.db.$client.transaction(() =>
      addresses.map((address) => {
        const saved = saveSubscription(w.t.db, {
          serverId,
          channel: "email",
          address,
          flavor: null,
          events: ["state_changed"],
          lang: "en",
          now: new Date(),
        });
        expect(confirmSubscription(w.t.db, saved.token, new Date(), 86_400_000)).toBe("confirmed");
        return saved.token;
      }),
    )();
    w.t.db.$client.pragma("wal_checkpoint(TRUNCATE)");
    // Each address is on disk once: in its own row, not in an index and not as a stale copy a split left behind.
    expect(new Set(occurrences(w.t.file, addresses).values())).toEqual(new Set([1]));

    // Erase every 50th by its one-click link (no VACUUM: what the erasure itself leaves is what is checked).
    const erased = addresses.filter((_, i) => i % 50 === 0);
    for (let i = 0; i < addresses.length; i += 50) {
      const res = await w.manage(tokens[i]!, "unsubscribe", "List-Unsubscribe=One-Click");
      expect(res.status).toBe(200);
    }
    expect(w.t.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(addresses.length - erased.length);
    const left = [...occurrences(w.t.file, erased)].filter(([, n]) => n > 0);
    expect(left).toEqual([]);
    // The others are still found by their hash: signing up again reuses the subscriber.
    const again = saveSubscription(w.t.db, {
      serverId,
      channel: "email",
      address: addresses[1]!,
      flavor: null,
      events: ["state_changed"],
      lang: "en",
      now: new Date(),
    });
    expect(again.token).toBe(tokens[1]);
    expect(w.t.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(addresses.length - erased.length);
  });

  test("a database from before address hashes: the migration drops the address index and zeroes it; subscribers get their hash", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "at-rest-migrate-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    // The migrations as they were before the hash: a copy of the folder without that entry and the ones after it.
    const old = path.join(dir, "migrations");
    fs.cpSync(MIGRATIONS_FOLDER, old, { recursive: true });
    const journalFile = path.join(old, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith("_subscriber_address_hash"));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    fs.writeFileSync(journalFile, JSON.stringify(journal));

    const file = path.join(dir, "site.db");
    const before = openDb(file, { migrationsFolder: old });
    // Plain SQL on the old schema: today's store code may need columns of later migrations.
    before.$client
      .prepare("insert into servers (id, name, first_seen_at, last_seen_at) values (1, 'io.example/a', ?, ?)")
      .run("2026-01-01", "2026-01-01");
    const addresses = Array.from({ length: 400 }, (_, i) => `kept.${i}@example.org`);
    const c = before.$client;
    const add = c.prepare("insert into subscribers (channel, address, lang, created_at) values ('email', ?, 'en', ?)");
    const sub = c.prepare(
      "insert into subscriptions (subscriber_id, server_id, token, events, created_at, confirmed_at) values (?, 1, ?, ?, ?, ?)",
    );
    const now = new Date().toISOString();
    c.transaction(() => {
      for (const [i, a] of addresses.entries())
        sub.run(add.run(a, now).lastInsertRowid, `old-token-${i}`, JSON.stringify(["state_changed"]), now, now);
    })();
    expect(c.prepare("select count(*) from sqlite_master where name = 'subscribers_address_idx'").pluck().get()).toBe(1);
    closeDb(before);

    const db = openDb(file);
    cleanups.push(() => closeDb(db));
    expect(db.$client.prepare("select count(*) from sqlite_master where name = 'subscribers_address_idx'").pluck().get()).toBe(0);
    db.$client.pragma("wal_checkpoint(TRUNCATE)");
    // The dropped index's pages were zeroed: each address is left in its row alone.
    expect(new Set(occurrences(file, addresses).values())).toEqual(new Set([1]));
    // The first sign-up hashes the stored subscribers, so an old address signing up again is the same subscriber.
    const saved = saveSubscription(db, {
      serverId: 1,
      channel: "email",
      address: addresses[7]!,
      flavor: null,
      events: ["state_changed"],
      lang: "zh",
      now: new Date(),
    });
    expect(saved.token).toBe("old-token-7");
    expect(db.$client.prepare("select count(*) from subscribers where address_hash is null").pluck().get()).toBe(0);
    expect(db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(addresses.length);
    expect(db.$client.prepare("select lang from subscribers where address = ?").pluck().get(addresses[7])).toBe("zh");
    expect(unsubscribe(db, "old-token-7")).toBe(true);
    expect(occurrences(file, [addresses[7]!]).get(addresses[7]!)).toBe(0);
  });

  test("a rotated webhook secret is answered once and the old one is gone from the file; deleting everything erases the URL", async () => {
    const w = world();
    const rx = await startReceiver([200]);
    cleanups.push(rx.close);
    const created = await w.subscribe({ webhook: rx.url });
    expect(created.status).toBe(201);
    const { secret: first } = (await created.json()) as { secret: string };
    const token = w.token();
    expect(w.onDisk(first)).toBeGreaterThan(0);

    const rotated = await w.manage(token, "rotate");
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const { secret: second } = (await rotated.json()) as { secret: string };
    expect(second).not.toBe(first);
    expect(w.t.db.$client.prepare("select secret from subscriptions").pluck().get()).toBe(second);
    expect(w.onDisk(first)).toBe(0);
    expect(w.onDisk(second)).toBeGreaterThan(0);
    // An unknown token rotates nothing.
    expect((await w.manage("nope", "rotate")).status).toBe(404);

    // From the manage page (a form with `back`): a no-store page shows the new secret once.
    const page = await w.manage(token, "rotate", new URLSearchParams({ back: token }).toString());
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const third = /<pre id="secret">([^<]+)<\/pre>/.exec(await page.text())![1]!;
    expect(w.onDisk(second)).toBe(0);

    expect((await w.manage(token, "delete")).status).toBe(200);
    expect(w.onDisk(third)).toBe(0);
    expect(w.onDisk(rx.url)).toBe(0);
  });

  test("while another reader holds an older snapshot the log is emptied later, by the sender's next pass", async () => {
    const w = world();
    const address = "held.reader@example.org";
    await w.subscribe({ email: address });
    const token = w.token();
    getConfirm(token, { db: w.t.db, now: new Date() });
    const reader = new Database(w.t.file, { readonly: true });
    try {
      reader.exec("BEGIN");
      reader.prepare("select count(*) from subscribers").get();
      expect((await w.manage(token, "unsubscribe", "List-Unsubscribe=One-Click")).status).toBe(200);
      // The rows are gone; the old pages are still in the log the reader may need.
      expect(w.t.db.$client.prepare("select count(*) from subscribers").pluck().get()).toBe(0);
      expect(getMeta(w.t.db, META_KEYS.erasurePendingSince)).not.toBeNull();
      expect(finishErasure(w.t.db)).toBe(false);
      reader.exec("COMMIT");
    } finally {
      reader.close();
    }
    expect(finishErasure(w.t.db)).toBe(true);
    expect(getMeta(w.t.db, META_KEYS.erasurePendingSince)).toBeNull();
    expect(w.onDisk(address)).toBe(0);
  });
});
