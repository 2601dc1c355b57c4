import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { getDb, closeDb } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { roundDepsFromConfig, startBackground } from "@/lib/rounds/background";
import { listRecentRounds } from "@/lib/store/rounds";
import { tempDb } from "../store/helpers";

const t = tempDb();
afterAll(() => t.cleanup());

describe("embedded scheduler", () => {
  test("PROBE_SCHEDULE runs rounds in the process; an empty schedule turns it off", async () => {
    const file = path.join(t.dir, "bg.db");
    const off = await startBackground(
      parseConfig({ DATABASE_PATH: file, PROBE_SCHEDULE: "", REGISTRY_URL: "http://127.0.0.1:9" }),
      () => undefined,
    );
    expect(off.scheduler).toBeNull();
    off.stop();

    const config = parseConfig({ DATABASE_PATH: file, PROBE_SCHEDULE: "* * * * * *", REGISTRY_URL: "http://127.0.0.1:9" });
    const logs: string[] = [];
    const bg = await startBackground(config, (l) => logs.push(l));
    try {
      expect(await startBackground(config)).toBe(bg); // once per process
      const db = getDb(config);
      const end = Date.now() + 10_000;
      while (!listRecentRounds(db, 1)[0]?.finishedAt && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(listRecentRounds(db, 1)[0]).toMatchObject({ trigger: "scheduler", status: "done" });
      // The unreachable registry is logged, and the round still completes on the data it has.
      expect(logs.some((l) => l.startsWith("[registry] ingestion aborted"))).toBe(true);
    } finally {
      bg.stop();
      closeDb(getDb(config));
    }
  });
});

describe("configuration", () => {
  test("PROBE_HOST_CONCURRENCY defaults to 4, reaches the round, and refuses nonsense", () => {
    const base = { DATABASE_PATH: path.join(t.dir, "cfg.db"), REGISTRY_URL: "http://127.0.0.1:9" };
    expect(parseConfig(base).probeHostConcurrency).toBe(4);
    const config = parseConfig({ ...base, PROBE_HOST_CONCURRENCY: "8" });
    expect(roundDepsFromConfig(config).hostConcurrency).toBe(8);
    closeDb(getDb(config));
    expect(() => parseConfig({ ...base, PROBE_HOST_CONCURRENCY: "0" })).toThrow(/PROBE_HOST_CONCURRENCY/);
  });
});
