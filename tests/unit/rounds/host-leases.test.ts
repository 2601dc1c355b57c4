// The host gate's cross-process leases (lib/rounds/host-leases.ts) on their own, on a real SQLite file: another
// process is stood for by its rows, written through lib/store/host-gate.ts as that process would write them.
import { afterEach, describe, expect, test } from "vitest";
import type { Db } from "@/db/client";
import {
  HostLeases,
  newHostLeaseState,
  SLOT_LINGER_MS,
  SLOT_TTL_MS,
  type LeasedHost,
  type Pacer,
  type Slot,
} from "@/lib/rounds/host-leases";
import { joinHostGate, shareHostSlots } from "@/lib/store/host-gate";
import { tempDb } from "../store/helpers";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function setup() {
  const t = tempDb("host-leases-");
  cleanups.push(t.cleanup);
  const hosts = new Map<string, LeasedHost>();
  const pumped: string[] = [];
  const pacer: Pacer = { pump: (host) => void pumped.push(host), retryIn: () => undefined, learnedDelayMs: () => 0 };
  const leases = new HostLeases(t.db, hosts, pacer);
  cleanups.push(() => leases.settle(false));
  const host = (name: string): LeasedHost => {
    const st: LeasedHost = { active: new Set<Slot>(), lastEndMs: -Infinity, lease: newHostLeaseState() };
    hosts.set(name, st);
    return st;
  };
  return { db: t.db, leases, host, pumped };
}

const leaseRows = (db: Db) => (db.$client.prepare("select count(*) as n from host_leases").get() as { n: number }).n;
const holders = (db: Db) =>
  db.$client.prepare("select holder, shared from host_gate_holders order by holder").all() as { holder: string; shared: number }[];

describe("the host gate's leases", () => {
  test("alone on the database, a slot is counted in memory and no lease is written", () => {
    const { db, leases, host } = setup();
    const st = host("a.example");
    expect(leases.ready("a.example", st)).toBe(true);
    expect(leases.slotFor("a.example", st, () => 1, Date.now())).toEqual({ lease: null });
    expect(leaseRows(db)).toBe(0);
    expect(holders(db)).toEqual([expect.objectContaining({ shared: 0 })]);
  });

  test("behind a process that keeps its slots in memory, none is taken until it has handed them over; then each is a lease", async () => {
    const { db, leases, host, pumped } = setup();
    const now = Date.now();
    expect(joinHostGate(db, "other", now, now + SLOT_TTL_MS)).toBe("alone");
    const st = host("a.example");
    expect(leases.ready("a.example", st)).toBe(false);
    await sleep(200);
    expect(pumped).toEqual([]);
    // The other process sees this one arrive and hands its slots (none in flight here) over.
    shareHostSlots(db, "other", [], new Map(), Date.now() + SLOT_TTL_MS);
    for (let i = 0; i < 100 && pumped.length === 0; i++) await sleep(20);
    expect(pumped).toEqual(["a.example"]);
    expect(leases.ready("a.example", st)).toBe(true);
    const slot = leases.slotFor("a.example", st, () => 1, Date.now());
    expect(slot?.lease).toEqual(expect.any(Number));
    expect(leaseRows(db)).toBe(1);
  });

  test("a released lease lingers for the next request, then goes back to the database with the last end", async () => {
    const { db, leases, host } = setup();
    const now = Date.now();
    joinHostGate(db, "other", now, now + SLOT_TTL_MS);
    shareHostSlots(db, "other", [], new Map(), now + SLOT_TTL_MS);
    const st = host("a.example");
    expect(leases.ready("a.example", st)).toBe(true);
    const slot = leases.slotFor("a.example", st, () => 1, Date.now())!;
    st.lastEndMs = Date.now();
    leases.released(st, slot);
    leases.pumped("a.example", st);
    expect(st.lease.idle).toEqual([slot]);
    // Within the linger the kept slot is reused: no second lease.
    expect(leases.slotFor("a.example", st, () => 1, Date.now())).toBe(slot);
    expect(leaseRows(db)).toBe(1);
    leases.released(st, slot);
    leases.pumped("a.example", st);
    await sleep(SLOT_LINGER_MS * 5);
    expect(st.lease.idle).toEqual([]);
    expect(leaseRows(db)).toBe(0);
    expect(db.$client.prepare("select last_end_ms as e from host_gate where host = 'a.example'").get()).toEqual({
      e: Math.round(st.lastEndMs),
    });
  });

  test("settled with nothing in flight, the process leaves the gate: its row is gone", () => {
    const { db, leases, host } = setup();
    expect(leases.ready("a.example", host("a.example"))).toBe(true);
    expect(holders(db)).toHaveLength(1);
    leases.settle(false);
    expect(holders(db)).toEqual([]);
  });
});
