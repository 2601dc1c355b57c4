import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { closeDb, openDb } from "../../db/client";
import { runRound } from "../../lib/rounds/round";
import { hostOf } from "../../lib/rounds/hosts";
import { makeHostDue } from "../../lib/store/servers/round";
import { serverDataVersion } from "../../lib/store/versions";
import { freePort } from "../../lib/cli/ports";
import { startNext, type RunningNext } from "../fixtures/next-server";
import { entry, startFixtureRegistry, type FixtureRegistry } from "../../lib/demo/loopback-registry";
import { startZooServer, type RunningZooServer } from "../../lib/demo/zoo";
import { serverUrl } from "./helpers";

// Pages, badges and JSON are rendered once per data version. This runs its own `npm start` over its own
// database, and writes to it from three places: a round in this process, a round the site runs itself
// (POST /api/rounds), and the opt-out CLI in a third process.

const A = "io.github.cache/server-a";
const B = "io.github.cache/server-b";
const SECRET = "cache-spec-secret";

/** The state chip of the handshake check on a rendered server page. */
const handshake = (html: string) => /id="check-handshake"[\s\S]*?class="chip chip-([a-z_]+)"/.exec(html)?.[1];

interface Rendered {
  status: number;
  cacheControl: string | null;
  html: string;
  /** The process-wide render number stamped into the page when it was rendered. */
  render: string;
  /** How the front cache of `npm start` answered: hit, stale, fill or pass. */
  how: string | null;
  /** The UTC hour when the request was sent and when its answer was read. */
  from: string;
  to: string;
}

const utcHour = () => new Date().toISOString().slice(0, 13);

/** A page whose data no write changed is answered from memory, the same render, unless a UTC hour began in between:
 * server pages are keyed on the hour too (lib/store/versions.ts), so they then render anew, by design. */
function expectKept(again: Rendered, before: Rendered): void {
  if (before.from !== again.to) return;
  expect(again.render).toBe(before.render);
  expect(again.how).toBe("hit");
}

test("a write re-renders exactly the pages it changes, whichever process wrote", async () => {
  test.setTimeout(360_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cache-spec-"));
  const dbPath = path.join(dir, "site.db");
  let a: RunningZooServer | undefined;
  let b: RunningZooServer | undefined;
  let registry: FixtureRegistry | undefined;
  let site: RunningNext | undefined;
  const db = openDb(dbPath);
  try {
    a = await startZooServer("modern-healthy-paged");
    b = await startZooServer("legacy-2025-06-18-stateless");
    registry = await startFixtureRegistry([
      entry(A, [{ type: "streamable-http", url: a.url }], { title: "Cache A" }),
      entry(B, [{ type: "streamable-http", url: b.url }], { title: "Cache B" }),
    ]);
    const first = await runRound({
      db,
      registryUrl: registry.url,
      allowPrivateNetworks: true,
      robots: false,
      trigger: "test",
      log: () => undefined,
    });
    expect(first.probed).toBe(2);

    // No cross-reader: its day of outcomes is a write to every sampled server's page, arriving whenever it finishes.
    site = await startNext({
      dbPath,
      port: await freePort(),
      env: { CRON_SECRET: SECRET, REGISTRY_URL: registry.url, PROBE_ALLOW_PRIVATE_NETWORKS: "1", CROSS_READ_SAMPLE: "0" },
    });
    const origin = site.origin;
    // A renderer just started loads a route's code on that route's first request. On a loaded machine that first
    // render can outlast the front's 30 s answer limit (a 504: 2 of 2 runs failed so on Node 24 while a build ran
    // beside them). This spec is about what a write re-renders, not about a cold start: load the index's and the
    // server page's code first, through pages the spec never reads.
    for (const p of ["/zh", "/servers/io.github.cache/not-listed"]) {
      await expect.poll(async () => (await fetch(`${origin}${p}`)).status, { timeout: 180_000, intervals: [1_000] }).toBeLessThan(500);
    }
    const load = async (p: string): Promise<Rendered> => {
      const from = utcHour();
      const res = await fetch(`${origin}${p}`);
      const html = await res.text();
      return {
        from,
        to: utcHour(),
        status: res.status,
        cacheControl: res.headers.get("cache-control"),
        html,
        render: /data-render="(\d+)"/.exec(html)?.[1] ?? "none",
        how: res.headers.get("x-page-cache"),
      };
    };
    const json = async (p: string) => (await fetch(`${origin}${p}`)).json();

    const a1 = await load(serverUrl(A));
    const b1 = await load(serverUrl(B));
    const bVersion = serverDataVersion(db, B);
    const i1 = await load("/");
    expect(a1.status).toBe(200);
    // Kept by the site, not by browsers or CDNs: they revalidate every time.
    expect(a1.cacheControl).toBe("public, max-age=0, must-revalidate");
    expect(handshake(a1.html)).toBe("verified");
    // Asked again, each is served from the cache: the same render, from the front cache's memory.
    expect(a1.how).toBe("fill");
    const a1again = await load(serverUrl(A));
    expectKept(a1again, a1);
    if (a1again.how === "hit") expect(a1again.html).toBe(a1.html);
    expectKept(await load(serverUrl(B)), b1);
    expect((await load("/")).render).toBe(i1.render);
    expect((await json(`/api/servers/${A}`)).checks.handshake.state).toBe("verified");

    // A goes down and is due again; B is not due. The site runs the round itself, in the background.
    await a.close();
    makeHostDue(db, hostOf(a.url)!, "cache spec");
    const started = await fetch(`${origin}/api/rounds`, { method: "POST", headers: { authorization: `Bearer ${SECRET}` } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: number };
    const roundStatus = async () => {
      const res = await fetch(`${origin}/api/rounds/${id}`, { headers: { authorization: `Bearer ${SECRET}` } });
      return ((await res.json()) as { status?: string }).status;
    };
    // A completed its handshake before and now refuses connections: a failure at the network level, so it is Failed
    // only after a second probe at least 60 s later in the round (architecture.md §2.7).
    await expect.poll(roundStatus, { timeout: 150_000 }).toBe("done");

    const a2 = await load(serverUrl(A));
    expect(a2.how).toBe("fill");
    expect(a2.render).not.toBe(a1.render);
    expect(handshake(a2.html)).toBe("failed");
    expect((await json(`/api/servers/${A}`)).checks.handshake).toMatchObject({
      state: "failed",
      reason: expect.stringContaining("it failed twice"),
    });
    expect(await (await fetch(`${origin}/badge/${A}?check=handshake`)).text()).toContain("failed");
    // B was not probed: nothing it shows was written, so its page is not rendered again (unless a UTC hour began
    // meanwhile: then it renders anew for the hour, not for the round), and the index is rendered once for the round.
    const b1again = await load(serverUrl(B));
    expect(serverDataVersion(db, B)).toBe(bVersion);
    expectKept(b1again, b1);
    const i2 = await load("/");
    expect(i2.render).not.toBe(i1.render);
    expect((await load("/")).render).toBe(i2.render);

    // An opt-out written by the CLI in another process shows on B's next request; A's page is untouched.
    const cli = spawnSync(
      process.execPath,
      ["--import", "tsx", "lib/cli/opt-out.ts", "add", hostOf(b.url)!, "--reason", "cache spec asked"],
      {
        env: { ...process.env, DATABASE_PATH: dbPath },
        encoding: "utf8",
      },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const b2 = await load(serverUrl(B));
    expect(b2.render).not.toBe(b1.render);
    expect(b2.html).toContain("cache spec asked");
    expectKept(await load(serverUrl(A)), a2);
  } finally {
    await site?.stop();
    await registry?.close();
    await a?.close().catch(() => undefined);
    await b?.close();
    closeDb(db);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
