import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkBearer } from "@/app/api/_lib/auth";
import { getRoundStatus, health, methodNotAllowed, postRound } from "@/app/api/_lib/handlers";
import type { Db } from "@/db/client";
import { createAddressPolicy } from "@/lib/probe";
import { startRound, type RoundSummary } from "@/lib/rounds/round";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { startZooServer, type RunningZooServer } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

// The real route logic (app/api/_lib/handlers.ts), called with Request objects; route.ts files only wire config in.

const SECRET = "s3cret-token-for-tests";
let t: ReturnType<typeof tempDb>;
let db: Db;
let zoo: RunningZooServer;
const pending: Promise<RoundSummary>[] = [];

const req = (auth?: string, method = "POST") =>
  new Request("http://localhost/api/rounds", { method, headers: auth === undefined ? {} : { authorization: auth } });

const opts = (secret: string | undefined) => ({
  secret,
  db,
  start: () =>
    startRound({ db, addressPolicy: createAddressPolicy({ allowPrivate: true }), robots: false, trigger: "test", log: () => undefined }),
  background: (p: Promise<unknown>) => void pending.push(p as Promise<RoundSummary>),
});

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  zoo = await startZooServer("modern-healthy-paged");
  applyRegistrySnapshot(
    db,
    [
      {
        name: "a/one",
        title: null,
        description: null,
        version: "1",
        url: zoo.url,
        transport: "streamable-http",
        host: new URL(zoo.url).host,
        needsConfig: null,
        registryUpdatedAt: null,
      },
    ],
    new Date().toISOString(),
  );
});

afterAll(async () => {
  await Promise.all(pending);
  await zoo.close();
  t.cleanup();
});

describe("POST /api/rounds authorization", () => {
  test("without CRON_SECRET configured the route is disabled (403 with a JSON message)", async () => {
    const res = postRound(req(`Bearer ${SECRET}`), opts(undefined));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "disabled", message: expect.stringContaining("CRON_SECRET") });
  });

  test.each([
    ["no Authorization header", undefined],
    ["an empty header", ""],
    ["a wrong token", "Bearer nope"],
    ["the right token with a suffix", `Bearer ${SECRET}x`],
    ["a prefix of the token", `Bearer ${SECRET.slice(0, -1)}`],
    ["another scheme", `Basic ${SECRET}`],
    ["the token without a scheme", SECRET],
  ])("%s → 401", async (_label, auth) => {
    const res = postRound(req(auth), opts(SECRET));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ error: "unauthorized" });
  });

  test("the right token → 202 with the round id at once; 409 while it runs; progress by id", async () => {
    const first = postRound(req(`Bearer ${SECRET}`), opts(SECRET));
    expect(first.status).toBe(202);
    const { id } = (await first.json()) as { id: number };
    expect(id).toBeGreaterThan(0);

    const second = postRound(req(`bearer   ${SECRET}`), opts(SECRET));
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: "already_running", id });

    const running = getRoundStatus(req(`Bearer ${SECRET}`, "GET"), String(id), { secret: SECRET, db });
    expect(running.status).toBe(200);
    expect(await running.json()).toMatchObject({ id, status: "running", trigger: "test" });

    const summary = await pending[0]!;
    expect(summary).toMatchObject({ status: "done", due: 1, read: 1 });
    const done = getRoundStatus(req(`Bearer ${SECRET}`, "GET"), String(id), { secret: SECRET, db });
    expect(await done.json()).toMatchObject({ id, status: "done", probed: 1, read: 1 });

    // The lock was released: the next POST starts a new round.
    const third = postRound(req(`Bearer ${SECRET}`), opts(SECRET));
    expect(third.status).toBe(202);
    expect(((await third.json()) as { id: number }).id).toBe(id + 1);
  });

  test("GET /api/rounds/<id> needs the same token and a known numeric id", async () => {
    expect(getRoundStatus(req(undefined, "GET"), "1", { secret: SECRET, db }).status).toBe(401);
    expect(getRoundStatus(req(`Bearer ${SECRET}`, "GET"), "1", { secret: undefined, db }).status).toBe(403);
    expect(getRoundStatus(req(`Bearer ${SECRET}`, "GET"), "999", { secret: SECRET, db }).status).toBe(404);
    expect(getRoundStatus(req(`Bearer ${SECRET}`, "GET"), "abc", { secret: SECRET, db }).status).toBe(400);
  });

  test("a method the route does not serve: 405, Allow, and a JSON body that names the right one", async () => {
    const res = methodNotAllowed(["POST"], "A round is started with POST.");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({ error: "method_not_allowed", message: "A round is started with POST." });
  });

  test("the comparison is exact and length-independent", () => {
    const r = (a: string) => new Request("http://x", { headers: { authorization: a } });
    expect(checkBearer(r(`Bearer ${SECRET}`), SECRET)).toBe("ok");
    expect(checkBearer(r(`Bearer ${SECRET.toUpperCase()}`), SECRET)).toBe("unauthorized");
    expect(checkBearer(r("Bearer "), SECRET)).toBe("unauthorized");
    expect(checkBearer(r(`Bearer ${SECRET}`), "")).toBe("disabled");
  });

  test("GET /api/health reports the database and the last round", async () => {
    const res = health(db);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, servers: 1, lastRound: { status: expect.any(String) } });
  });
});
