// The weekly re-check of owners' proofs runs on the site process's own clock (architecture.md §11), not on rounds: the
// background module is started as `npm start` starts it, with PROBE_SCHEDULE empty and a real SQLite file, and claims whose
// 7 days are up (their stored check times backdated) change state against a loopback origin while no round ever runs.
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { closeDb, getDb } from "@/db/client";
import { parseConfig } from "@/lib/config";
import { startOwnerServer, type RunningOwnerServer } from "@/lib/demo/zoo/owners";
import { startBackground } from "@/lib/rounds/background";
import { RECHECK_EVERY_MS } from "@/lib/rounds/owners/claims";
import { insertClaim, markVerified, newProof } from "@/lib/store/owners";
import { listRecentRounds } from "@/lib/store/rounds";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { tempDb } from "../store/helpers";

const DAY = 86_400_000;
const NAME = "io.github.owners/clocked";

describe("the claims' clock", () => {
  const t = tempDb("claims-clock-");
  let origin: RunningOwnerServer;
  beforeAll(async () => {
    origin = await startOwnerServer("owner-key", { host: "127.0.0.7", otherHost: "127.0.0.8" });
  });
  afterAll(async () => {
    await origin?.close();
    t.cleanup();
  });

  const base = (file: string) => ({
    DATABASE_PATH: path.join(t.dir, file),
    PROBE_SCHEDULE: "",
    REGISTRY_URL: "http://127.0.0.1:9",
    CROSS_READ_SAMPLE: "0",
    PROBE_ALLOW_PRIVATE_NETWORKS: "1",
  });

  test("with PROBE_SCHEDULE empty, claims whose 7 days are up are fetched again: found stays, a second miss lapses", async () => {
    const config = parseConfig({ ...base("clock.db"), SECRETS_KEY: randomBytes(32).toString("base64") });
    const db = getDb(config);
    const lines: string[] = [];
    let bg: Awaited<ReturnType<typeof startBackground>> | undefined;
    try {
      const now = Date.now();
      applyRegistrySnapshot(
        db,
        [
          {
            name: NAME,
            title: null,
            description: null,
            version: "1",
            url: origin.url,
            transport: "streamable-http",
            host: new URL(origin.url).host,
            needsConfig: null,
            registryUpdatedAt: null,
          },
        ],
        new Date(now - 10 * DAY).toISOString(),
      );
      const serverId = db.$client.prepare("select id from servers where name = ?").pluck().get(NAME) as number;
      // Three verified owners of one server, verified 8 days ago: two are due (one still publishes its line, one missed
      // once already and is gone again); the third was checked a day ago and is not due.
      const claim = (proof: string, verifiedAgo: number) => {
        const { claimId } = insertClaim(db, { serverId, origin: origin.origin, proof, lang: "en", now: new Date(now - verifiedAgo) });
        markVerified(db, claimId, new Date(now - verifiedAgo), new Date(now - verifiedAgo + RECHECK_EVERY_MS));
        return claimId;
      };
      const [kept, gone, fresh] = [newProof(), newProof(), newProof()];
      const keptId = claim(kept, 8 * DAY);
      const goneId = claim(gone, 8 * DAY);
      const freshId = claim(fresh, DAY);
      db.$client.prepare("update claims set misses = 1 where id = ?").run(goneId);
      origin.state.proof = `${kept}\n${fresh}`;
      const row = (id: number) =>
        db.$client.prepare("select state, misses, last_checked_at, next_check_at from claims where id = ?").get(id) as {
          state: string;
          misses: number;
          last_checked_at: string;
          next_check_at: string | null;
        };
      const before = row(freshId);

      bg = await startBackground(config, (l) => lines.push(l));
      expect(bg.scheduler).toBeNull();
      expect(bg.claims).not.toBeNull();
      await expect.poll(() => row(goneId).state, { timeout: 20_000 }).toBe("lapsed");
      await expect.poll(() => Date.parse(row(keptId).next_check_at ?? "") > now + 6 * DAY, { timeout: 20_000 }).toBe(true);
      expect(row(keptId)).toMatchObject({ state: "verified", misses: 0 });
      expect(Date.parse(row(keptId).last_checked_at)).toBeGreaterThanOrEqual(now);
      expect(row(freshId)).toEqual(before);
      // The proof file was fetched (twice: the found claim and the lapsed one), and not for the claim that was not due.
      expect(origin.log.filter((r) => r.path === "/.well-known/mcp-status-claim").length).toBe(2);
      expect(lines).toContain(`[owners] claim ${goneId} on ${NAME} lapsed: its proof was gone twice in a row`);
      // No round ran, from any trigger.
      expect(listRecentRounds(db, 5)).toHaveLength(0);
      // A second tick finds nothing due.
      expect(await bg.claims!.tick()).toEqual({ checked: 0, lapsed: 0 });
    } finally {
      bg?.stop();
      closeDb(db);
    }
  });

  test("without SECRETS_KEY there is no claims' clock", async () => {
    const config = parseConfig(base("off.db"));
    const bg = await startBackground(config, () => undefined);
    try {
      expect(bg.claims).toBeNull();
    } finally {
      bg.stop();
      closeDb(getDb(config));
    }
  });
});
