// Owners end to end inside one process (architecture.md §11): claims verified against real loopback servers, values sealed in a
// real SQLite file, rounds that probe the owner's view with them, and what the owner is told. Nothing here is mocked.
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createAddressPolicy } from "@/lib/probe";
import { runRound } from "@/lib/rounds/round";
import { createClaim, recheckClaims, verifyClaim, ownerByToken, type OwnerDeps } from "@/lib/rounds/owners/claims";
import { setConfiguration, valueProblem } from "@/lib/rounds/owners/configure";
import { createOwnerStep } from "@/lib/rounds/owners/view";
import { jwtExpiry } from "@/lib/rounds/owners/jwt";
import { saveSubscription } from "@/lib/store/subscriptions";
import { adoptSubscription, claimByManageToken, ownerView, secretsOf } from "@/lib/store/owners";
import { seal, unseal, type SecretsKeys } from "@/lib/store/secrets";
import { addOptOut } from "@/lib/store/optouts";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { OWNER_REGISTRY_HEADERS, startOwnerServer, testJwt, type RunningOwnerServer } from "@/lib/demo/zoo/owners";
import { UNFOLDED_NOTIFICATION_EVENTS } from "@/lib/vocabulary/notifications";
import { startZooServer, type RunningZooServer } from "@/lib/demo/zoo";
import { insertClaim, markVerified, replaceSecrets } from "@/lib/store/owners";
import { secretAad } from "@/lib/store/secrets";
import { tempDb } from "../store/helpers";

const KEY: SecretsKeys = { current: randomBytes(32) };
const API_KEY = "owner-key-7f3a9c1e5b2d4068";
const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });

describe("sealed values", () => {
  test("open with the key that sealed them, also as the previous key, and not with another key or another row", () => {
    const sealed = seal(KEY, "s3cret-value", "row-1");
    expect(sealed).not.toContain("s3cret-value");
    expect(unseal(KEY, sealed, "row-1")).toBe("s3cret-value");
    const next = { current: randomBytes(32), previous: KEY.current };
    expect(unseal(next, sealed, "row-1")).toBe("s3cret-value");
    expect(unseal({ current: randomBytes(32) }, sealed, "row-1")).toBeNull();
    expect(unseal(KEY, sealed, "row-2")).toBeNull();
    expect(
      unseal(
        KEY,
        sealed.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
        "row-1",
      ),
    ).toBeNull();
  });
});

describe("JWT expiry", () => {
  test("is read from a JWT or a Bearer JWT without verifying it, and from nothing else", () => {
    expect(jwtExpiry(testJwt(2_000_000_000))?.toISOString()).toBe(new Date(2_000_000_000_000).toISOString());
    expect(jwtExpiry(`Bearer ${testJwt(2_000_000_000)}`)?.getTime()).toBe(2_000_000_000_000);
    expect(jwtExpiry("sk-live-abcdef")).toBeNull();
    expect(jwtExpiry("a.b.c")).toBeNull();
  });
});

describe("values", () => {
  test("with CR or LF, or over 8 KB, are refused", () => {
    expect(valueProblem("X-Api-Key", "abc\r\nX-Other: 1")?.error).toBe("invalid_value");
    expect(valueProblem("X-Api-Key", "abc\n")?.error).toBe("invalid_value");
    expect(valueProblem("X-Api-Key", "a".repeat(8 * 1024 + 1))?.error).toBe("value_too_long");
    expect(valueProblem("X-Api-Key", "a".repeat(8 * 1024))).toBeNull();
  });
});

describe("a claimed server with the owner's key", () => {
  const NAME = "io.github.owner/keyed";
  const GATE = "io.github.owner/jwt-gate";
  const OPEN = "io.github.owner/answers-anyway";
  let t: ReturnType<typeof tempDb>;
  let keyed: RunningOwnerServer;
  let gate: RunningOwnerServer;
  let registry: FixtureRegistry;
  let open: RunningZooServer;
  let deps: OwnerDeps;
  let clock = Date.UTC(2026, 11, 5, 9);
  const now = () => new Date(clock);
  const logLines: string[] = [];
  let manage = "";

  const round = async (keys: SecretsKeys | undefined = KEY) => {
    t.db.$client.prepare("update servers set next_due_at = ?").run(new Date(clock - 1000).toISOString());
    const s = await runRound({
      db: t.db,
      registryUrl: registry.url,
      registryOptions: { sleep: async () => undefined },
      addressPolicy: policy,
      robots: false,
      log: (l) => logLines.push(l),
      trigger: "test",
      now,
      ...(keys ? { owners: createOwnerStep(t.db, keys) } : {}),
    });
    expect(s.status).toBe("done");
  };
  const states = (name: string) =>
    t.db.$client.prepare("select state_handshake, state_tools_list, overall from servers where name = ?").get(name) as Record<
      string,
      string
    >;
  const ownerOutbox = (event: string) => t.db.$client.prepare("select count(*) from outbox where event = ?").pluck().get(event) as number;

  beforeAll(async () => {
    t = tempDb();
    keyed = await startOwnerServer("owner-key", { state: { key: API_KEY } });
    gate = await startOwnerServer("owner-jwt-gate", { host: "127.0.0.5", otherHost: "127.0.0.6", state: { now: () => clock } });
    open = await startZooServer("reach-answers-without-key");
    registry = await startFixtureRegistry([
      entry(OPEN, [{ type: "streamable-http", url: open.url, headers: OWNER_REGISTRY_HEADERS["owner-key"] }]),
      entry(NAME, [{ type: "streamable-http", url: keyed.url, headers: OWNER_REGISTRY_HEADERS["owner-key"] }]),
      entry(GATE, [{ type: "streamable-http", url: gate.url, headers: OWNER_REGISTRY_HEADERS["owner-jwt-gate"] }]),
    ]);
    deps = { db: t.db, policy, userAgent: "mcp-status-probe/test", siteUrl: "https://status.example", enabled: true, robots: false, now };
    await round(undefined);
  });

  afterAll(async () => {
    await keyed?.close();
    await gate?.close();
    await open?.close();
    await registry?.close();
    t?.cleanup();
  });

  afterEach(() => {
    clock += 60_000;
  });

  test("anonymously it is refused for want of its key: Not checked", () => {
    expect(states(NAME)).toMatchObject({ state_handshake: "not_checked", overall: "not_checked" });
    expect(states(GATE)).toMatchObject({ state_handshake: "not_checked", overall: "not_checked" });
  });

  test("a claim answers 422 proof_not_found until the proof is published, then 200 with a manage link", async () => {
    const c = createClaim(deps, { server: NAME, client: "203.0.113.1", lang: "en" });
    if (!c.ok) throw new Error(c.message);
    expect(c.claim.length).toBeGreaterThanOrEqual(22);
    expect(c.proof.url).toBe(`${keyed.origin}/.well-known/mcp-status-claim`);
    const before = await verifyClaim(deps, { claim: c.claim, client: "203.0.113.1" });
    expect(before).toMatchObject({ ok: false, error: "proof_not_found", fetched: { status: 404 } });
    keyed.state.proof = "mcp-status-claim=someone-else";
    expect(await verifyClaim(deps, { claim: c.claim, client: "203.0.113.1" })).toMatchObject({ ok: false, error: "proof_mismatch" });
    keyed.state.proof = `mcp-status-claim=someone-else\n${c.proof.body}`;
    const after = await verifyClaim(deps, { claim: c.claim, client: "203.0.113.1" });
    if (!after.ok) throw new Error(after.message);
    expect(after.manage).toMatch(/^https:\/\/status\.example\/owners\/[A-Za-z0-9_-]{32}$/);
    manage = after.manage.split("/").pop()!;
    expect(claimByManageToken(t.db, manage)?.server).toBe(NAME);
  });

  test("a proof URL that redirects is refused with its target named, and the target gets nothing", async () => {
    const target = await startOwnerServer("owner-key", { host: "127.0.0.7", otherHost: "127.0.0.8" });
    try {
      const c = createClaim(deps, { server: GATE, client: "203.0.113.2", lang: "en" });
      if (!c.ok) throw new Error(c.message);
      gate.state.proofRedirect = `${target.origin}/.well-known/mcp-status-claim`;
      const v = await verifyClaim(deps, { claim: c.claim, client: "203.0.113.2" });
      expect(v).toMatchObject({ ok: false, error: "proof_redirected" });
      expect(!v.ok && v.message).toContain(target.origin);
      expect(target.log).toHaveLength(0);
    } finally {
      gate.state.proofRedirect = undefined;
      await target.close();
    }
  });

  test("a claim on an opted-out host is refused with the reason", () => {
    addOptOut(t.db, { host: "127.0.0.9:1", reason: "asked by mail", source: "operator", since: now().toISOString() });
    t.db.$client
      .prepare("insert into servers (name, remote_url, transport, first_seen_at, last_seen_at) values (?, ?, ?, ?, ?)")
      .run("io.github.owner/opted", "http://127.0.0.9:1/mcp", "streamable-http", now().toISOString(), now().toISOString());
    const c = createClaim(deps, { server: "io.github.owner/opted", client: "203.0.113.3", lang: "en" });
    expect(c).toMatchObject({ ok: false, error: "opted_out" });
    expect(!c.ok && c.message).toContain("asked by mail");
  });

  test("a header the registry does not list, or a value with a line break, is refused; the listed one is sealed", () => {
    const claim = claimByManageToken(t.db, manage)!;
    expect(setConfiguration(t.db, KEY, claim, { headers: { "X-Other": "x" } }, now())).toMatchObject({
      ok: false,
      error: "header_not_listed",
    });
    expect(setConfiguration(t.db, KEY, claim, { headers: { Authorization: "Bearer x" } }, now())).toMatchObject({
      ok: false,
      error: "header_not_listed",
    });
    expect(setConfiguration(t.db, KEY, claim, { headers: { "X-Api-Key": "a\r\nb" } }, now())).toMatchObject({
      ok: false,
      error: "invalid_value",
    });
    expect(setConfiguration(t.db, KEY, claim, { headers: { "X-Api-Key": API_KEY } }, now())).toEqual({ ok: true });
    const rows = secretsOf(t.db, claim.id);
    expect(rows.map((r) => r.name)).toEqual(["x-api-key"]);
    expect(rows[0]!.sealed).not.toContain(API_KEY);
  });

  test("the round's owner's view is Verified with the key while the public state stays Not checked", async () => {
    const claim = claimByManageToken(t.db, manage)!;
    // The owner's own webhook-less subscription, confirmed: stands for the owner's subscriptions of §9.
    const sub = saveSubscription(t.db, {
      serverId: claim.serverId,
      channel: "webhook",
      address: "http://127.0.0.1:9/owner-hook",
      flavor: "json",
      events: ["state_changed"],
      lang: "en",
      now: now(),
      secret: "s",
    });
    adoptSubscription(t.db, sub.subscriptionId, claim.id, UNFOLDED_NOTIFICATION_EVENTS);
    const before = keyed.log.length;
    await round();
    expect(states(NAME)).toMatchObject({ state_handshake: "not_checked", overall: "not_checked" });
    const view = ownerView(t.db, claim.serverId, now())!;
    expect(view.outcome).toBe("up");
    expect(view.tools).toBeGreaterThan(0);
    expect(Object.fromEntries(view.checks.map((c) => [c.check, c.state]))).toMatchObject({
      handshake: "verified",
      protocol_version: "verified",
      tools_list: "verified",
    });
    expect(view.uptime.last24h).toMatchObject({ up: 1, reached: 1 });
    // The anonymous probe sent no key; the owner's sent it on every request, to the remote's origin only.
    const sent = keyed.log.slice(before).filter((r) => r.path === "/mcp");
    expect(sent.some((r) => r.headers["x-api-key"] === undefined)).toBe(true);
    expect(sent.some((r) => r.headers["x-api-key"] === API_KEY)).toBe(true);
    expect(JSON.stringify(view.exchanges)).not.toContain(API_KEY);
    expect(JSON.stringify(view.exchanges)).toContain("‹redacted›");
  });

  test("a refused key makes the owner's view Not checked and tells the owner once; the metadata host never sees the key", async () => {
    const claim = claimByManageToken(t.db, manage)!;
    keyed.state.key = "rotated-by-the-owner-elsewhere";
    await round();
    const view = ownerView(t.db, claim.serverId, now())!;
    expect(view.outcome).toBe("refused");
    expect(view.checks.find((c) => c.check === "handshake")).toMatchObject({
      state: "not_checked",
      notCheckedCause: "credential_required",
    });
    expect(view.checks.every((c) => c.state !== "failed")).toBe(true);
    expect(ownerOutbox("owner_configuration_refused")).toBe(1);
    // The 401 pointed at a metadata host elsewhere: it was asked, without the key.
    expect(keyed.other.log.length).toBeGreaterThan(0);
    expect(JSON.stringify(keyed.other.log)).not.toContain(API_KEY);
    // The server echoed the key in its body: stored redacted.
    expect(JSON.stringify(view.exchanges)).not.toContain(API_KEY);
    await round();
    expect(ownerOutbox("owner_configuration_refused")).toBe(1);
    expect(states(NAME).overall).toBe("not_checked");
  });

  test("a JWT within 72 h of its exp is told once, when saved; the gate lets the owner's view in", async () => {
    const c = createClaim(deps, { server: GATE, client: "203.0.113.4", lang: "en" });
    if (!c.ok) throw new Error(c.message);
    gate.state.proof = c.proof.body;
    const v = await verifyClaim(deps, { claim: c.claim, client: "203.0.113.4" });
    if (!v.ok) throw new Error(v.message);
    const claim = claimByManageToken(t.db, v.manage.split("/").pop()!)!;
    const sub = saveSubscription(t.db, {
      serverId: claim.serverId,
      channel: "webhook",
      address: "http://127.0.0.1:9/gate-owner-hook",
      flavor: "json",
      events: ["state_changed"],
      lang: "en",
      now: now(),
      secret: "s",
    });
    adoptSubscription(t.db, sub.subscriptionId, claim.id, UNFOLDED_NOTIFICATION_EVENTS);
    const jwt = testJwt(Math.floor(clock / 1000) + 48 * 3600);
    expect(setConfiguration(t.db, KEY, claim, { headers: { Authorization: `Bearer ${jwt}` } }, now())).toEqual({ ok: true });
    expect(ownerOutbox("owner_token_expiring")).toBe(1);
    await round();
    expect(ownerView(t.db, claim.serverId, now())?.outcome).toBe("up");
    expect(ownerOutbox("owner_token_expiring")).toBe(1);
    expect(states(GATE).overall).toBe("not_checked");
  });

  test("neither value is in the raw database file, its WAL, or the round's log lines", () => {
    t.db.$client.pragma("wal_checkpoint(PASSIVE)");
    const jwtPart = secretsOf(t.db, claimByManageToken(t.db, manage)!.id)[0]!.sealed.split(":")[4]!;
    expect(jwtPart.length).toBeGreaterThan(0);
    for (const file of [t.file, `${t.file}-wal`]) {
      if (!fs.existsSync(file)) continue;
      const raw = fs.readFileSync(file);
      expect(raw.includes(Buffer.from(API_KEY))).toBe(false);
      expect(raw.includes(Buffer.from("eyJzdWIiOiJvd25lciIsImV4cCI6"))).toBe(false);
    }
    expect(logLines.join("\n")).not.toContain(API_KEY);
  });

  test("another SECRETS_KEY after a restart: the round carries on, the owner's view says the configuration cannot be read", async () => {
    const claim = claimByManageToken(t.db, manage)!;
    await round({ current: randomBytes(32) });
    const view = ownerView(t.db, claim.serverId, now())!;
    expect(view.outcome).toBe("unreadable");
    expect(view.checks[0]!.reason).toContain("cannot be read");
    expect(states(NAME).overall).toBe("not_checked");
  });

  test("a server that answers without its key gets no owner's-view probe: the values are never sent", async () => {
    const serverId = t.db.$client.prepare("select id from servers where name = ?").pluck().get(OPEN) as number;
    const { claimId } = insertClaim(t.db, { serverId, origin: new URL(open.url).origin, proof: "p", lang: "en", now: now() });
    markVerified(t.db, claimId, now(), new Date(clock + 86_400_000));
    const aad = secretAad(claimId, "header", "x-api-key");
    replaceSecrets(t.db, claimId, [{ kind: "header", name: "x-api-key", sealed: seal(KEY, API_KEY, aad), expiresAt: null }], now());
    await round();
    expect(states(OPEN).overall).toBe("verified");
    expect(ownerView(t.db, serverId, now())).toBeNull();
    expect(open.log.some((r) => r.headers["x-api-key"] !== undefined)).toBe(false);
  });

  test("guessing tokens is limited per client address", () => {
    const limited = { ...deps, guessHourlyCap: 3 };
    for (let i = 0; i < 3; i++)
      expect(ownerByToken(limited, `guess-${i}`, "198.51.100.7")).toMatchObject({ ok: false, error: "unknown_claim" });
    expect(ownerByToken(limited, manage, "198.51.100.7")).toMatchObject({ ok: false, error: "rate_limited" });
    expect(ownerByToken(limited, manage, "198.51.100.8")).toMatchObject({ server: NAME });
  });

  test("a proof gone at two weekly re-checks lapses the claim and deletes its configuration", async () => {
    const claim = claimByManageToken(t.db, manage)!;
    keyed.state.proof = undefined;
    clock += 8 * 86_400_000;
    expect(await recheckClaims(deps)).toMatchObject({ lapsed: 0 });
    expect(claimByManageToken(t.db, manage)).not.toBeNull();
    clock += 8 * 86_400_000;
    await recheckClaims(deps);
    expect(claimByManageToken(t.db, manage)).toBeNull();
    expect(secretsOf(t.db, claim.id)).toHaveLength(0);
  });
});
