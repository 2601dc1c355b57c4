// Hostile input, end to end: each hostile zoo server is probed by the real probe (small limits) while a
// real `npm start` keeps answering `/` and `/api/health`; the results go into that site's database
// through the rounds' write path, and the server page must show every hostile string as text.
//
// This file runs its own `npm start` on its own database (the shared e2e server's seed stays as the
// other specs expect it), in one worker, in order.
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { closeDb, openDb, type Db } from "../../db/client";
import { judge } from "../../lib/checks";
import { createAddressPolicy, probeServer } from "../../lib/probe";
import type { ProbeLimits, ProbeObservation } from "../../lib/probe/types";
import { persistRun } from "../../lib/rounds/persist";
import { applyRegistrySnapshot, type ListedServer } from "../../lib/store/servers/registry";
import { startZooServer, ZOO_EXPECTATIONS } from "../../lib/demo/zoo";
import { MARKUP_DESCRIPTION } from "../../lib/demo/zoo/hostile";
import { freshDbFile, startOwnSite, type OwnSite } from "./own-site";

const LIMITS: Partial<ProbeLimits> = { deadlineMs: 5_000, maxBodyBytes: 1024 * 1024 };
const SLACK_MS = 1_500;
const RSS_CAP = 200 * 1024 * 1024;
/** Loopback is allowed for the fixtures; every other private range stays refused. */
const LOOPBACK_ONLY = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });
const DB_FILE = path.resolve("test-results/hostile/hostile-site.db");

const HOSTILE = Object.entries(ZOO_EXPECTATIONS)
  .filter(([, e]) => e.hostile)
  .map(([name]) => name);

test.describe.configure({ mode: "default" });

// --- the site under load -----------------------------------------------------------------------

interface Site extends OwnSite {
  db: Db;
  listed: ListedServer[];
}

let site: Site | undefined;

async function startSite(): Promise<Site> {
  freshDbFile(DB_FILE);
  const db = openDb(DB_FILE);
  return { ...(await startOwnSite(DB_FILE)), db, listed: [] };
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  site = await startSite();
});

test.afterAll(async () => {
  if (!site) return;
  const s = site;
  site = undefined;
  await s.stop();
  closeDb(s.db);
});

/** Fetches `/` and `/api/health` back to back until stopped; every answer is recorded. */
function pollSite(origin: string) {
  let running = true;
  const seen: { path: string; status?: number; error?: string }[] = [];
  const loops = ["/", "/api/health"].map(async (p) => {
    while (running) {
      try {
        const res = await fetch(`${origin}${p}`, { signal: AbortSignal.timeout(15_000) });
        await res.arrayBuffer();
        seen.push({ path: p, status: res.status });
      } catch (e) {
        seen.push({ path: p, error: (e as Error).message });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return seen;
    },
  };
}

// --- probe, persist, render ----------------------------------------------------------------------

interface Probed {
  obs: ProbeObservation;
  elapsedMs: number;
  rssDelta: number;
}

type Poll = { path: string; status?: number; error?: string };

async function probeMeasured(url: string, opts: Partial<Parameters<typeof probeServer>[1]> = {}): Promise<Probed> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  let obs: ProbeObservation;
  try {
    obs = await probeServer({ url, transport: "streamable-http" }, { addressPolicy: LOOPBACK_ONLY, limits: LIMITS, ...opts });
  } finally {
    clearInterval(sampler);
  }
  const elapsedMs = performance.now() - started;
  peak = Math.max(peak, process.memoryUsage().rss);
  return { obs, elapsedMs, rssDelta: peak - before };
}

function expectBounded(label: string, p: Probed): void {
  console.log(
    `[hostile] ${label}: probe ${Math.round(p.elapsedMs)} ms (deadline ${LIMITS.deadlineMs} ms), rss +${Math.round(p.rssDelta / 1048576)} MB`,
  );
  expect(p.elapsedMs, `${label}: probe took ${Math.round(p.elapsedMs)} ms`).toBeLessThanOrEqual(LIMITS.deadlineMs! + SLACK_MS);
  expect(p.rssDelta, `${label}: rss grew by ${Math.round(p.rssDelta / 1048576)} MB`).toBeLessThan(RSS_CAP);
}

function expectSiteAnswered(label: string, polls: Poll[]): void {
  const failures = polls.filter((r) => r.status !== 200);
  console.log(`[hostile] ${label}: site answered ${polls.length - failures.length}/${polls.length} polls of / and /api/health with 200`);
  expect(polls.length, `${label}: the site was polled throughout`).toBeGreaterThanOrEqual(4);
  expect(failures, `${label}: site answers other than 200`).toEqual([]);
}

/** Polls the site for the whole of `fn` (probe, write, page load) and checks every answer was a 200. */
async function whileServing(label: string, fn: () => Promise<void>): Promise<void> {
  const poll = pollSite(site!.origin);
  let polls: Poll[];
  try {
    await fn();
  } finally {
    polls = await poll.stop();
  }
  expectSiteAnswered(label, polls);
}

/** Writes one observation into the site's database the way a round does; returns the server's name. */
function persist(name: string, url: string, obs: ProbeObservation): string {
  const s = site!;
  const at = new Date();
  s.listed = s.listed.filter((l) => l.name !== name);
  s.listed.push({
    name,
    title: null,
    description: `Hostile fixture: ${ZOO_EXPECTATIONS[name.split("/")[1]!]?.about ?? name}`,
    version: "1.0.0",
    url,
    transport: "streamable-http",
    host: new URL(url).host,
    needsConfig: null,
    registryUpdatedAt: null,
  });
  applyRegistrySnapshot(s.db, s.listed, at.toISOString());
  const row = s.db.$client.prepare("select id from servers where name = ?").get(name) as { id: number } | undefined;
  if (!row) throw new Error(`${name} was not stored by applyRegistrySnapshot`);
  persistRun(s.db, { serverId: row.id, roundId: null, obs, results: judge(obs), skipped: false, now: at });
  return name;
}

const encodeName = (name: string) => name.split("/").map(encodeURIComponent).join("/");

/** What hostile markup would leave behind had it been rendered as HTML rather than text. */
function findInjected(page: Page) {
  return page.evaluate(() => {
    const withHandlers = [...document.querySelectorAll("*")].filter((el) =>
      [...el.attributes].some((a) => a.name.toLowerCase().startsWith("on")),
    );
    // Next's own inline scripts carry the page data (hostile strings included, escaped) in __next_f.
    const strayScripts = [...document.scripts].filter(
      (s) => !s.src && !(s.textContent ?? "").includes("__next_f") && /alert\(|evil\.example|document\.cookie/.test(s.textContent ?? ""),
    );
    return {
      handlers: withHandlers.map((el) => el.outerHTML.slice(0, 120)),
      scripts: strayScripts.map((s) => (s.textContent ?? "").slice(0, 120)),
      iframes: document.querySelectorAll("iframe").length,
      strayImages: document.querySelectorAll('img[src="x"]').length,
      polluted: (Object.prototype as Record<string, unknown>).polluted ?? null,
    };
  });
}

/** Records requests that would leave loopback (and aborts them) and dialogs (and dismisses them). */
async function guard(page: Page) {
  const outside: string[] = [];
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  await page.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.hostname === "127.0.0.1") return route.continue();
    outside.push(u.toString());
    return route.abort();
  });
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  return { outside, dialogs, pageErrors };
}

/** Opens the server page with every off-loopback request blocked and recorded, and checks nothing ran. */
async function openEscaped(page: Page, name: string): Promise<void> {
  const { outside, dialogs, pageErrors } = await guard(page);
  const res = await page.goto(`${site!.origin}/servers/${encodeName(name)}`, { waitUntil: "load" });
  expect(res?.status(), `${name}: server page status`).toBe(200);
  await expect(page.locator("h1")).toContainText(name);
  // Give any injected handler or timer a moment to fire.
  await page.waitForTimeout(300);

  const injected = await findInjected(page);
  expect(injected, `${name}: elements injected into the page`).toEqual({
    handlers: [],
    scripts: [],
    iframes: 0,
    strayImages: 0,
    polluted: null,
  });
  expect(dialogs, `${name}: dialogs opened`).toEqual([]);
  expect(outside, `${name}: requests that left loopback`).toEqual([]);
  expect(pageErrors, `${name}: page errors`).toEqual([]);

  // The JSON link target serves the same stored verdicts.
  const api = await page.request.get(`${site!.origin}/api/servers/${encodeName(name)}`);
  expect(api.status(), `${name}: /api/servers status`).toBe(200);
  const body = (await api.json()) as { checks?: Record<string, { state: string }> };
  expect(Object.keys(body.checks ?? {}).length, `${name}: checks in the JSON`).toBe(5);
}

test.describe("hostile servers while the site serves requests", () => {
  test("the injection check flags the markup when it is rendered as HTML (control)", async ({ page }) => {
    const { outside, dialogs } = await guard(page);
    await page.setContent(`<main><div>${MARKUP_DESCRIPTION}</div></main>`, { waitUntil: "load" });
    await page.waitForTimeout(300);
    const injected = await findInjected(page);
    expect(injected.handlers.length + injected.iframes + injected.strayImages, JSON.stringify(injected)).toBeGreaterThan(0);
    expect(injected.scripts.length).toBeGreaterThan(0);
    expect(dialogs.length + outside.length, "the raw markup ran").toBeGreaterThan(0);
  });

  for (const behaviour of HOSTILE) {
    test(`${behaviour}: bounded probe, the site keeps answering, the page shows it as text`, async ({ page }) => {
      test.setTimeout(60_000);
      await whileServing(behaviour, async () => {
        const zoo = await startZooServer(behaviour);
        let probed: Probed;
        try {
          probed = await probeMeasured(zoo.url);
        } finally {
          await zoo.close();
        }
        expectBounded(behaviour, probed);
        expect(({} as Record<string, unknown>).polluted, "prototype polluted in the prober").toBeUndefined();

        const name = persist(`io.test.hostile/${behaviour}`, zoo.url, probed.obs);
        await openEscaped(page, name);

        if (behaviour === "hostile-markup-description") {
          // The markup is data: it must read literally, in the tool list and in the evidence.
          await expect(page.locator(".tool-list")).toContainText(MARKUP_DESCRIPTION.slice(0, 60));
          await expect(page.locator("body")).toContainText('<script>alert("owned")</script>');
        }
        if (behaviour === "hostile-proto-keys") await expect(page.locator("body")).toContainText("__proto__");
        if (behaviour === "hostile-ten-thousand-tools") await expect(page.locator("#tools-h")).toContainText("10000");
      });
    });
  }

  test("a name whose DNS answer is a private address gets no request, and the refusal renders", async ({ page }) => {
    test.setTimeout(60_000);
    await whileServing("private DNS answer", async () => {
      const zoo = await startZooServer("modern-healthy-paged");
      const hostile = `http://mcp.private-answer.test:${new URL(zoo.url).port}/mcp`;
      let probed: Probed;
      try {
        probed = await probeMeasured(hostile, {
          addressPolicy: createAddressPolicy({ allowPrivate: false }),
          // The answer points at the loopback fixture: were the policy skipped, the request would land there.
          dnsLookup: async () => [{ address: "127.0.0.1", family: 4 }],
        });
      } finally {
        await zoo.close();
      }
      expectBounded("private DNS answer", probed);
      expect(zoo.log, "requests that reached the private address").toEqual([]);
      const results = judge(probed.obs);
      expect(results.find((r) => r.check === "handshake")?.state).not.toBe("verified");
      expect(results.map((r) => r.reason).join(" "), "a reason names the address range").toMatch(/loopback|private|address/i);

      const name = persist("io.test.hostile/private-dns-answer", hostile, probed.obs);
      await openEscaped(page, name);
    });
  });
});
