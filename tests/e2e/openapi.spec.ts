import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { expect, test } from "@playwright/test";
import { closeDb, openDb } from "../../db/client";
import { CHECK_IDS, CHECK_STATES } from "../../lib/vocabulary/checks";
import { FORM_KEY_META, issueFormToken, newFormKey } from "../../lib/site/reprobe-form";
import { metaOnce } from "../../lib/store/reprobe";
import { acquireRoundLock, finishRound } from "../../lib/store/rounds";
import { documentValidator, type DocumentValidator } from "../fixtures/openapi-ajv";
import { startOwnSite, type OwnSite } from "./own-site";
import { seedDatabase, seedOpenData, SEED } from "./seed";

// Live answers of every route of /api/openapi.json, from a real `npm start` over the seeded database (with
// CRON_SECRET and METRICS_TOKEN set, so the guarded routes answer too), each validated against the schema the
// document gives for its path, method, status and content type. A status the document does not list fails.

const SECRET = "openapi-spec-secret";
const TOKEN = "openapi-spec-metrics";

interface Checked {
  route: string;
  method: string;
  status: number;
}

function checker(v: DocumentValidator, origin: string) {
  const seen: Checked[] = [];
  /** Requests `url`, validates the answer against the document's `route`, returns status and body. */
  const call = async (route: string, url: string, init: RequestInit & { method?: string } = {}) => {
    const method = (init.method ?? "GET").toLowerCase();
    const res = await fetch(`${origin}${url}`, { redirect: "manual", ...init });
    const raw = await res.text();
    const where = `${method.toUpperCase()} ${url} → ${res.status}`;
    expect(v.documents(route, method, res.status), `${where} is not documented`).toBe(true);
    const type = res.headers.get("content-type") ?? "";
    const validate = v.response(route, method, res.status, type);
    let body: unknown = raw;
    if (type.startsWith("application/json")) body = JSON.parse(raw);
    if (validate && !validate(body))
      throw new Error(`${where} does not match the document: ${JSON.stringify(validate.errors?.slice(0, 3))}\n${raw.slice(0, 400)}`);
    if (res.status === 303) expect(res.headers.get("location"), where).toBeTruthy();
    seen.push({ route, method, status: res.status });
    return { status: res.status, body, headers: res.headers };
  };
  return { call, seen };
}

test("every route answers what /api/openapi.json says, from a seeded database", async ({ baseURL }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-spec-"));
  const dbPath = path.join(dir, "site.db");
  seedDatabase(dbPath);
  await seedOpenData(dbPath);
  let site: OwnSite | undefined;
  const db = openDb(dbPath);
  try {
    site = await startOwnSite(dbPath, {
      CRON_SECRET: SECRET,
      METRICS_TOKEN: TOKEN,
      CROSS_READ_SAMPLE: "0",
      SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    });
    const live = await (await fetch(`${site.origin}/api/openapi.json`)).json();
    // The served document is valid too, not only the one the unit tests build.
    const validation = await new Validator().validate(live);
    expect(validation.errors ?? []).toEqual([]);
    expect(validation.valid).toBe(true);
    const v = documentValidator(live);
    const { call, seen } = checker(v, site.origin);
    const bearer = { authorization: `Bearer ${SECRET}` };

    // The list, with every documented filter value, paging, search, and refusals.
    const all = (await call("/api/servers", "/api/servers?includeLeft=1&pageSize=200")).body as { rows: { name: string }[]; total: number };
    expect(all.rows.length).toBe(all.total);
    expect(all.total).toBeGreaterThan(SEED.bulkCount);
    await call("/api/servers", "/api/servers");
    await call("/api/servers", "/api/servers?page=3&pageSize=7&q=bulk");
    // Every value of every enumerated parameter the document lists (check states, sorts, orders, …).
    const enumerated = (route: string) =>
      (live.paths[route].get.parameters as { name: string; in: string; schema: { enum?: string[] } }[])
        .filter((p) => p.in === "query" && p.schema.enum)
        .flatMap((p) => p.schema.enum!.map((v) => `${p.name}=${encodeURIComponent(v)}`));
    const listValues = enumerated("/api/servers");
    expect(listValues.length).toBeGreaterThanOrEqual(CHECK_IDS.length * CHECK_STATES.length);
    for (const q of listValues) await call("/api/servers", `/api/servers?${q}`);
    for (const bad of ["pageSize=0", "page=x", "handshake=bogus", `q=${"x".repeat(201)}`]) {
      expect((await call("/api/servers", `/api/servers?${bad}`)).status).toBe(400);
    }

    // Every seeded server's JSON, four at a time; the named ones again (from the front's memory) with every badge.
    const named = (prefix: string, name: string) => `${prefix}${name.split("/").map(encodeURIComponent).join("/")}`;
    const queue = all.rows.map((r) => r.name);
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          expect((await call("/api/servers/{name}", named("/api/servers/", name))).status).toBe(200);
        }
      }),
    );
    for (const name of [SEED.allStates, SEED.modern, SEED.gated, SEED.legacy, SEED.down, SEED.left, SEED.hostile, SEED.optedOut]) {
      await call("/api/servers/{name}", named("/api/servers/", name));
      // Each documented value alone, and each window with the metric it belongs to.
      for (const q of enumerated("/api/badge/{name}")) {
        await call("/api/badge/{name}", `${named("/api/badge/", name)}?${q.startsWith("window=") ? "metric=uptime&" : ""}${q}`);
      }
    }
    expect((await call("/api/servers/{name}", "/api/servers/io.github.nobody/none")).status).toBe(404);
    expect((await call("/api/badge/{name}", "/api/badge/io.github.nobody/none")).status).toBe(404);
    expect((await call("/api/badge/{name}", `${named("/api/badge/", SEED.modern)}?check=bogus`)).status).toBe(400);
    expect((await call("/api/badge/{name}", `${named("/api/badge/", SEED.modern)}?metric=bogus`)).status).toBe(400);

    // The census page and the open data (architecture.md §3): the rows, and today's servers file whole, in part, unchanged.
    expect((await call("/census", "/census")).status).toBe(200);
    expect((await call("/census", "/census?window=1y")).status).toBe(200);
    expect((await call("/census", "/census?window=week")).status).toBe(400);
    await call("/data/census.json", "/data/census.json");
    await call("/data/census.csv", "/data/census.csv");
    const today = `/data/servers-${new Date().toISOString().slice(0, 10)}.jsonl.gz`;
    const whole = await call("/data/{file}", today);
    expect(whole.status).toBe(200);
    const etag = whole.headers.get("etag")!;
    expect((await call("/data/{file}", today, { headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await call("/data/{file}", today, { headers: { range: "bytes=0-9" } })).status).toBe(206);
    expect((await call("/data/{file}", today, { headers: { range: "bytes=99999999-" } })).status).toBe(416);
    expect((await call("/data/{file}", "/data/servers-2001-01-01.jsonl.gz")).status).toBe(404);
    expect((await call("/data/{file}", "/data/servers-2001-02-31.jsonl.gz")).status).toBe(400);

    // Status (503: the seed has an open alert), cross-reads, health, the document itself.
    expect((await call("/api/status", "/api/status")).status).toBe(503);
    const crossReads = (await call("/api/cross-reads", "/api/cross-reads")).body as { servers: unknown[] };
    expect(crossReads.servers.length).toBeGreaterThan(0);
    expect((await call("/api/health", "/api/health")).status).toBe(200);
    await call("/api/openapi.json", "/api/openapi.json");

    // Rounds: refused without the secret, 409 while another holder has the lock, then started and read back.
    expect((await call("/api/rounds", "/api/rounds", { method: "POST" })).status).toBe(401);
    expect((await call("/api/rounds", "/api/rounds", { method: "POST", headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const held = acquireRoundLock(db, { holder: "openapi-spec", trigger: "test", now: new Date(), staleMs: 120_000 });
    expect(held.acquired).toBe(true);
    expect((await call("/api/rounds", "/api/rounds", { method: "POST", headers: bearer })).status).toBe(409);
    if (held.acquired) finishRound(db, held.roundId, "openapi-spec", { now: new Date(), status: "done", progress: {} });
    const started = await call("/api/rounds", "/api/rounds", { method: "POST", headers: bearer });
    expect(started.status).toBe(202);
    const id = (started.body as { id: number }).id;
    expect((await call("/api/rounds/{id}", `/api/rounds/${id}`, { headers: bearer })).status).toBe(200);
    expect((await call("/api/rounds/{id}", `/api/rounds/${held.roundId}`, { headers: bearer })).status).toBe(200);
    expect((await call("/api/rounds/{id}", "/api/rounds/abc", { headers: bearer })).status).toBe(400);
    expect((await call("/api/rounds/{id}", "/api/rounds/999999", { headers: bearer })).status).toBe(404);
    expect((await call("/api/rounds/{id}", `/api/rounds/${id}`)).status).toBe(401);
    // A GET where a POST starts a round: 405 naming the method to use.
    expect((await call("/api/rounds", "/api/rounds")).status).toBe(405);

    // The re-probe form: queued with a token the page would sign, refused without fields or from another site.
    const key = metaOnce(db, FORM_KEY_META, newFormKey);
    const form = (server: string) => new URLSearchParams({ server, token: issueFormToken(key, server, new Date()) });
    expect((await call("/api/reprobe", "/api/reprobe", { method: "POST", body: form(SEED.modern) })).status).toBe(303);
    expect((await call("/api/reprobe", "/api/reprobe", { method: "POST", body: form("io.github.nobody/none") })).status).toBe(404);
    expect((await call("/api/reprobe", "/api/reprobe", { method: "POST", body: new URLSearchParams({ server: "" }) })).status).toBe(400);
    expect(
      (await call("/api/reprobe", "/api/reprobe", { method: "POST", body: form(SEED.modern), headers: { "sec-fetch-site": "cross-site" } }))
        .status,
    ).toBe(403);

    // Subscriptions (architecture.md §10): this site has no SMTP_URL, so email is off; a loopback webhook is refused.
    const subscribe = (name: string, body: unknown, headers: Record<string, string> = {}) =>
      call("/api/servers/{name}/subscriptions", `${named("/api/servers/", name)}/subscriptions`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", ...headers },
      });
    expect((await subscribe(SEED.modern, { email: "someone@example.com" })).status).toBe(503);
    expect((await subscribe(SEED.modern, { webhook: "http://127.0.0.1:9/hook" })).status).toBe(400);
    expect((await subscribe("io.github.nobody/none", { webhook: "http://127.0.0.1:9/hook" })).status).toBe(404);
    expect((await subscribe(SEED.modern, { email: "someone@example.com" }, { origin: "https://elsewhere.example" })).status).toBe(403);

    // Owners (architecture.md §11): a claim is made; its proof cannot be fetched from the seeded (unreal) host: 422 with what
    // was fetched; every manage-token route answers 404 for a token that names nothing.
    const json = (method: string, body?: unknown, headers: Record<string, string> = {}) => ({
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      headers: { "content-type": "application/json", ...headers },
    });
    const claimed = await call("/api/servers/{name}/claims", `${named("/api/servers/", SEED.modern)}/claims`, json("POST", {}));
    expect(claimed.status).toBe(201);
    expect((await call("/api/servers/{name}/claims", "/api/servers/io.github.nobody/none/claims", json("POST", {}))).status).toBe(404);
    const claim = (claimed.body as { claim: string }).claim;
    expect((await call("/api/claims/{claim}/verify", `/api/claims/${claim}/verify`, json("POST"))).status).toBe(422);
    expect((await call("/api/claims/{claim}/verify", "/api/claims/nothing/verify", json("POST"))).status).toBe(404);
    const nobody = "/api/owners/nothing";
    expect((await call("/api/owners/{token}", nobody, json("DELETE"))).status).toBe(404);
    const config = { headers: { "X-Api-Key": "k" } };
    expect((await call("/api/owners/{token}/configuration", `${nobody}/configuration`, json("PUT", config))).status).toBe(404);
    expect((await call("/api/owners/{token}/configuration", `${nobody}/configuration`, json("DELETE"))).status).toBe(404);
    expect((await call("/api/owners/{token}/probe", `${nobody}/probe`, json("POST"))).status).toBe(404);
    const hook = { webhook: "http://127.0.0.1:9/hook" };
    expect((await call("/api/owners/{token}/subscriptions", `${nobody}/subscriptions`, json("POST", hook))).status).toBe(404);

    // /metrics: refused without the token, Prometheus text with it.
    expect((await call("/metrics", "/metrics")).status).toBe(401);
    expect((await call("/metrics", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);

    // The shared e2e site runs without CRON_SECRET and METRICS_TOKEN: the guarded routes say so as documented.
    const shared = checker(v, baseURL!);
    expect((await shared.call("/api/rounds", "/api/rounds", { method: "POST", headers: bearer })).status).toBe(403);
    expect((await shared.call("/api/rounds/{id}", "/api/rounds/1", { headers: bearer })).status).toBe(403);
    expect((await shared.call("/metrics", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);

    // Every operation of the document was called at least once.
    const called = new Set([...seen, ...shared.seen].map((c) => `${c.method} ${c.route}`));
    const documented = Object.entries(live.paths as Record<string, object>).flatMap(([route, ops]) =>
      Object.keys(ops).map((m) => `${m} ${route}`),
    );
    expect(documented.filter((op) => !called.has(op))).toEqual([]);
    const statuses = new Set([...seen, ...shared.seen].map((c) => `${c.method} ${c.route} ${c.status}`));
    console.log(
      `[openapi] ${seen.length + shared.seen.length} live answers valid against the document: ${documented.length} operations, ${statuses.size} (operation, status) pairs`,
    );
  } finally {
    await site?.stop();
    closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
