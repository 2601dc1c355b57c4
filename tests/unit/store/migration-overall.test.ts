import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { closeDb, MIGRATIONS_FOLDER, openDb } from "@/db/client";
import { overallState } from "@/lib/checks/overall";
import type { CheckState } from "@/lib/vocabulary/checks";

// The migration that adds servers.overall fills it in for servers probed before it, by the same rule as
// lib/checks/overall.ts: a database from before the migration, real rows, then the full set of migrations.

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

/** The committed migrations up to (not including) the one whose tag ends with `before` (numbers change at merges). */
function migrationsBefore(before: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  dirs.push(dir);
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const cut = journal.entries.findIndex((e) => e.tag.endsWith(before));
  expect(cut).toBeGreaterThan(0);
  const kept = journal.entries.slice(0, cut);
  fs.mkdirSync(path.join(dir, "meta"));
  fs.writeFileSync(path.join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries: kept }));
  for (const e of kept) fs.copyFileSync(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

test("existing servers get their overall state in the migration", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "overall-backfill-"));
  dirs.push(dir);
  const file = path.join(dir, "old.db");
  const old = openDb(file, { migrationsFolder: migrationsBefore("_headline") });
  const rows: [string, (CheckState | null)[]][] = [
    ["gated", ["not_checked", "not_checked", "not_checked", "not_checked", "verified"]],
    ["healthy", ["verified", "verified", "verified", "verified", "not_checked"]],
    ["risky", ["verified", "verified", "verified", "observed_risk", "not_checked"]],
    ["down", ["failed", "failed", "not_checked", "not_checked", "not_checked"]],
    ["handshake-only", ["verified", "verified", "not_checked", "not_checked", "not_checked"]],
    ["never", [null, null, null, null, null]],
  ];
  const insert = old.$client.prepare(
    `insert into servers (name, first_seen_at, last_seen_at, state_handshake, state_protocol_version, state_tools_list, state_error_taxonomy, state_auth_metadata)
     values (?, '2026-11-01', '2026-11-01', ?, ?, ?, ?, ?)`,
  );
  for (const [name, states] of rows) insert.run(name, ...states);
  closeDb(old);

  const db = openDb(file);
  try {
    const got = Object.fromEntries(
      (db.$client.prepare("select name, overall from servers").all() as { name: string; overall: string | null }[]).map((r) => [
        r.name,
        r.overall,
      ]),
    );
    expect(got).toEqual({
      gated: "not_checked",
      healthy: "verified",
      risky: "observed_risk",
      down: "failed",
      "handshake-only": "not_checked",
      never: null,
    });
    // The SQL agrees with the function the round uses.
    for (const [name, [handshake, protocol_version, tools_list, error_taxonomy, auth_metadata]] of rows) {
      expect(got[name], name).toBe(overallState({ handshake, protocol_version, tools_list, error_taxonomy, auth_metadata }));
    }
  } finally {
    closeDb(db);
  }
});
