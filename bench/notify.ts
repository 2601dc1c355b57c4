// npm run bench:notify: a 10,000-subscriber burst (architecture.md §10). One server with 10,000 confirmed webhook
// subscriptions (loopback receivers, four ports), `npm start` serving the database with its notifier process, then the
// server changes (a round's own write, persistRun) and every subscription gets a message at once. Measured: the round's
// transaction with the outbox rows in it, the time until the outbox drains, and page latency (p50, p99) before and while
// it drains, with a round's write timed during the drain too.
//
// Knobs: BENCH_NOTIFY_SUBSCRIBERS (10000), BENCH_NOTIFY_RECEIVERS (4).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { closeDb, openDb } from "@/db/client";
import { judge } from "@/lib/checks";
import { persistRun } from "@/lib/rounds/persist";
import { serverPath } from "@/lib/site/paths";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { startNext } from "@/tests/fixtures/next-server";
import { listedServer } from "@/tests/unit/store/listed";
import type { ProbeObservation } from "@/lib/probe/types";
import { freePort } from "./common";

const SUBSCRIBERS = Number(process.env.BENCH_NOTIFY_SUBSCRIBERS ?? 10_000);
const RECEIVERS = Number(process.env.BENCH_NOTIFY_RECEIVERS ?? 4);
const NAME = "io.bench/burst";
const log = (line: string) => console.log(line);

const exchange = (seq: number, phase: "discover" | "tools_list" | "tools_call", status?: number) => ({
  seq,
  phase,
  method: "POST",
  url: "https://burst.example/mcp",
  requestHeaders: {},
  responseHeaders: {},
  durationMs: 5,
  ...(status ? { status, bodyExcerpt: "{}" } : { error: "ECONNREFUSED" }),
});
const tools = [{ name: "search", description: "Search", inputSchema: { type: "object" } }];

/** A read that went well, and one whose connection was refused: the server's state moves between them. */
function healthy(at: Date): ProbeObservation {
  return {
    url: "https://burst.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: new Date(at.getTime() + 40).toISOString(),
    era: "modern",
    handshake: { kind: "modern", protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], seq: 1 },
    toolsList: { kind: "complete", tools, pages: 1, malformed: [], seqs: [2] },
    toolCall: {
      kind: "answered",
      status: 200,
      shape: { type: "jsonrpc_error", code: -32602, message: "Unknown tool", transport: "json" },
      seq: 3,
    },
    authMetadata: { kind: "no_challenge" },
    exchanges: [exchange(1, "discover", 200), exchange(2, "tools_list", 200), exchange(3, "tools_call", 200)],
  } as ProbeObservation;
}
function down(at: Date): ProbeObservation {
  return {
    url: "https://burst.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: at.toISOString(),
    era: "unknown",
    handshake: { kind: "failed", cause: "connection refused (ECONNREFUSED)", seq: 1 },
    exchanges: [exchange(1, "discover")],
  } as ProbeObservation;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) throw new Error("no .next build: run npx next build first");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-notify-"));
  const dbFile = path.join(dir, "site.db");
  let received = 0;
  const receivers = await Promise.all(
    Array.from({ length: RECEIVERS }, async () => {
      const s = http.createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          received++;
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
      return s;
    }),
  );
  const db = openDb(dbFile);
  const stamp = new Date().toISOString();
  applyRegistrySnapshot(
    db,
    [listedServer(NAME, "http://127.0.0.1:9/mcp"), listedServer("io.bench/other", "http://127.0.0.1:9/other")],
    stamp,
  );
  const id = (n: string) => db.$client.prepare("select id from servers where name = ?").pluck().get(n) as number;
  persistRun(db, {
    serverId: id(NAME),
    roundId: null,
    obs: healthy(new Date()),
    results: judge(healthy(new Date())),
    skipped: false,
    now: new Date(),
  });
  db.$client.transaction(() => {
    const sub = db.$client.prepare(
      "insert into subscribers (channel, address, flavor, created_at) values ('webhook', ?, 'json', ?) returning id",
    );
    const s = db.$client.prepare(
      "insert into subscriptions (subscriber_id, server_id, token, events, secret, created_at, confirmed_at) values (?, ?, ?, ?, ?, ?, ?)",
    );
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const port = (receivers[i % RECEIVERS]!.address() as AddressInfo).port;
      const subscriber = sub.pluck().get(`http://127.0.0.1:${port}/hook/${i}`, stamp) as number;
      s.run(subscriber, id(NAME), `bench-token-${i}`, JSON.stringify(["state_changed"]), `secret-${i}`, stamp, stamp);
    }
  })();
  log(`[bench:notify] ${SUBSCRIBERS} confirmed webhook subscriptions to one server, ${RECEIVERS} loopback receivers`);

  const site = await startNext({
    dbPath: dbFile,
    port: await freePort(),
    env: { PROBE_ALLOW_PRIVATE_NETWORKS: "1", CROSS_READ_SAMPLE: "0" },
  });
  try {
    const pages = [serverPath(NAME), "/", "/coverage", `/api/servers/${NAME}`, serverPath("io.bench/other")];
    const sample = async (ms: number, until?: () => boolean) => {
      const times: number[] = [];
      const end = Date.now() + ms;
      let i = 0;
      while (Date.now() < end && !(until?.() ?? false)) {
        const t0 = performance.now();
        const res = await fetch(`${site.origin}${pages[i++ % pages.length]}`);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
      }
      return times;
    };
    await sample(3_000); // warm
    const before = await sample(10_000);
    log(
      `[bench:notify] pages before the burst: ${before.length} requests, p50 ${pct(before, 50).toFixed(1)} ms, p99 ${pct(before, 99).toFixed(1)} ms`,
    );

    const t0 = performance.now();
    persistRun(db, {
      serverId: id(NAME),
      roundId: null,
      obs: down(new Date()),
      results: judge(down(new Date())),
      skipped: false,
      now: new Date(),
    });
    const writeMs = performance.now() - t0;
    const queued = db.$client.prepare("select count(*) from outbox").pluck().get() as number;
    log(`[bench:notify] the round's write with ${queued} outbox rows in its transaction: ${writeMs.toFixed(0)} ms`);
    const burstAt = Date.now();

    const pending = () => db.$client.prepare("select count(*) from outbox where state = 'pending'").pluck().get() as number;
    let drained = false;
    const roundWrites: number[] = [];
    const writer = (async () => {
      // A round's writes during the drain: the other server, once a second.
      while (!drained) {
        const w0 = performance.now();
        persistRun(db, {
          serverId: id("io.bench/other"),
          roundId: null,
          obs: healthy(new Date()),
          results: judge(healthy(new Date())),
          skipped: false,
          now: new Date(),
        });
        roundWrites.push(performance.now() - w0);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    })();
    const watcher = (async () => {
      while (pending() > 0 && Date.now() - burstAt < 10 * 60_000) await new Promise((r) => setTimeout(r, 100));
      drained = true;
    })();
    const during = await sample(10 * 60_000, () => drained);
    await watcher;
    await writer;
    const drainS = (Date.now() - burstAt) / 1000;
    const delivered = db.$client.prepare("select count(*) from outbox where state = 'delivered'").pluck().get() as number;
    log(
      `[bench:notify] drained in ${drainS.toFixed(1)} s: ${delivered} delivered, ${received} requests received (${(delivered / drainS).toFixed(0)}/s)`,
    );
    log(
      `[bench:notify] pages while draining: ${during.length} requests, p50 ${pct(during, 50).toFixed(1)} ms, p99 ${pct(during, 99).toFixed(1)} ms`,
    );
    log(`[bench:notify] a round's write while draining: ${roundWrites.length} writes, max ${Math.max(...roundWrites).toFixed(1)} ms`);
  } finally {
    await site.stop();
    closeDb(db);
    for (const r of receivers) r.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`[bench:notify] ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
