// The host gate while its database cannot be written (architecture.md §2.5, §6): a lease whose give-back fails stays
// this process's and goes back once writes work, instead of being renewed for ever with the others.
import { afterEach, expect, test } from "vitest";
import { closeDb, openDb } from "@/db/client";
import { createHostGate } from "@/lib/rounds/host-gate";
import { SLOT_TTL_MS } from "@/lib/rounds/host-leases";
import { tempDb } from "../store/helpers";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

test("a lease that could not be given back is given back once the database is writable again", { timeout: 60_000 }, async () => {
  const t = tempDb("gate-unwritable-");
  cleanups.push(t.cleanup);
  const other = openDb(t.file);
  cleanups.push(() => closeDb(other));
  // Two connections are two holders, as two processes are: both end up sharing the gate through leases.
  const a = createHostGate({ db: t.db, limitOf: () => 1 });
  const b = createHostGate({ db: other, limitOf: () => 1 });
  (await a.acquire("warm.example"))();
  (await b.acquire("warm.example"))();

  const release = await a.acquire("host.example");
  t.db.$client.pragma("query_only = ON");
  release();
  // The slot lingers for a next request, then its give-back fails with SQLITE_READONLY.
  await new Promise((r) => setTimeout(r, 200));
  expect(t.db.$writes.unwritable?.code).toMatch(/^SQLITE_READONLY/);
  t.db.$client.pragma("query_only = OFF");

  const asked = Date.now();
  const granted = await b.acquire("host.example");
  const waited = Date.now() - asked;
  granted();
  // Kept, the lease held the host until the holder's renewal gave it back (a third of its lifetime at most), not
  // until it lapsed; dropped and renewed with the others, it would never have lapsed while `a` lives.
  expect(waited).toBeGreaterThan(1_000);
  expect(waited).toBeLessThan(SLOT_TTL_MS / 3 + 5_000);
  a.settle();
  b.settle();
});
