import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { deleteClaim, deleteConfiguration, postClaim, postVerify, putConfiguration, type OwnerRouteDeps } from "@/app/api/_lib/owners";
import { getServer } from "@/app/api/_lib/handlers";
import { createAddressPolicy } from "@/lib/probe";
import { startOwnerServer } from "@/lib/demo/zoo/owners";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { secretsOf, claimByManageToken } from "@/lib/store/owners";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// The owners' routes with real Requests, a real database and a real proof server on loopback (architecture.md §11).

const NAME = "io.example/keyed";
const SITE = "http://127.0.0.1:3000";
const SECRET = "sk-live-0123456789abcdef";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function world(o: Partial<OwnerRouteDeps> = {}) {
  const t = tempDb();
  cleanups.push(t.cleanup);
  const mcp = await startOwnerServer("owner-key", { state: { key: SECRET } });
  cleanups.push(mcp.close);
  applyRegistrySnapshot(t.db, [{ ...listedServer(NAME, mcp.url), needsConfig: null }], new Date().toISOString());
  t.db.$client.prepare("update servers set config_headers = ?, reach = 'refused' where name = ?").run(JSON.stringify(["X-Api-Key"]), NAME);
  const deps: OwnerRouteDeps = {
    db: t.db,
    policy: createAddressPolicy({ allowPrivate: true }),
    userAgent: "mcp-status-probe/test",
    siteUrl: SITE,
    enabled: true,
    robots: false,
    keys: { current: randomBytes(32) },
    ...o,
  };
  const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    new Request(`${SITE}${path}`, {
      method,
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9", ...headers },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
  const claim = async () => {
    const res = await postClaim(req("POST", `/api/servers/${NAME}/claims`), NAME, deps);
    expect(res.status).toBe(201);
    return (await res.json()) as { claim: string; proof: { url: string; body: string } };
  };
  const verified = async () => {
    const c = await claim();
    mcp.state.proof = c.proof.body;
    const res = await postVerify(req("POST", `/api/claims/${c.claim}/verify`), c.claim, deps);
    expect(res.status).toBe(200);
    return ((await res.json()) as { manage: string }).manage.split("/").pop()!;
  };
  const put = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    putConfiguration(req("PUT", `/api/owners/${token}/configuration`, body, headers), token, deps);
  return { db: t.db, mcp, deps, req, claim, verified, put };
}

describe("claims", () => {
  test("POST claims → 201; verify → 422 proof_not_found with what was fetched, then 200 with a manage link", async () => {
    const w = await world();
    const c = await w.claim();
    expect(c.proof.url).toBe(`${w.mcp.origin}/.well-known/mcp-status-claim`);
    const first = await postVerify(w.req("POST", `/api/claims/${c.claim}/verify`), c.claim, w.deps);
    expect(first.status).toBe(422);
    expect(await first.json()).toMatchObject({ error: "proof_not_found", fetched: { status: 404 } });
    w.mcp.state.proof = c.proof.body;
    const second = await postVerify(w.req("POST", `/api/claims/${c.claim}/verify`), c.claim, w.deps);
    expect(second.status).toBe(200);
    expect(((await second.json()) as { manage: string }).manage).toMatch(new RegExp(`^${SITE}/owners/`));
  });

  test("a post from another site's page is refused", async () => {
    const w = await world();
    const res = await postClaim(w.req("POST", `/api/servers/${NAME}/claims`, undefined, { origin: "https://evil.example" }), NAME, w.deps);
    expect(res.status).toBe(403);
    const c = await w.claim();
    const v = await postVerify(w.req("POST", "/x", undefined, { "sec-fetch-site": "cross-site" }), c.claim, w.deps);
    expect(v.status).toBe(403);
  });

  test("without SECRETS_KEY the owner features answer 503 owners_disabled", async () => {
    const w = await world({ enabled: false, keys: undefined });
    const res = await postClaim(w.req("POST", `/api/servers/${NAME}/claims`), NAME, w.deps);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: "owners_disabled" });
  });

  test("guessing claim tokens is rate limited with Retry-After", async () => {
    const w = await world({ guessHourlyCap: 2 });
    for (let i = 0; i < 2; i++) expect((await postVerify(w.req("POST", "/x"), `guess${i}`, w.deps)).status).toBe(404);
    const limited = await postVerify(w.req("POST", "/x"), "guess3", w.deps);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("configuration", () => {
  test("PUT → 204 and nothing is answered back; the server's JSON carries no value", async () => {
    const w = await world();
    const token = await w.verified();
    const res = await w.put(token, { headers: { "X-Api-Key": SECRET } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(secretsOf(w.db, claimByManageToken(w.db, token)!.id).map((s) => s.name)).toEqual(["x-api-key"]);
    const json = await getServer(NAME, w.db).text();
    expect(json).not.toContain(SECRET);
    expect(JSON.parse(json)).toHaveProperty("ownerView", null);
  });

  test.each([
    ["a header the registry does not list", { headers: { "X-Other": "v" } }, "header_not_listed"],
    ["a value with CR LF", { headers: { "X-Api-Key": "v\r\nInjected: 1" } }, "invalid_value"],
    ["a value over 8 KB", { headers: { "X-Api-Key": "v".repeat(8193) } }, "value_too_long"],
    ["an unknown field", { headers: {}, extra: 1 }, "invalid_configuration"],
  ])("%s is refused with 400", async (_what, body, error) => {
    const w = await world();
    const token = await w.verified();
    const res = await w.put(token, body);
    expect(res.status).toBe(400);
    const answer = await res.text();
    expect(JSON.parse(answer)).toMatchObject({ error });
    expect(answer).not.toContain("Injected");
  });

  test("an unknown manage token is 404; a cross-site PUT is 403; DELETE removes the values and the claim", async () => {
    const w = await world();
    const token = await w.verified();
    expect((await w.put("nope", { headers: { "X-Api-Key": SECRET } })).status).toBe(404);
    expect((await w.put(token, { headers: { "X-Api-Key": SECRET } }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await w.put(token, { headers: { "X-Api-Key": SECRET } })).status).toBe(204);
    const claimId = claimByManageToken(w.db, token)!.id;
    expect((await deleteConfiguration(w.req("DELETE", "/x"), token, w.deps)).status).toBe(204);
    expect(secretsOf(w.db, claimId)).toHaveLength(0);
    expect((await deleteClaim(w.req("DELETE", "/x"), token, w.deps)).status).toBe(204);
    expect((await w.put(token, { headers: { "X-Api-Key": SECRET } })).status).toBe(404);
  });
});

describe("URL variables", () => {
  test("PUT with variables → 204 on a listing whose URL has {tenant}; unlisted, missing or bad ones → 400 with no value", async () => {
    const keyed = await world();
    const keyedToken = await keyed.verified();
    const notListed = await keyed.put(keyedToken, { headers: { "X-Api-Key": SECRET }, variables: { tenant: "ab" } });
    expect(notListed.status).toBe(400);
    expect(await notListed.json()).toMatchObject({ error: "variable_not_listed" });

    const t = tempDb();
    cleanups.push(t.cleanup);
    const mcp = await startOwnerServer("owner-tenant", { otherHost: "127.0.0.12", state: { tenant: "q~" } });
    cleanups.push(mcp.close);
    const template = `${mcp.origin}/{tenant}/mcp`;
    applyRegistrySnapshot(
      t.db,
      [
        {
          ...listedServer("io.example/tenant", mcp.url),
          url: template,
          needsConfig: "its URL has {tenant} with no default, for the user to fill in",
          urlVariables: { template, names: ["tenant"], headers: [] },
        },
      ],
      new Date().toISOString(),
    );
    const deps: OwnerRouteDeps = { ...keyed.deps, db: t.db };
    const req = (method: string, path: string, body?: unknown) =>
      new Request(`${SITE}${path}`, {
        method,
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.10" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const c = (await (await postClaim(req("POST", "/api/servers/io.example/tenant/claims"), "io.example/tenant", deps)).json()) as {
      claim: string;
      proof: { body: string };
    };
    mcp.state.proof = c.proof.body;
    const v = await postVerify(req("POST", `/api/claims/${c.claim}/verify`), c.claim, deps);
    expect(v.status).toBe(200);
    const token = ((await v.json()) as { manage: string }).manage.split("/").pop()!;
    const put = (body: unknown) => putConfiguration(req("PUT", `/api/owners/${token}/configuration`, body), token, deps);
    for (const [body, error] of [
      [{ headers: {}, variables: { tenant: "q/../x" } }, "invalid_value"],
      [{ headers: {}, variables: { tenant: "me@evil.example" } }, "invalid_value"],
      [{ headers: {}, variables: { region: "eu" } }, "variable_not_listed"],
      [{ headers: {} }, "variable_missing"],
    ] as const) {
      const res = await put(body);
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({ error });
      expect(text).not.toContain("evil.example");
      expect(text).not.toContain("q/../x");
    }
    const ok = await put({ headers: {}, variables: { tenant: "q~" } });
    expect(ok.status).toBe(204);
    expect(await ok.text()).toBe("");
    expect(secretsOf(t.db, claimByManageToken(t.db, token)!.id).map((s) => [s.kind, s.name])).toEqual([["variable", "tenant"]]);
    expect(await getServer("io.example/tenant", t.db).text()).not.toContain("q~");
  });

  test("a claim on a listing whose host is a URL variable → 422 variable_host", async () => {
    const w = await world();
    applyRegistrySnapshot(
      w.db,
      [
        {
          ...listedServer("io.example/tenant-host", "https://x.example.invalid/mcp"),
          url: "https://{tenant}.example.invalid/mcp",
          needsConfig: "its URL has {tenant} with no default, for the user to fill in",
          urlVariables: { template: "https://{tenant}.example.invalid/mcp", names: ["tenant"], headers: [] },
        },
      ],
      new Date().toISOString(),
    );
    const res = await postClaim(w.req("POST", "/api/servers/io.example/tenant-host/claims"), "io.example/tenant-host", w.deps);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: "variable_host" });
  });
});
