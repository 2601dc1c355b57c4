// URL variables an owner fills in (architecture.md §11), inside one process: a loopback server listed as
// http://127.0.0.1:<port>/{tenant}/mcp gets no request anonymously (no address); with its owner's value the owner's view
// probes the filled URL and is Verified, while the public reach stays no_address and no stored string carries the value,
// not even a two-character one. Nothing here is mocked.
import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { createAddressPolicy } from "@/lib/probe";
import { runRound } from "@/lib/rounds/round";
import { createClaim, verifyClaim, type OwnerDeps } from "@/lib/rounds/owners/claims";
import { ownerFields, setConfiguration } from "@/lib/rounds/owners/configure";
import { fillTemplate, hostIsVariable, variableProblem } from "@/lib/rounds/owners/variables";
import { createOwnerStep } from "@/lib/rounds/owners/view";
import { curlCommand } from "@/lib/site/curl";
import { claimByManageToken, ownerTargetById, ownerView, secretsOf } from "@/lib/store/owners";
import { configurationOf } from "@/lib/store/servers/configuration";
import type { SecretsKeys } from "@/lib/store/secrets";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startOwnerServer, type RunningOwnerServer } from "@/lib/demo/zoo/owners";
import type { Exchange } from "@/lib/probe/types";
import { tempDb } from "../store/helpers";

const KEY: SecretsKeys = { current: randomBytes(32) };
const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
// Two characters, neither in base64url nor in the site's own words: a leak of it cannot hide among ciphertext.
const SHORT = "e~";
const LONG = "acme-tenant-4b1d";

describe("URL values", () => {
  const template = "https://{region}.example.com/{tenant}/mcp";
  test("are refused with / ? # @, whitespace, control characters or a dot segment; in the host only a DNS label passes", () => {
    for (const bad of ["a/b", "a?b", "a#b", "a@b", "a b", "a\tb", "a\u0001b", "..", "a\\b", ""])
      expect(variableProblem(template, "tenant", bad)?.error).toBe("invalid_value");
    expect(variableProblem(template, "tenant", "é~x-1")).toBeNull();
    expect(variableProblem(template, "region", "eu-west-1")).toBeNull();
    expect(variableProblem(template, "region", "eu_west")?.error).toBe("invalid_value");
    expect(variableProblem(template, "region", "-eu")?.error).toBe("invalid_value");
  });

  test("fill the path percent-encoded, keep to the origin, and redact by rebuilding from the template", () => {
    const vars = { template: "http://127.0.0.1:9/{tenant}/mcp", names: ["tenant"], headers: [] };
    const f = fillTemplate(vars, { tenant: "é~" }, "http://127.0.0.1:9");
    expect(f).toMatchObject({ ok: true, url: "http://127.0.0.1:9/%C3%A9~/mcp", redacted: "http://127.0.0.1:9/‹redacted›/mcp" });
    expect(fillTemplate(vars, { tenant: "x" }, "http://127.0.0.1:10").ok).toBe(false);
    expect(fillTemplate(vars, {}, "http://127.0.0.1:9").ok).toBe(false);
    expect(hostIsVariable("https://{tenant}.example.com/mcp")).toBe(true);
    expect(hostIsVariable("https://example.com:{port}/mcp")).toBe(true);
    expect(hostIsVariable("http://127.0.0.1:9/{tenant}/mcp")).toBe(false);
  });
});

describe("a claimed server whose URL has a variable without a default", () => {
  const NAME = "io.github.owner/tenant";
  const HOSTVAR = "io.github.owner/tenant-host";
  const KEYED = "io.github.owner/tenant-and-key";
  const KEY_VALUE = "tk-9d2e71c04fa3";
  let t: ReturnType<typeof tempDb>;
  let tenant: RunningOwnerServer;
  let keyed: RunningOwnerServer;
  let registry: FixtureRegistry;
  let deps: OwnerDeps;
  let clock = Date.UTC(2026, 11, 6, 3);
  const now = () => new Date(clock);
  const logLines: string[] = [];
  let manage = "";
  let serverId = 0;

  const round = async () => {
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
      owners: createOwnerStep(t.db, KEY),
    });
    expect(s.status).toBe("done");
  };
  const publicRow = () =>
    t.db.$client
      .prepare("select id, overall, needs_config, config_headers, reach, reach_refusal from servers where name = ?")
      .get(NAME) as Record<string, string | null> & { id: number };
  const mcpRequests = () => tenant.log.filter((r) => r.path.endsWith("/mcp"));

  beforeAll(async () => {
    t = tempDb();
    tenant = await startOwnerServer("owner-tenant", { host: "127.0.0.1", otherHost: "127.0.0.11", state: { tenant: SHORT } });
    keyed = await startOwnerServer("owner-tenant", {
      host: "127.0.0.15",
      otherHost: "127.0.0.16",
      state: { tenant: "zz-top", key: KEY_VALUE },
    });
    registry = await startFixtureRegistry([
      entry(NAME, [
        {
          type: "streamable-http",
          url: `${tenant.origin}/{tenant}/mcp`,
          variables: { tenant: { description: "Your tenant", isRequired: true } },
        },
      ]),
      entry(KEYED, [
        {
          type: "streamable-http",
          url: `${keyed.origin}/{tenant}/mcp`,
          variables: { tenant: { description: "Your tenant" } },
          headers: [{ name: "X-Api-Key", isRequired: true, isSecret: true }],
        },
      ]),
      entry(HOSTVAR, [
        { type: "streamable-http", url: "https://{tenant}.example.invalid/mcp", variables: { tenant: { description: "Your tenant" } } },
      ]),
    ]);
    deps = { db: t.db, policy, userAgent: "mcp-status-probe/test", siteUrl: "https://status.example", enabled: true, robots: false, now };
    await round();
    serverId = publicRow().id;
  });

  afterAll(async () => {
    await tenant?.close();
    await keyed?.close();
    await registry?.close();
    t?.cleanup();
  });

  afterEach(() => {
    clock += 60_000;
  });

  test("anonymously it gets no request: no address, and the variable is stored for the owner", () => {
    expect(mcpRequests()).toHaveLength(0);
    expect(configurationOf(publicRow() as never).reach).toBe("no_address");
    const target = ownerTargetById(t.db, serverId)!;
    expect(target.urlVariables).toEqual({ template: `${tenant.origin}/{tenant}/mcp`, names: ["tenant"], headers: [] });
    expect(ownerFields(target)).toEqual({ headers: [], variables: ["tenant"] });
  });

  test("a claim on a template whose host is a variable is refused with its own reason", () => {
    const c = createClaim(deps, { server: HOSTVAR, client: "203.0.113.20", lang: "en" });
    expect(c).toMatchObject({ ok: false, error: "variable_host" });
    expect(!c.ok && c.message).toContain("host");
  });

  test("the claim is on the template's origin, and verifies there", async () => {
    const c = createClaim(deps, { server: NAME, client: "203.0.113.21", lang: "en" });
    if (!c.ok) throw new Error(c.message);
    expect(c.proof.url).toBe(`${tenant.origin}/.well-known/mcp-status-claim`);
    tenant.state.proof = c.proof.body;
    const v = await verifyClaim(deps, { claim: c.claim, client: "203.0.113.21" });
    if (!v.ok) throw new Error(v.message);
    manage = v.manage.split("/").pop()!;
  });

  test("a variable the registry does not list, a missing one, or a bad value is refused; the listed one is sealed", () => {
    const claim = claimByManageToken(t.db, manage)!;
    const put = (variables: Record<string, string>, headers: Record<string, string> = {}) =>
      setConfiguration(t.db, KEY, claim, { headers, variables }, now());
    expect(put({ tenant: SHORT, region: "eu" })).toMatchObject({ ok: false, error: "variable_not_listed" });
    expect(put({})).toMatchObject({ ok: false, error: "variable_missing" });
    expect(put({}, { "X-Api-Key": "k" })).toMatchObject({ ok: false, error: "variable_missing" });
    for (const bad of ["a/b", "x@evil.example", "a b", "..", "a\nb"]) {
      const a = put({ tenant: bad });
      expect(a).toMatchObject({ ok: false, error: "invalid_value" });
      expect(!a.ok && a.message).not.toContain(bad);
    }
    expect(put({ tenant: SHORT })).toEqual({ ok: true });
    const rows = secretsOf(t.db, claim.id);
    expect(rows.map((r) => [r.kind, r.name])).toEqual([["variable", "tenant"]]);
    expect(rows[0]!.sealed).not.toContain(SHORT);
  });

  test("the round's owner's view is Verified on the filled URL while the public reach stays no_address", async () => {
    const before = mcpRequests().length;
    await round();
    const row = publicRow();
    expect(row.overall).toBe("not_checked");
    expect(configurationOf(row as never).reach).toBe("no_address");
    const view = ownerView(t.db, serverId, now())!;
    expect(view.outcome).toBe("up");
    expect(view.tools).toBeGreaterThan(0);
    expect(Object.fromEntries(view.checks.map((c) => [c.check, c.state]))).toMatchObject({
      handshake: "verified",
      protocol_version: "verified",
      tools_list: "verified",
    });
    // Every request went to the filled path on the claimed origin.
    const sent = mcpRequests().slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.path === `/${SHORT}/mcp`)).toBe(true);
    // Stored redacted: URLs rebuilt from the template, and the path the server echoed back too.
    const exchanges = view.exchanges as Exchange[];
    expect(exchanges.every((x) => x.url.startsWith(`${tenant.origin}/‹redacted›/mcp`))).toBe(true);
    const stored = JSON.stringify(view);
    expect(stored).toContain("‹redacted›");
    expect(stored).not.toContain(`/${SHORT}/`);
    expect(stored).not.toContain(SHORT);
    const curls = exchanges.map((x) => curlCommand(x)).join("\n");
    expect(curls).toContain("‹redacted›");
    expect(curls).not.toContain(SHORT);
  });

  test("a longer value works the same, and neither value is in the database file, its WAL, or the log lines", async () => {
    const claim = claimByManageToken(t.db, manage)!;
    tenant.state.tenant = LONG;
    expect(setConfiguration(t.db, KEY, claim, { headers: {}, variables: { tenant: LONG } }, now())).toEqual({ ok: true });
    await round();
    expect(ownerView(t.db, serverId, now())?.outcome).toBe("up");
    t.db.$client.pragma("wal_checkpoint(PASSIVE)");
    for (const file of [t.file, `${t.file}-wal`]) {
      if (!fs.existsSync(file)) continue;
      const raw = fs.readFileSync(file);
      for (const v of [SHORT, LONG]) expect(raw.includes(Buffer.from(v)), `${v} in ${file}`).toBe(false);
    }
    for (const v of [SHORT, LONG]) expect(logLines.join("\n")).not.toContain(v);
  });

  test("a value that is an ordinary word (a tenant called tools) turns no verdict: judged before it is redacted", async () => {
    const claim = claimByManageToken(t.db, manage)!;
    tenant.state.tenant = "tools";
    expect(setConfiguration(t.db, KEY, claim, { headers: {}, variables: { tenant: "tools" } }, now())).toEqual({ ok: true });
    await round();
    const view = ownerView(t.db, serverId, now())!;
    expect(view.outcome).toBe("up");
    expect(view.tools).toBeGreaterThan(0);
    expect(view.checks.find((c) => c.check === "tools_list")?.state).toBe("verified");
    expect(JSON.stringify(view)).not.toContain("/tools/mcp");
  });

  test("a remote that also lists a header: the owner sets both, and the header goes only with the filled URL", async () => {
    const id = (t.db.$client.prepare("select id from servers where name = ?").pluck().get(KEYED) as number) ?? 0;
    expect(ownerFields(ownerTargetById(t.db, id)!)).toEqual({ headers: ["x-api-key"], variables: ["tenant"] });
    const c = createClaim(deps, { server: KEYED, client: "203.0.113.22", lang: "en" });
    if (!c.ok) throw new Error(c.message);
    keyed.state.proof = c.proof.body;
    const v = await verifyClaim(deps, { claim: c.claim, client: "203.0.113.22" });
    if (!v.ok) throw new Error(v.message);
    const claim = claimByManageToken(t.db, v.manage.split("/").pop()!)!;
    expect(setConfiguration(t.db, KEY, claim, { headers: { "X-Other": "x" }, variables: { tenant: "zz-top" } }, now())).toMatchObject({
      ok: false,
      error: "header_not_listed",
    });
    const put = setConfiguration(t.db, KEY, claim, { headers: { "X-Api-Key": KEY_VALUE }, variables: { tenant: "zz-top" } }, now());
    expect(put).toEqual({ ok: true });
    await round();
    const view = ownerView(t.db, id, now())!;
    expect(view.outcome).toBe("up");
    const sent = keyed.log.filter((r) => r.path.endsWith("/mcp"));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((r) => r.path === "/zz-top/mcp" && r.headers["x-api-key"] === KEY_VALUE)).toBe(true);
    const stored = JSON.stringify(view);
    expect(stored).not.toContain("zz-top");
    expect(stored).not.toContain(KEY_VALUE);
  });
});
