import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { afterEach, expect, test } from "vitest";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { insertClaim, replaceSecrets, secretsOf } from "@/lib/store/owners";
import { seal, secretAad, unseal } from "@/lib/store/secrets";
import { closeDb, openDb } from "@/db/client";
import { tempDb } from "../store/helpers";
import { listedServer } from "../store/listed";

// `npm run secrets -- rotate` as an operator runs it: a real process on a real database file (architecture.md §11).

const run = promisify(execFile);
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

test("rotate seals every value under the new key; the old key then opens none, and a value neither key opens is counted", async () => {
  const t = tempDb();
  cleanups.push(t.cleanup);
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);
  applyRegistrySnapshot(t.db, [listedServer("io.example/a", "https://a.example/mcp")], new Date().toISOString());
  const serverId = t.db.$client.prepare("select id from servers").pluck().get() as number;
  const { claimId } = insertClaim(t.db, { serverId, origin: "https://a.example", proof: "p", lang: "en", now: new Date() });
  const aad = secretAad(claimId, "header", "x-api-key");
  const stray = secretAad(claimId, "header", "x-other");
  replaceSecrets(
    t.db,
    claimId,
    [
      { kind: "header", name: "x-api-key", sealed: seal({ current: oldKey }, "value-one", aad), expiresAt: null },
      { kind: "header", name: "x-other", sealed: seal({ current: randomBytes(32) }, "lost", stray), expiresAt: null },
    ],
    new Date(),
  );
  closeDb(t.db);
  const env = {
    ...process.env,
    DATABASE_PATH: t.file,
    SECRETS_KEY: newKey.toString("base64"),
    SECRETS_KEY_PREVIOUS: oldKey.toString("base64"),
  };
  const out = await run("npx", ["tsx", "lib/cli/secrets.ts", "rotate"], { env }).catch((e: { stdout: string; code: number }) => e);
  expect(out.stdout).toContain("1 resealed under SECRETS_KEY, 0 already under it, 1 unreadable");
  const db = openDb(t.file);
  try {
    const row = secretsOf(db, claimId).find((s) => s.name === "x-api-key")!;
    expect(unseal({ current: newKey }, row.sealed, aad)).toBe("value-one");
    expect(unseal({ current: oldKey }, row.sealed, aad)).toBeNull();
  } finally {
    closeDb(db);
  }
});
