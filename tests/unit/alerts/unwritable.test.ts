// database_unwritable (architecture.md §6) against a real SQLite file on a real small tmpfs that the test fills: the
// classifier, the alert held in memory, /api/status and /metrics, the routes' 503, the webhook from memory, and the
// write that proves the database writable again.
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { postRound, status } from "@/app/api/_lib/handlers";
import { postReprobe } from "@/app/api/_lib/reprobe";
import { closeDb, openDb, type Db } from "@/db/client";
import { unwritableCode } from "@/db/write-watch";
import { storedFamilies } from "@/lib/metrics/stored";
import { startAlertClock } from "@/lib/rounds/alerts/clock";
import { startRound, type RoundSummary } from "@/lib/rounds/round";
import { createAddressPolicy } from "@/lib/probe";
import { FORM_KEY_META, issueFormToken, newFormKey } from "@/lib/site/reprobe-form";
import { openAlerts, recentAlertEvents, resolvedAlerts } from "@/lib/store/alerts";
import { getMeta, META_KEYS, setMeta } from "@/lib/store/meta";
import { metaOnce } from "@/lib/store/reprobe";
import { acquireRoundLock } from "@/lib/store/rounds";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { checkWrites, WRITE_CHECK_MIN_MS } from "@/lib/store/writes";
import { leftMounts, mountSmallDisk, type SmallDisk } from "../../fixtures/small-disk";
import { startReceiver } from "../../fixtures/webhook-receiver";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  expect(leftMounts()).toEqual([]);
});

/** A database on its own 24 MB tmpfs, with a few registry servers; closed and unmounted after the test. */
function smallDiskDb(): { disk: SmallDisk; db: Db } {
  const disk = mountSmallDisk(24);
  cleanups.push(() => disk.close());
  const db = openDb(path.join(disk.dir, "site.db"));
  cleanups.push(() => closeDb(db));
  applyRegistrySnapshot(
    db,
    ["a", "b", "c"].map((n) => ({
      name: `io.github.disk/${n}`,
      title: null,
      description: null,
      version: "1",
      url: `http://127.0.0.1:9/${n}`,
      transport: "streamable-http" as const,
      host: "127.0.0.1:9",
      needsConfig: null,
      registryUpdatedAt: null,
    })),
    new Date().toISOString(),
  );
  return { disk, db };
}

const codeOf = (f: () => unknown): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? "no code";
  }
};

describe("which errors mean the database cannot be written", () => {
  test.each([
    ["SQLITE_FULL", "SQLITE_FULL"],
    ["SQLITE_IOERR", "SQLITE_IOERR"],
    ["SQLITE_IOERR_WRITE", "SQLITE_IOERR_WRITE"],
    ["SQLITE_IOERR_FSYNC", "SQLITE_IOERR_FSYNC"],
    ["SQLITE_READONLY", "SQLITE_READONLY"],
    ["SQLITE_READONLY_DBMOVED", "SQLITE_READONLY_DBMOVED"],
    ["SQLITE_BUSY", null],
    ["SQLITE_CONSTRAINT_UNIQUE", null],
    ["SQLITE_CORRUPT", null],
    ["SQLITE_FULLY", null],
    ["ENOSPC", null],
  ])("%s → %s", (code, expected) => {
    expect(unwritableCode(Object.assign(new Error("x"), { code }))).toBe(expected);
  });

  test("errors without a string code are not", () => {
    for (const e of [new Error("database or disk is full"), null, undefined, "SQLITE_FULL", { code: 13 }])
      expect(unwritableCode(e)).toBeNull();
  });
});

describe("a full disk opens database_unwritable at the first failed write", () => {
  test("any writer's failure opens it once, /api/status and /metrics show it at once, a small write that still fits does not close it", () => {
    const { disk, db } = smallDiskDb();
    setMeta(db, META_KEYS.registryLastError, "before");
    disk.fill();
    expect(codeOf(() => setMeta(db, META_KEYS.registryLastError, "x".repeat(300_000)))).toBe("SQLITE_FULL");
    const open = db.$writes.unwritable!;
    expect(open).toMatchObject({ code: "SQLITE_FULL", error: "database or disk is full", failures: 1, resolvedAt: null });
    // A transaction (the round lock) fails too: counted once, though both its statement and its commit saw the error.
    expect(codeOf(() => acquireRoundLock(db, { holder: "h:1:x", trigger: "test", now: new Date(), staleMs: 60_000 }))).toBe("SQLITE_FULL");
    expect(db.$writes.unwritable).toBe(open);
    expect(open.failures).toBe(2);
    // Nothing of it was written: reads see what was stored before.
    expect(getMeta(db, META_KEYS.registryLastError)).toBe("before");

    expect(status(db).status).toBe(503);
    const gauge = storedFamilies(db, new Date()).find((f) => f.name === "mcp_status_alerts_open")!;
    expect(gauge.values.find((s) => s.labels.kind === "database_unwritable")?.value).toBe(1);
    expect(openAlerts(db)).toEqual([]);
    // Room for one small write is not room for a round: that write works, and the alert stays open.
    disk.freeSome(256 * 1024);
    setMeta(db, META_KEYS.crossReadEvaluatedDay, "2026-12-01");
    expect(getMeta(db, META_KEYS.crossReadEvaluatedDay)).toBe("2026-12-01");
    expect(db.$writes.unwritable).toBe(open);
    expect(checkWrites(db).writable).toBe(false);
    expect(db.$writes.unwritable).toBe(open);
  });

  test("/api/status names the kind and since; freeing the space resolves it at the next check, and it is stored then", async () => {
    const { disk, db } = smallDiskDb();
    disk.fill();
    expect(codeOf(() => setMeta(db, META_KEYS.registryLastError, "x".repeat(300_000)))).toBe("SQLITE_FULL");
    const since = db.$writes.unwritable!.since;
    const body = (await status(db).json()) as { alerts: { kind: string; since: string; message: string }[] };
    expect(body.alerts).toEqual([
      {
        kind: "database_unwritable",
        since,
        day: since.slice(0, 10),
        message: expect.stringContaining("SQLITE_FULL (database or disk is full)"),
      },
    ]);
    const t0 = Date.now();
    const first = checkWrites(db, new Date(t0));
    expect(first.writable).toBe(false);
    disk.free();
    // Asked again at once, the last answer stands; after WRITE_CHECK_MIN_MS the check writes again.
    expect(checkWrites(db, new Date(t0 + 1)).writable).toBe(false);
    expect(checkWrites(db, new Date(t0 + WRITE_CHECK_MIN_MS))).toEqual({ writable: true });
    expect(db.$writes.unwritable).toBeNull();
    expect(db.$writes.unstored).toHaveLength(1);
    expect(status(db).status).toBe(200);
  });
});

describe("the routes that would write answer 503 with a JSON error", () => {
  test("POST /api/rounds: the request's own failed write, then the open alert; 202 once space is back", async () => {
    const { disk, db } = smallDiskDb();
    const pending: Promise<RoundSummary>[] = [];
    cleanups.push(async () => void (await Promise.all(pending)));
    const opts = {
      secret: "s",
      db,
      start: () =>
        startRound({
          db,
          addressPolicy: createAddressPolicy({ allowPrivate: true }),
          robots: false,
          trigger: "test",
          log: () => undefined,
        }),
      background: (p: Promise<unknown>) => void pending.push(p as Promise<RoundSummary>),
    };
    const post = () =>
      postRound(new Request("http://localhost/api/rounds", { method: "POST", headers: { authorization: "Bearer s" } }), opts);
    disk.fill();
    const first = post();
    expect(first.status).toBe(503);
    expect(first.headers.get("content-type")).toContain("application/json");
    const json = (await first.json()) as { error: string; message: string };
    expect(json).toEqual({ error: "database_unwritable", message: expect.stringContaining("SQLITE_FULL") });
    expect(json.message).toContain("Free space");
    expect(db.$writes.unwritable?.code).toBe("SQLITE_FULL");
    const second = post();
    expect(second.status).toBe(503);
    expect(((await second.json()) as { error: string }).error).toBe("database_unwritable");

    disk.free();
    await new Promise((r) => setTimeout(r, WRITE_CHECK_MIN_MS));
    const third = post();
    expect(third.status).toBe(202);
    expect(db.$writes.unwritable).toBeNull();
  });

  test("the re-probe form: 503 JSON instead of queueing, and no request row is half written", async () => {
    const { disk, db } = smallDiskDb();
    const now = new Date();
    const token = issueFormToken(metaOnce(db, FORM_KEY_META, newFormKey), "io.github.disk/a", now);
    const started: number[] = [];
    const post = () =>
      postReprobe(
        new Request("http://127.0.0.1:3000/api/reprobe", {
          method: "POST",
          headers: { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" },
          body: new URLSearchParams({ server: "io.github.disk/a", token }),
        }),
        { db, now: () => now, limits: { minMinutes: 15, hourlyCap: 60 }, start: (id) => void started.push(id) },
      );
    disk.fill();
    const res = await post();
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "database_unwritable", message: expect.stringContaining("SQLITE_FULL") });
    expect(started).toEqual([]);
    expect(db.$client.prepare("select count(*) as n from reprobe_requests").get()).toEqual({ n: 0 });
    expect((await post()).status).toBe(503);
  });
});

describe("pages keep answering", () => {
  test("the re-probe form's key: held in memory while it cannot be stored, the same key stored once writes work", () => {
    const { disk, db } = smallDiskDb();
    const storedKey = () => db.$client.prepare("select value from meta where key = ?").get(FORM_KEY_META) as { value: string } | undefined;
    disk.fill();
    const held = metaOnce(db, FORM_KEY_META, newFormKey);
    expect(db.$writes.unwritable?.code).toBe("SQLITE_FULL");
    expect(metaOnce(db, FORM_KEY_META, newFormKey)).toBe(held);
    expect(storedKey()).toBeUndefined();
    disk.free();
    expect(metaOnce(db, FORM_KEY_META, newFormKey)).toBe(held);
    expect(storedKey()).toEqual({ value: held });
    // Stored, it is read without a write: a full disk changes nothing.
    disk.fill();
    const failures = db.$writes.unwritable!.failures;
    expect(metaOnce(db, FORM_KEY_META, newFormKey)).toBe(held);
    expect(db.$writes.unwritable!.failures).toBe(failures);
  });
});

describe("the alert clock tells it, sends it from memory, and stores it once writes work again", () => {
  test("opening POSTed at once with the kind and since, nothing sent twice, resolution stored and sent", async () => {
    const { disk, db } = smallDiskDb();
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const logs: string[] = [];
    let offset = 0;
    const clock = startAlertClock(
      {
        db,
        staleMinutes: 120,
        webhookUrl: receiver.url,
        crossRead: null,
        now: () => new Date(Date.now() + offset),
        log: (l) => void logs.push(l),
      },
      3_600_000,
    );
    cleanups.push(() => clock.stop());
    await clock.tick();
    expect(receiver.bodies).toEqual([]);

    disk.fill();
    expect(codeOf(() => setMeta(db, META_KEYS.registryLastError, "y".repeat(300_000)))).toBe("SQLITE_FULL");
    const held = db.$writes.unwritable!;
    const since = held.since;
    // Not waiting for the clock's hour: the opening goes out at once.
    await expect.poll(() => receiver.bodies.length, { timeout: 5_000 }).toBe(1);
    expect(receiver.bodies[0]).toMatchObject({
      text: expect.stringMatching(
        /^mcp-status alert database_unwritable \(the database cannot be written\) opened: writes to the database fail with SQLITE_FULL/,
      ),
      alert: { id: null, kind: "database_unwritable", state: "open", since, resolvedAt: null },
    });
    expect(logs.some((l) => l.startsWith("[alerts] database_unwritable opened: Writes to the database fail with SQLITE_FULL"))).toBe(true);
    offset += 60_000;
    await clock.tick();
    expect(receiver.bodies).toHaveLength(1);
    expect(logs.some((l) => l.startsWith("[alerts] database_unwritable still open:"))).toBe(true);

    disk.free();
    offset += 60_000;
    await clock.tick();
    expect(db.$writes.unwritable).toBeNull();
    expect(db.$writes.unstored).toEqual([]);
    const [stored] = resolvedAlerts(db, 5);
    expect(stored).toMatchObject({
      kind: "database_unwritable",
      createdAt: since,
      value: held.failures,
      message: expect.stringContaining("SQLITE_FULL"),
    });
    expect(stored!.resolvedMessage).toMatch(
      /^Writes work again at .+: the write-ahead log was checkpointed, 8 MiB fit beside the database/,
    );
    const events = recentAlertEvents(db, 5).filter((e) => e.alert.id === stored!.id);
    expect(events.map((e) => [e.event.state, e.event.deliveredAt !== null])).toEqual([
      ["resolved", true],
      ["open", true],
    ]);
    expect(receiver.bodies).toHaveLength(2);
    expect(receiver.bodies[1]).toMatchObject({ alert: { id: stored!.id, kind: "database_unwritable", state: "resolved", since } });
    await clock.tick();
    expect(receiver.bodies).toHaveLength(2);
  });
});

describe("a volume with too little room opens it before a write fails", () => {
  test("small writes still fit in the write-ahead log's space; the clock's pass measures the volume and opens it, freeing resolves it", async () => {
    const { disk, db } = smallDiskDb();
    // Room enough: a check is one statfs, and nothing is written.
    expect(checkWrites(db)).toEqual({ writable: true });
    expect(getMeta(db, META_KEYS.writesCheckedAt)).toBeNull();
    disk.fill();
    disk.freeSome(2 * 1024 * 1024);
    // The silent stretch this closes: with 2 MiB left, writes work and no write fails.
    setMeta(db, META_KEYS.registryLastError, "still fits");
    expect(db.$writes.unwritable).toBeNull();

    const lines: string[] = [];
    const clock = startAlertClock({ db, staleMinutes: 120, crossRead: null, log: (l) => void lines.push(l) }, 3_600_000);
    cleanups.push(() => clock.stop());
    await clock.tick();
    expect(db.$writes.unwritable?.code).toBe("ENOSPC");
    expect(db.$writes.unwritable!.error).toMatch(/^\d+\.\d MiB free on the database's volume, under the 8\.0 MiB/);
    expect(status(db).status).toBe(503);
    expect(lines.find((l) => l.startsWith("[alerts] database_unwritable opened"))).toMatch(/The database's volume is nearly full since/);
    // The proving write asks for the same room: still too little, still open.
    const t0 = Date.now();
    expect(checkWrites(db, new Date(t0)).writable).toBe(false);
    disk.free();
    expect(checkWrites(db, new Date(t0 + WRITE_CHECK_MIN_MS))).toEqual({ writable: true });
    expect(status(db).status).toBe(200);
  });
});
