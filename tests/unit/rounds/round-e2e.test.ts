import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getServer, getServers } from "@/app/api/_lib/handlers";
import type { Db } from "@/db/client";
import { CHECK_IDS, type CheckId, type CheckState } from "@/lib/vocabulary/checks";
import { createAddressPolicy } from "@/lib/probe";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { runRound, type RoundDeps } from "@/lib/rounds/round";
import { HOUR } from "@/lib/rounds/schedule";
import { coverageBetween } from "@/lib/store/coverage";
import { addOptOut } from "@/lib/store/optouts";
import { getServerDetail } from "@/lib/store/servers/detail";
import { listServers } from "@/lib/store/servers/list";
import { getMeta, META_KEYS } from "@/lib/store/meta";
import { entry, startFixtureRegistry, type FixtureEntry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startZooServer, ZOO_ALSO_ACCEPTABLE, ZOO_EXPECTATIONS, zooRemote, type RunningZooServer } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

// One round over the whole zoo, listed by a paged fixture registry, into a real SQLite file.

const PREFIX = "io.github.zoo/";
// TLS and broken-network cases need the zoo harness's certificates and lookups.
const names = Object.keys(ZOO_EXPECTATIONS).filter((n) => !ZOO_EXPECTATIONS[n]!.tls && !ZOO_EXPECTATIONS[n]!.network);
const zoo = new Map<string, RunningZooServer>();
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;
let db: Db;
const logs: string[] = [];
const t0 = new Date("2026-11-29T12:00:00.000Z");
let clock = t0.getTime();

function deps(extra: Partial<RoundDeps> = {}): RoundDeps {
  return {
    db,
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    registryMaxAgeMs: 30 * 60_000,
    // Every read here is a full one: these tests change the listing between rounds an hour apart.
    registryFullReadMaxAgeMs: 30 * 60_000,
    concurrency: 16,
    // Loopback only: the private-metadata case must still be refused.
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    limits: { deadlineMs: 10_000, maxBodyBytes: 1024 * 1024 },
    robots: false,
    now: () => new Date(clock),
    log: (l) => logs.push(l),
    trigger: "test",
    ...extra,
  };
}

function expectedStates(name: string, actual: Record<CheckId, CheckState | null>): Record<CheckId, CheckState> {
  const exp = ZOO_EXPECTATIONS[name]!;
  const alt = ZOO_ALSO_ACCEPTABLE[name] ?? {};
  return Object.fromEntries(
    CHECK_IDS.map((id) => {
      const a = actual[id];
      return [id, a && alt[id]?.includes(a) ? a : exp.states[id]];
    }),
  ) as Record<CheckId, CheckState>;
}

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  const started = await Promise.all(names.map((n) => startZooServer(n)));
  started.forEach((s, i) => zoo.set(names[i]!, s));
  const entries: FixtureEntry[] = names.map((n) => entry(PREFIX + n, [zooRemote(n, zoo.get(n)!.url)]));
  entries.splice(
    3,
    0,
    entry("io.github.x/deprecated", [{ type: "streamable-http", url: "http://127.0.0.1:9/mcp" }], { status: "deprecated" }),
  );
  entries.splice(7, 0, entry("io.github.x/deleted", [{ type: "streamable-http", url: "http://127.0.0.1:9/mcp" }], { status: "deleted" }));
  entries.push(entry("io.github.x/templated", [{ type: "streamable-http", url: "http://{tenant}.127.0.0.1.nip.io/mcp" }]));
  entries.push(
    entry("io.github.x/secret", [
      { type: "streamable-http", url: "http://127.0.0.1:9/mcp", headers: [{ name: "Authorization", isSecret: true, isRequired: true }] },
    ]),
  );
  registry = await startFixtureRegistry(entries, { pageSize: 7 });
  registry.faults.rateLimitNext = 1;
  registry.faults.retryAfter = "1";
  // The operator opted out the opted-out zoo server's host, and the host its metadata-on-other-host sibling points at.
  for (const [n, s] of zoo) {
    const exp = ZOO_EXPECTATIONS[n]!;
    if (exp.optOut === "server")
      addOptOut(db, {
        host: new URL(s.origin).host,
        reason: "the operator asked us not to probe this host",
        source: "operator",
        since: t0.toISOString(),
      });
    if (exp.optOut === "metadata" && s.other)
      addOptOut(db, {
        host: s.other.host,
        reason: "the operator asked us not to probe this host",
        source: "operator",
        since: t0.toISOString(),
      });
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([...zoo.values()].map((s) => s.close()));
  await registry?.close();
  t?.cleanup();
});

describe("a round over the fixture registry and the zoo", () => {
  test("ingests the registry, probes every due server, and stores the zoo's expected states", async () => {
    const summary = await runRound(deps());
    expect(summary.status).toBe("done");
    expect(summary.registry).toMatchObject({ ok: true, servers: names.length + 2 });
    expect(registry.requests.length).toBeGreaterThan(Math.ceil((names.length + 4) / 7)); // every page, plus the 429 retry
    expect(summary.due).toBe(names.length + 2);
    expect(summary.probed).toBe(summary.due);

    const mismatches: string[] = [];
    for (const n of names) {
      const d = getServerDetail(db, PREFIX + n);
      expect(d, n).not.toBeNull();
      const actual = d!.states;
      const want = expectedStates(n, actual);
      for (const id of CHECK_IDS) if (actual[id] !== want[id]) mismatches.push(`${n}.${id}: ${actual[id]} (want ${want[id]})`);
      expect(d!.checks.map((c) => c.check)).toEqual([...CHECK_IDS]);
      for (const c of d!.checks) expect(c.reason.length, `${n}.${c.check}`).toBeGreaterThan(0);
      const exp = ZOO_EXPECTATIONS[n]!;
      if (exp.era && d!.latestRun) expect(d!.era, n).toBe(exp.era);
      // The round's host gate: one request at a time per host (the request rules themselves are the zoo tests').
      const peak = zoo.get(n)!.concurrency?.peak ?? 0;
      if (peak > 1) mismatches.push(`${n}: ${peak} requests in flight at once`);
    }
    expect(mismatches).toEqual([]);
    expect(zoo.get("opted-out-host")!.log).toEqual([]);
    expect(zoo.get("auth-prm-on-opted-out-host")!.other!.log).toEqual([]);
    const line = logs.find((l) =>
      /^\[rounds\] \d+ due, \d+ read, \d+ partly read, \d+ failed, \d+ gated, \d+ slowed down, \d+ skipped in \d+ s$/.test(l),
    );
    expect(line).toBeDefined();
    // Every probed server lands in exactly one count.
    const counts = [...line!.matchAll(/(\d+) (?:read|partly read|failed|gated|slowed down|skipped)/g)].map((m) => Number(m[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(summary.probed);
    expect(summary.partlyRead).toBeGreaterThanOrEqual(2); // the two endless lists at least
    expect(summary.slowedDown).toBeGreaterThanOrEqual(2);
  }, 120_000);

  test("the healthy server's detail carries evidence, tools, schedule and a first transition per check", () => {
    const d = getServerDetail(db, `${PREFIX}modern-healthy-paged`)!;
    expect(d.era).toBe("modern");
    expect(d.protocolVersion).toBe("2026-07-28");
    expect(d.lastSuccessAt).toBe(t0.toISOString());
    expect(d.exchanges.length).toBeGreaterThan(2);
    expect(d.exchanges[0]).toMatchObject({ phase: "discover", method: "POST" });
    expect(d.tools?.length).toBe(d.toolCount);
    expect(d.toolCount).toBeGreaterThan(0);
    expect(d.transitions).toHaveLength(5);
    expect(d.transitions.every((x) => x.fromState === null)).toBe(true);
    expect(d.schedule.nextDueAt).not.toBeNull();
    expect(Date.parse(d.schedule.nextDueAt!) - t0.getTime()).toBeGreaterThanOrEqual(30 * 60_000);
    expect(d.schedule.scheduleReason).toMatch(/^healthy/);
  });

  test("a URL variable without a default gets no request; a required header alone is probed without it (0.15.0)", () => {
    const tpl = getServerDetail(db, "io.github.x/templated")!;
    expect(Object.values(tpl.states)).toEqual(Array(5).fill("not_checked"));
    expect(tpl.checks[0]!.reason).toMatch(/needs configuration.*\{tenant\} with no default/);
    expect(tpl.configuration).toEqual({ needed: true, headers: [], reach: "no_address" });
    expect(tpl.exchanges).toEqual([]);
    // Nothing listens on port 9: no HTTP answer, so Failed as any server, never excused by the missing key.
    const secret = getServerDetail(db, "io.github.x/secret")!;
    expect(secret.exchanges.length).toBeGreaterThan(0);
    expect(secret.exchanges.every((x) => x.requestHeaders.authorization === undefined)).toBe(true);
    expect(secret.states.handshake).toBe("failed");
    expect(secret.configuration).toEqual({ needed: true, headers: ["Authorization"], reach: "unreachable" });
    const refused = getServerDetail(db, `${PREFIX}reach-403-json`)!;
    expect(refused.configuration).toEqual({
      needed: true,
      headers: ["X-Api-Key"],
      reach: "refused",
      refusal: { status: 403, shape: "bare_status" },
    });
    expect(refused.overall).toBe("not_checked");
    expect(refused.overallCause).toBe("needs_configuration");
    expect(getServerDetail(db, `${PREFIX}reach-500-html`)!.configuration.refusal).toEqual({ status: 500, shape: "malformed" });
    expect(getServerDetail(db, `${PREFIX}reach-answers-without-key`)!.configuration.reach).toBe("answered");
    expect(getServerDetail(db, `${PREFIX}reach-template-bearer-gate`)!.configuration.reach).toBe("gated");
    expect(getServerDetail(db, `${PREFIX}modern-healthy-paged`)!.configuration).toEqual({
      needed: false,
      headers: [],
      reach: "not_needed",
    });
    expect(getServerDetail(db, "io.github.x/deprecated")).toBeNull();
    expect(getServerDetail(db, "io.github.x/deleted")).toBeNull();
  });

  test("failures, gates and slow-downs are scheduled by the rules", () => {
    const at = (n: string) => Date.parse(getServerDetail(db, PREFIX + n)!.schedule.nextDueAt!) - t0.getTime();
    const failures = (n: string) => getServerDetail(db, PREFIX + n)!.schedule.consecutiveFailures;
    expect(at("discover-500-stack-trace")).toBeGreaterThanOrEqual(6 * HOUR);
    expect(failures("discover-500-stack-trace")).toBe(1);
    expect(at("credential-gate-valid-prm")).toBeGreaterThanOrEqual(24 * HOUR);
    expect(at("slow-down-429-discover")).toBeGreaterThanOrEqual(30 * 60_000);
    expect(at("opted-out-host")).toBeGreaterThan(300 * 24 * HOUR);
    // A good handshake, then a tool list behind a credential gate: a day at least, not 30 min.
    expect(at("modern-tools-list-gated")).toBeGreaterThanOrEqual(24 * HOUR);
    // A good handshake, then a tool list that fails: backed off like a handshake failure.
    for (const n of ["legacy-tools-list-refused", "modern-rejects-second-tools-list-page"]) {
      expect(getServerDetail(db, PREFIX + n)!.states, n).toMatchObject({ handshake: "verified", tools_list: "failed" });
      expect(at(n), n).toBeGreaterThanOrEqual(6 * HOUR);
      expect(failures(n), n).toBe(1);
    }
    // architecture.md §2.6 (0.15.0): refused or gated without the listed headers waits a day; answered keeps the healthy
    // cadence; no HTTP answer backs off as any failure.
    expect(at("reach-403-json")).toBeGreaterThanOrEqual(24 * HOUR);
    expect(at("reach-template-bearer-gate")).toBeGreaterThanOrEqual(24 * HOUR);
    expect(failures("reach-403-json")).toBe(0);
    expect(at("reach-answers-without-key")).toBeLessThan(6 * HOUR);
    expect(getServerDetail(db, `${PREFIX}reach-answers-without-key`)!.schedule.scheduleReason).toMatch(/^healthy/);
    // No common revision: nothing to read until the server changes, so it backs off too.
    expect(at("legacy-no-common-version")).toBeGreaterThanOrEqual(6 * HOUR);
    // The metadata host asked for 2 h; the MCP server itself answered everything and stays on the healthy cadence.
    const meta = getServerDetail(db, `${PREFIX}metadata-host-slow-down`)!;
    expect(meta.checks.find((c) => c.check === "auth_metadata")!.reason).toMatch(/429/);
    expect(meta.schedule.scheduleReason).toMatch(/^healthy/);
    expect(at("metadata-host-slow-down")).toBeLessThanOrEqual(6 * HOUR);
    // A gate whose own metadata asks to slow down still waits the gate's day.
    expect(at("auth-prm-429")).toBeGreaterThanOrEqual(24 * HOUR);
    // Healthy servers, endless lists included (Observed risk, not a failure): never later than 6 h.
    for (const n of ["modern-healthy-paged", "pagination-endless-cursor", "pagination-cursor-loop", "tools-duplicate-names"]) {
      expect(at(n), n).toBeLessThanOrEqual(6 * HOUR);
      expect(failures(n), n).toBe(0);
    }
  });

  test("a complete read counts as read: malformed lists do, endless lists do not", () => {
    for (const n of ["tools-without-name", "tools-schema-not-object", "tools-duplicate-names"]) {
      const d = getServerDetail(db, PREFIX + n)!;
      expect(d.states.tools_list, n).toBe("observed_risk");
      expect(d.lastSuccessAt, n).toBe(t0.toISOString());
      expect(d.latestRun?.read, n).toBe(true);
      expect(d.tools?.length, n).toBe(d.toolCount);
      expect(d.toolCount, n).toBeGreaterThan(0);
    }
    for (const n of ["pagination-endless-cursor", "pagination-cursor-loop"]) {
      const d = getServerDetail(db, PREFIX + n)!;
      expect(d.states.tools_list, n).toBe("observed_risk");
      expect(d.lastSuccessAt, n).toBeNull();
      expect(d.latestRun?.read, n).toBe(false);
      expect(d.tools, n).toBeNull();
    }
  });

  test("coverage counts distinct servers read completely and attempted for the UTC day", () => {
    const [day] = coverageBetween(db, "2026-11-29", "2026-11-29");
    const read = listServers(db, { pageSize: 200 }).rows.filter((r) => r.lastSuccessAt === t0.toISOString()).length;
    const verified = listServers(db, { states: { handshake: "verified", tools_list: "verified" }, pageSize: 200 }).total;
    expect(day).toMatchObject({ day: "2026-11-29", serversRead: read });
    expect(read).toBeGreaterThanOrEqual(verified + 3); // the three malformed-but-complete lists count
    // Opted-out and needs-configuration servers were not attempted.
    expect(day!.serversAttempted).toBe(names.length - 1);
    expect(day!.requests).toBeGreaterThan(day!.requestsOk);
  });

  test("the JSON routes answer with the stored states", async () => {
    const res = getServer(`${PREFIX}modern-healthy-paged`, db);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { checks: Record<string, { state: string; reason: string; suiteVersion: string }>; era: string };
    expect(Object.keys(body.checks)).toEqual([...CHECK_IDS]);
    expect(body.checks.handshake).toMatchObject({ state: "verified", suiteVersion: SUITE_VERSION });
    expect(getServer("io.github.zoo/no-such-server", db).status).toBe(404);

    const list = getServers(new Request("http://x/api/servers?tools_list=observed_risk&pageSize=100"), db);
    const page = (await list.json()) as { total: number; rows: { name: string; states: Record<string, string> }[] };
    const want = names.filter((n) => ZOO_EXPECTATIONS[n]!.states.tools_list === "observed_risk").length;
    expect(page.total).toBeGreaterThanOrEqual(want - 1);
    expect(page.rows.every((r) => r.states.tools_list === "observed_risk")).toBe(true);
    expect(getServers(new Request("http://x/api/servers?tools_list=green"), db).status).toBe(400);

    // ?reach= (architecture.md §4, suite 0.15.0): the same rule as each server's configuration.
    const byReach = async (reach: string) =>
      ((await getServers(new Request(`http://x/api/servers?reach=${reach}&pageSize=200`), db).json()) as { rows: { name: string }[] }).rows
        .map((r) => r.name)
        .sort();
    expect(await byReach("refused")).toEqual(
      ["reach-403-json", "reach-400-jsonrpc", "reach-500-html", "reach-bare-401", "reach-tools-list-403"].map((n) => PREFIX + n).sort(),
    );
    expect(await byReach("no_address")).toEqual(["io.github.x/templated", `${PREFIX}reach-tenant-no-address`].sort());
    expect(await byReach("unreachable")).toEqual(["io.github.x/secret"]);
    expect(await byReach("gated")).toEqual([`${PREFIX}reach-template-bearer-gate`]);
    expect(await byReach("not_needed")).toContain(`${PREFIX}reach-control-optional-header`);
    expect(getServers(new Request("http://x/api/servers?reach=maybe"), db).status).toBe(400);
  });

  test("a second round right away finds nothing due; later rounds keep states and transitions stable", async () => {
    const again = await runRound(deps());
    expect(again).toMatchObject({ status: "done", due: 0 });
    const before = getServerDetail(db, `${PREFIX}modern-healthy-paged`)!;
    clock += 45 * 60_000; // healthy servers (30 min) are due again; failures (6 h) are not
    const later = await runRound(deps());
    expect(later.due).toBeGreaterThan(0);
    const after = getServerDetail(db, `${PREFIX}modern-healthy-paged`)!;
    expect(after.states).toEqual(before.states);
    expect(after.transitions).toHaveLength(5);
    expect(after.checks[0]!.since).toBe(before.checks[0]!.since);
    expect(after.latestRun!.id).not.toBe(before.latestRun!.id);
    expect(after.toolChanges).toEqual([]);
    expect(after.schedule.scheduleReason).toMatch(/unchanged 1 time/);
  }, 120_000);

  test("a garbage registry page aborts ingestion and leaves the previous data intact", async () => {
    const beforeTotal = listServers(db, { includeLeft: true }).total;
    const listedBefore = listServers(db).total;
    registry.faults.garbagePage = 1;
    clock += HOUR; // the registry view is stale again
    logs.length = 0;
    const r = await runRound(deps());
    registry.faults.garbagePage = null;
    expect(r.status).toBe("done");
    expect(r.registry).toMatchObject({ ok: false });
    expect(r.registry?.error).toMatch(/registry page 2 .* (is not JSON|is not a server list)/);
    expect(logs.some((l) => l.startsWith("[registry] ingestion aborted, previous data kept"))).toBe(true);
    expect(getMeta(db, META_KEYS.registryLastError)).toMatch(/registry page 2/);
    expect(listServers(db, { includeLeft: true }).total).toBe(beforeTotal);
    expect(listServers(db).total).toBe(listedBefore);
  }, 120_000);

  test("a registry that suddenly lists less than half the servers is not trusted", async () => {
    const all = registry.entries;
    registry.entries = all.slice(0, 5);
    clock += HOUR;
    const listedBefore = listServers(db).total;
    const r = await runRound(deps());
    registry.entries = all;
    expect(r.registry).toMatchObject({ ok: false, error: expect.stringMatching(/fewer than half of the \d+ listed before/) });
    expect(listServers(db).total).toBe(listedBefore);
  }, 120_000);

  test("a server that leaves the registry keeps its history and is not probed; listed again, it is cleared", async () => {
    const gone = `${PREFIX}modern-healthy-paged`;
    const all = registry.entries;
    registry.entries = all.filter((e) => e.server.name !== gone);
    clock += HOUR;
    await runRound(deps());
    const d = getServerDetail(db, gone)!;
    expect(d.leftRegistryAt).toBe(new Date(clock).toISOString());
    expect(d.transitions).toHaveLength(5);
    expect(listServers(db).rows.some((r) => r.name === gone)).toBe(false);
    registry.entries = all;
    clock += HOUR;
    await runRound(deps());
    expect(getServerDetail(db, gone)!.leftRegistryAt).toBeNull();
  }, 120_000);
});
