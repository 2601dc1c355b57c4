import { afterEach, expect, test } from "vitest";
import { openDb, closeDb } from "@/db/client";
import { judge } from "@/lib/checks";
import type { ProbeObservation } from "@/lib/probe/types";
import type { PersistInput } from "@/lib/rounds/persist";
import { createBatchWriter } from "@/lib/rounds/persist-batch";
import { applyRegistrySnapshot, type ListedServer } from "@/lib/store/servers/registry";
import { tempDb } from "../store/helpers";

// Several servers per transaction: committed together, invisible until then, and one server's failure
// rolls back that server only.

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function setup(n: number) {
  const t = tempDb();
  cleanups.push(t.cleanup);
  const listed: ListedServer[] = Array.from({ length: n }, (_, i) => ({
    name: `io.github.batch/s${i}`,
    title: null,
    description: null,
    version: "1",
    url: `https://s${i}.example/mcp`,
    transport: "streamable-http",
    host: `s${i}.example`,
    needsConfig: null,
    registryUpdatedAt: null,
  }));
  applyRegistrySnapshot(t.db, listed, "2026-11-01T00:00:00.000Z");
  const ids = (t.db.$client.prepare("select id from servers order by id").all() as { id: number }[]).map((r) => r.id);
  return { ...t, ids };
}

function refused(serverId: number): PersistInput {
  const at = new Date("2026-11-02T00:00:00.000Z");
  const obs: ProbeObservation = {
    url: "https://s.example/mcp",
    transport: "streamable-http",
    startedAt: at.toISOString(),
    finishedAt: at.toISOString(),
    era: "unknown",
    exchanges: [
      {
        seq: 1,
        phase: "discover",
        method: "POST",
        url: "https://s.example/mcp",
        requestHeaders: {},
        responseHeaders: {},
        durationMs: 3,
        error: "ECONNREFUSED",
      },
    ],
    handshake: { kind: "failed", reason: { code: "network", detail: "ECONNREFUSED" }, seq: 1 } as unknown as ProbeObservation["handshake"],
  };
  return { serverId, roundId: null, obs, results: judge(obs), skipped: false, now: at };
}

test("queued runs commit together, are invisible to other connections until then, and a failing one rolls back alone", async () => {
  const { db, file, ids } = setup(3);
  const other = openDb(file);
  try {
    const writer = createBatchWriter(db, { maxDelayMs: 60_000, maxBatch: 100 });
    const runs = () => (other.$client.prepare("select count(*) n from runs").get() as { n: number }).n;
    const written = [writer.persist(refused(ids[0]!)), writer.persist(refused(9_999)), writer.persist(refused(ids[2]!))];
    const settled = Promise.allSettled(written);
    // Nothing committed yet: a crash now would lose these three, and their servers would still be due.
    await new Promise((r) => setTimeout(r, 20));
    expect(runs()).toBe(0);
    expect((other.$client.prepare("select count(*) n from servers where next_due_at is null").get() as { n: number }).n).toBe(3);
    await writer.flush();
    const [a, missing, c] = (await settled) as [
      PromiseSettledResult<unknown>,
      PromiseSettledResult<unknown>,
      PromiseSettledResult<unknown>,
    ];
    expect(a.status).toBe("fulfilled");
    expect(c.status).toBe("fulfilled");
    expect(missing.status).toBe("rejected");
    expect(String((missing as PromiseRejectedResult).reason)).toMatch(/vanished/);
    expect(runs()).toBe(2);
    for (const id of [ids[0]!, ids[2]!]) {
      const row = other.$client.prepare("select last_run_id r, next_due_at d from servers where id = ?").get(id) as {
        r: number;
        d: string;
      };
      expect(row.r).toBeGreaterThan(0);
      expect(row.d).not.toBeNull();
      expect((other.$client.prepare("select count(*) n from check_results where server_id = ?").get(id) as { n: number }).n).toBe(5);
    }
    expect(
      (other.$client.prepare("select count(*) n from servers where id = ? and last_run_id is null").get(ids[1]!) as { n: number }).n,
    ).toBe(1);
  } finally {
    closeDb(other);
  }
});
