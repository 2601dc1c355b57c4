import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "@/db/client";
import { CHANGING_SERVER, changingTools } from "@/lib/demo/changing";
import { DEMO_CHANGING_SERVER } from "@/lib/demo/fleet";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { createBehaviourHandler } from "@/lib/demo/zoo";
import { createAddressPolicy } from "@/lib/probe";
import { startDemoChanges } from "@/lib/rounds/demo-changes";
import { startRound, type RoundDeps } from "@/lib/rounds/round";
import { incidentList } from "@/lib/store/incidents";
import { getServerDetail } from "@/lib/store/servers/detail";
import { toolChangeList } from "@/lib/store/tools";
import { serverUptime } from "@/lib/store/uptime";
import { tempDb } from "../store/helpers";

// The demo's changing server, served for real on loopback and probed through ordinary rounds into a real
// database: after the first round and the demo's follow-up probes, tool history and an incident exist.

let server: Server;
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;
let db: Db;
const logs: string[] = [];

const deps = (): RoundDeps => ({
  db,
  registryUrl: registry.url,
  registryOptions: { sleep: async () => undefined },
  addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
  limits: { deadlineMs: 10_000 },
  robots: false,
  log: (l) => logs.push(l),
  trigger: "test",
});

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  const handler = createBehaviourHandler(CHANGING_SERVER, changingTools, { prefix: `/${CHANGING_SERVER}` });
  server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${CHANGING_SERVER}/mcp`;
  registry = await startFixtureRegistry([entry(DEMO_CHANGING_SERVER, [{ type: "streamable-http", url }])]);
});

afterAll(async () => {
  await registry?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  t?.cleanup();
});

describe("the demo's changing server", () => {
  test("a first round and the demo's follow-up probes leave tool changes of every kind and one closed incident", async () => {
    const first = startRound(deps());
    expect(first.started).toBe(true);
    if (first.started) await first.done;
    expect(getServerDetail(db, DEMO_CHANGING_SERVER)!.states.handshake).toBe("verified");
    expect(toolChangeList(db, { serverName: DEMO_CHANGING_SERVER }).total).toBe(0);

    const changes = startDemoChanges(deps, { intervalMs: 50, log: (l) => logs.push(l) });
    await changes.done;

    const kinds = new Set(toolChangeList(db, { serverName: DEMO_CHANGING_SERVER }).rows.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(["added", "changed", "removed"]);
    const incidents = incidentList(db, { server: DEMO_CHANGING_SERVER, limit: 10 });
    expect(incidents.total).toBe(1);
    expect(incidents.rows[0]).toMatchObject({ check: "handshake", endedAt: expect.any(String) });
    expect(incidents.rows[0]!.reason).toContain("502");
    expect(serverUptime(db, DEMO_CHANGING_SERVER, new Date())!.last24h).toMatchObject({ up: 3, reached: 4 });
    expect(logs.some((l) => l.includes("step 4 of 4 probed"))).toBe(true);
  });
});
