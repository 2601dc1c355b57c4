import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hostPauses, runs } from "@/db/schema";
import { createAddressPolicy } from "@/lib/probe";
import { runRound, type RoundDeps, type RoundSummary } from "@/lib/rounds/round";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { registryRows, startLoopbackHost, zooMount, type LoopbackHost, type Mount, type SeenRequest } from "../../fixtures/loopback-hosts";
import { ZOO_EXPECTATIONS } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

// Per-host politeness (architecture.md §2.5) seen from the servers' side: real loopback hosts (127.0.0.x), a real round.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const prefixes = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `/${tag}${String(i).padStart(3, "0")}`);

function deps(db: RoundDeps["db"], extra: Partial<RoundDeps> = {}): RoundDeps {
  return {
    db,
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    limits: { deadlineMs: 20_000 },
    log: () => undefined,
    trigger: "test",
    ...extra,
  };
}

/** Registers every mounted server of the hosts, host by host in the order given. */
function register(db: RoundDeps["db"], hosts: LoopbackHost[], mounts: Map<LoopbackHost, string[]>): void {
  const rows = hosts.flatMap((h) => mounts.get(h)!.map((p) => ({ name: `io.test/${h.address}${p}`, url: h.url(p) })));
  applyRegistrySnapshot(db, registryRows(rows), new Date().toISOString());
}

const mcpRequests = (h: LoopbackHost): SeenRequest[] => h.requests.filter((r) => r.path !== "/robots.txt");

describe("crowded and ordinary hosts in one round", () => {
  const CONCURRENCY = 6;
  const LIMIT = 3;
  let crowded: LoopbackHost;
  const ordinary: LoopbackHost[] = [];
  let summary: RoundSummary;
  const t = tempDb();

  beforeAll(async () => {
    // 60 servers on one host (crowded: 50 or more), 10 hosts of 2, more ordinary hosts than workers; every
    // answer 15 ms late so probes overlap. The crowded host's servers are listed last.
    const crowdedPrefixes = prefixes(60, "c");
    crowded = await startLoopbackHost("127.0.0.11", {
      mounts: Object.fromEntries(crowdedPrefixes.map((p) => [p, zooMount("modern-healthy-paged", p)])),
      delayMs: 15,
    });
    const mounts = new Map<LoopbackHost, string[]>([[crowded, crowdedPrefixes]]);
    for (let i = 0; i < 10; i++) {
      const ps = prefixes(2, "o");
      const h = await startLoopbackHost(`127.0.0.${12 + i}`, {
        mounts: Object.fromEntries(ps.map((p) => [p, zooMount("modern-healthy-paged", p)])),
        delayMs: 15,
      });
      ordinary.push(h);
      mounts.set(h, ps);
    }
    register(t.db, [...ordinary, crowded], mounts);
    summary = await runRound(deps(t.db, { concurrency: CONCURRENCY, hostConcurrency: LIMIT }));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([crowded, ...ordinary].map((h) => h.close()));
    t.cleanup();
  });

  test("every server is probed; the crowded host sees at most PROBE_HOST_CONCURRENCY requests at once, ordinary hosts one, a probe one", () => {
    expect(summary).toMatchObject({ status: "done", due: 80, probed: 80, read: 80 });
    expect(crowded.peak).toBe(LIMIT);
    for (const h of ordinary) expect(h.peak, h.address).toBe(1);
    for (const h of [crowded, ...ordinary]) for (const r of h.requests) expect(r.inFlightPrefix, `${h.address}${r.path}`).toBe(1);
    expect(new Set(mcpRequests(crowded).map((r) => r.prefix)).size).toBe(60);
  });

  test("probes of servers on one host reuse the round's warm connections instead of opening one each", () => {
    const requests = mcpRequests(crowded).length;
    // 60 servers, several requests each: without reuse every probe opens at least one connection.
    expect(requests).toBeGreaterThan(3 * 60);
    expect(crowded.connections, `${crowded.connections} connections for ${requests} requests`).toBeLessThanOrEqual(2 * LIMIT + 2);
  });

  test("the crowded host's first probe starts in the first batch, although its servers are listed last", () => {
    const firstByServer = new Map<string, number>();
    for (const h of [crowded, ...ordinary]) {
      for (const r of mcpRequests(h)) {
        const key = `${h.address}${r.prefix}`;
        if (!firstByServer.has(key)) firstByServer.set(key, r.start);
      }
    }
    const order = [...firstByServer].sort((a, b) => a[1] - b[1]).map(([k]) => k);
    const firstCrowded = order.findIndex((k) => k.startsWith("127.0.0.11/"));
    expect(firstCrowded).toBeGreaterThanOrEqual(0);
    expect(firstCrowded).toBeLessThan(CONCURRENCY);
  });
});

describe("Crawl-delay", () => {
  test("a host whose robots.txt sets Crawl-delay: 2 sees no two requests closer than 2 s", async () => {
    const t = tempDb();
    const ps = prefixes(2, "g");
    const h = await startLoopbackHost("127.0.0.31", {
      mounts: Object.fromEntries(ps.map((p) => [p, zooMount("gate-401-no-challenge", p)])),
      robots: "User-agent: *\nDisallow: /private\n\nUser-agent: mcp-status-probe\nCrawl-delay: 2\n",
    });
    try {
      register(t.db, [h], new Map([[h, ps]]));
      const s = await runRound(deps(t.db, { concurrency: 4 }));
      expect(s).toMatchObject({ status: "done", probed: 2 });
      const seen = [...h.requests].sort((a, b) => a.start - b.start);
      expect(seen[0]!.path).toBe("/robots.txt");
      expect(seen.length).toBeGreaterThanOrEqual(5);
      for (let i = 1; i < seen.length; i++) {
        expect(seen[i]!.start - seen[i - 1]!.end, `request ${i} (${seen[i]!.path})`).toBeGreaterThanOrEqual(2_000);
      }
      // The pacing is ours, not the server's fault: both servers reach the verdicts the zoo expects.
      const expected = ZOO_EXPECTATIONS["gate-401-no-challenge"]!.states;
      for (const p of ps) expect(getServerDetail(t.db, `io.test/127.0.0.31${p}`)!.states).toEqual(expected);
    } finally {
      await h.close();
      t.cleanup();
    }
  }, 60_000);
});

describe("a 429 pauses its host", () => {
  const tooMany: Mount = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(429, { "content-type": "text/plain", "retry-after": "2" }).end("Too Many Requests\n");
  };
  const mounts = () => ({ "/a": tooMany, "/b": zooMount("gate-401-no-challenge", "/b"), "/c": zooMount("gate-401-no-challenge", "/c") });

  test("a 429 with Retry-After: 2 on one server holds back the others on that host for 2 s; the server itself gets nothing more", async () => {
    const t = tempDb();
    const h = await startLoopbackHost("127.0.0.41", { mounts: mounts() });
    const other = await startLoopbackHost("127.0.0.42", { mounts: { "/x": zooMount("gate-401-no-challenge", "/x") } });
    try {
      register(
        t.db,
        [h, other],
        new Map([
          [h, ["/a", "/b", "/c"]],
          [other, ["/x"]],
        ]),
      );
      const s = await runRound(deps(t.db, { concurrency: 4 }));
      expect(s).toMatchObject({ status: "done", probed: 4 });
      const a = mcpRequests(h).filter((r) => r.prefix === "/a");
      expect(a).toHaveLength(1);
      const others = mcpRequests(h).filter((r) => r.prefix !== "/a");
      expect(others.length).toBeGreaterThan(0);
      for (const r of others) expect(r.start - a[0]!.end, `${r.prefix} ${r.path}`).toBeGreaterThanOrEqual(1_990);
      // Another host is not held back.
      expect(mcpRequests(other)[0]!.start - a[0]!.end).toBeLessThan(1_000);
      expect(t.db.select().from(hostPauses).all()).toEqual([
        expect.objectContaining({ host: new URL(h.origin).host, cause: "HTTP 429 with Retry-After 2 s" }),
      ]);
    } finally {
      await Promise.all([h.close(), other.close()]);
      t.cleanup();
    }
  }, 60_000);

  test("a pause longer than the round waits for leaves the others due; the next round respects it until it ends", async () => {
    const t = tempDb();
    const h = await startLoopbackHost("127.0.0.43", { mounts: mounts() });
    try {
      register(t.db, [h], new Map([[h, ["/a", "/b", "/c"]]]));
      const first = await runRound(deps(t.db, { maxPauseWaitMs: 500 }));
      expect(first).toMatchObject({ status: "done", due: 3, probed: 1 });
      expect(mcpRequests(h).map((r) => r.prefix)).toEqual(["/a"]);
      const second = await runRound(deps(t.db, { maxPauseWaitMs: 500 }));
      expect(second).toMatchObject({ due: 2, probed: 0 });
      expect(mcpRequests(h)).toHaveLength(1);
      await sleep(2_100);
      const third = await runRound(deps(t.db, { maxPauseWaitMs: 500 }));
      expect(third).toMatchObject({ due: 2, probed: 2 });
      expect(new Set(mcpRequests(h).map((r) => r.prefix))).toEqual(new Set(["/a", "/b", "/c"]));
      expect(t.db.select().from(runs).all()).toHaveLength(3);
    } finally {
      await h.close();
      t.cleanup();
    }
  }, 60_000);
});
