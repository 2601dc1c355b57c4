import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { eq } from "drizzle-orm";
import { servers } from "@/db/schema";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import {
  planRegistryRead,
  refreshRegistryIfStale,
  REGISTRY_SINCE_OVERLAP_MS,
  type RegistryRefreshDeps,
} from "@/lib/rounds/registry-refresh";
import { DAY, HOUR, MINUTE } from "@/lib/rounds/schedule";
import { getMeta, META_KEYS } from "@/lib/store/meta";
import { getServerDetail } from "@/lib/store/servers/detail";
import { listServers } from "@/lib/store/servers/list";
import { tempDb } from "../store/helpers";

// The registry read of a round against a real paged registry on loopback and a real SQLite file: hourly reads of what
// changed, a daily full read, owners' withdrawals with their words, and a byte cap that keeps the previous list.

const http = (url: string) => [{ type: "streamable-http", url }];
const T0 = Date.parse("2026-12-01T00:00:00.000Z");

describe("planRegistryRead", () => {
  const now = new Date(T0);
  const at = (ms: number) => new Date(T0 - ms).toISOString();
  const base = { now, maxAgeMs: HOUR, fullMaxAgeMs: DAY };
  test.each([
    ["never read", { refreshedAt: null, fullReadAt: null, readSince: null }, { kind: "full" }],
    ["read 20 minutes ago", { refreshedAt: at(20 * MINUTE), fullReadAt: at(20 * MINUTE), readSince: at(21 * MINUTE) }, { kind: "none" }],
    [
      "read an hour ago, full read 5 hours ago",
      { refreshedAt: at(HOUR), fullReadAt: at(5 * HOUR), readSince: at(61 * MINUTE) },
      { kind: "changes", since: at(61 * MINUTE + REGISTRY_SINCE_OVERLAP_MS) },
    ],
    ["full read a day ago", { refreshedAt: at(HOUR), fullReadAt: at(DAY), readSince: at(HOUR) }, { kind: "full" }],
    ["a read whose start is unknown", { refreshedAt: at(2 * HOUR), fullReadAt: at(3 * HOUR), readSince: null }, { kind: "full" }],
    ["an unreadable stored time", { refreshedAt: "garbage", fullReadAt: at(HOUR), readSince: "garbage" }, { kind: "full" }],
    // The demo's first round: its fleet's ports are new on every start, so every page is read again.
    [
      "a full read forced by a zero age",
      { refreshedAt: at(MINUTE), fullReadAt: at(MINUTE), readSince: at(MINUTE), maxAgeMs: 0, fullMaxAgeMs: 0 },
      { kind: "full" },
    ],
  ] as const)("%s", (_label, facts, want) => {
    expect(planRegistryRead({ ...base, ...facts })).toEqual(want);
  });
});

describe("refreshRegistryIfStale", () => {
  let reg: FixtureRegistry;
  let t: ReturnType<typeof tempDb>;
  let clock = T0;
  const logs: string[] = [];
  const deps = (): RegistryRefreshDeps => ({
    db: t.db,
    registryUrl: reg.url,
    registryOptions: { sleep: async () => undefined },
  });
  const refresh = () =>
    refreshRegistryIfStale(
      deps(),
      () => new Date(clock),
      (l) => void logs.push(l),
    );
  const row = (name: string) => t.db.select().from(servers).where(eq(servers.name, name)).get();

  beforeEach(async () => {
    t = tempDb();
    clock = T0;
    logs.length = 0;
    reg = await startFixtureRegistry(
      Array.from({ length: 6 }, (_, i) =>
        entry(`io.example/s${i}`, http(`https://s${i}.example/mcp`), { updatedAt: "2026-11-20T00:00:00Z" }),
      ),
      { pageSize: 2 },
    );
  });
  afterEach(async () => {
    await reg.close();
    t.cleanup();
  });

  test("hourly reads ask only for what changed; owners' withdrawals keep the history and the owner's words", async () => {
    expect(await refresh()).toMatchObject({ ok: true, kind: "full", servers: 6 });
    expect(listServers(t.db).total).toBe(6);
    expect(getMeta(t.db, META_KEYS.registryFullReadAt)).toBe(new Date(T0).toISOString());

    // Within the hour: no read at all.
    clock = T0 + 30 * MINUTE;
    const requests = reg.requests.length;
    expect(await refresh()).toBeUndefined();
    expect(reg.requests.length).toBe(requests);

    // An hour on: one server moves, one is deprecated and one deleted by their owners, one joins, one vanishes silently.
    const changed = "2026-12-01T00:40:00Z";
    reg.entries = [
      entry("io.example/s0", http("https://s0.example/mcp"), { updatedAt: "2026-11-20T00:00:00Z" }),
      entry("io.example/s1", http("https://s1-moved.example/mcp"), { updatedAt: changed, version: "1.1.0" }),
      entry("io.example/s2", http("https://s2.example/mcp"), {
        status: "deprecated",
        statusMessage: 'Use <script>alert("v2")</script> io.example/s2-next instead',
        updatedAt: changed,
      }),
      entry("io.example/s3", http("https://s3.example/mcp"), {
        status: "deleted",
        statusMessage: "Shut down for good",
        updatedAt: changed,
      }),
      entry("io.example/s5", http("https://s5.example/mcp"), { updatedAt: "2026-11-20T00:00:00Z" }),
      entry("io.example/s6", http("https://s6.example/mcp"), { updatedAt: changed }),
    ];
    clock = T0 + HOUR;
    const first = reg.requests.length;
    expect(await refresh()).toMatchObject({ ok: true, kind: "changes", servers: 2 });
    const since = new Date(T0 - REGISTRY_SINCE_OVERLAP_MS).toISOString();
    expect(reg.requests.slice(first).every((r) => r.includes(`updated_since=${encodeURIComponent(since)}`))).toBe(true);
    expect(reg.requests.length - first).toBe(2); // four changed entries, two a page
    expect(logs.at(-1)).toBe(`[registry] changes since ${since}: 2 listed: 1 new, 1 updated, 2 withdrawn by their owners, 0 returned`);
    expect(row("io.example/s1")).toMatchObject({ remoteUrl: "https://s1-moved.example/mcp", version: "1.1.0", leftRegistryAt: null });
    expect(row("io.example/s6")).toMatchObject({ registryStatus: "active", leftRegistryAt: null });
    expect(row("io.example/s2")).toMatchObject({
      registryStatus: "deprecated",
      registryStatusMessage: 'Use <script>alert("v2")</script> io.example/s2-next instead',
      leftRegistryAt: new Date(T0 + HOUR).toISOString(),
    });
    expect(row("io.example/s3")).toMatchObject({ registryStatus: "deleted", registryStatusMessage: "Shut down for good" });
    expect(getServerDetail(t.db, "io.example/s3")).toMatchObject({
      registryStatus: "deleted",
      registryStatusMessage: "Shut down for good",
    });
    // A silent absence is not news to an incremental read.
    expect(row("io.example/s4")).toMatchObject({ registryStatus: "active", leftRegistryAt: null });
    expect(listServers(t.db).total).toBe(5);

    // A day after the first full read: every page again, and the silent one has left; the withdrawn keep their words.
    clock = T0 + DAY;
    expect(await refresh()).toMatchObject({ ok: true, kind: "full", servers: 4 });
    expect(reg.requests.at(-1)).toContain("include_deleted=true");
    expect(row("io.example/s4")).toMatchObject({ registryStatus: "left", leftRegistryAt: new Date(T0 + DAY).toISOString() });
    expect(row("io.example/s2")).toMatchObject({ registryStatus: "deprecated", leftRegistryAt: new Date(T0 + HOUR).toISOString() });
    expect(row("io.example/s3")).toMatchObject({ registryStatus: "deleted", registryStatusMessage: "Shut down for good" });
    expect(listServers(t.db, { includeLeft: true }).total).toBe(7);

    // The owner takes the deprecation back: listed and probed again, the message gone with it.
    reg.entries = reg.entries.map((e) =>
      e.server.name === "io.example/s2" ? entry("io.example/s2", http("https://s2.example/mcp"), { updatedAt: "2026-12-02T00:30:00Z" }) : e,
    );
    clock = T0 + DAY + HOUR;
    expect(await refresh()).toMatchObject({ ok: true, kind: "changes", servers: 1 });
    expect(row("io.example/s2")).toMatchObject({
      registryStatus: "active",
      registryStatusMessage: null,
      leftRegistryAt: null,
      nextDueAt: null,
    });
  });

  test("a page over the byte cap aborts the read with a clear log line and keeps the previous list", async () => {
    expect(await refresh()).toMatchObject({ ok: true, kind: "full" });
    const before = listServers(t.db).rows.map((r) => r.name);
    reg.entries = reg.entries.slice(0, 4);
    reg.faults.endlessPage = 1;
    clock = T0 + DAY;
    const r = await refreshRegistryIfStale(
      { ...deps(), registryOptions: { sleep: async () => undefined, maxPageBytes: 64 * 1024 } },
      () => new Date(clock),
      (l) => void logs.push(l),
    );
    expect(r).toMatchObject({ ok: false, kind: "full", error: expect.stringMatching(/^registry page 2 .* is larger than 65536 bytes/) });
    expect(logs.at(-1)).toMatch(
      /^\[registry\] ingestion aborted, previous data kept: registry page 2 \(.*\) is larger than 65536 bytes; the read stopped there$/,
    );
    expect(getMeta(t.db, META_KEYS.registryLastError)).toMatch(/is larger than 65536 bytes/);
    expect(listServers(t.db).rows.map((r) => r.name)).toEqual(before);
    // Nothing was stored as read: the next round tries the full read again.
    expect(getMeta(t.db, META_KEYS.registryFullReadAt)).toBe(new Date(T0).toISOString());
  });
});
