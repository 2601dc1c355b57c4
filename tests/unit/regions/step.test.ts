import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { storedFamilies } from "@/lib/metrics/stored";
import { deliverPendingAlerts, type WebhookPayload } from "@/lib/rounds/alerts/webhook";
import { alertsAtom } from "@/lib/site/alerts-feed";
import { alertEvents, alerts } from "@/db/schema";
import { judge } from "@/lib/checks";
import { createAddressPolicy } from "@/lib/probe";
import { siteStatus } from "@/lib/rounds/alerts/status";
import { createHostGate } from "@/lib/rounds/host-gate";
import { closeRegionConnections, createRegionsStep, type RoundRegions } from "@/lib/rounds/regions";
import { probeInProcess } from "@/lib/rounds/server-run";
import { openAlerts, recentAlertEvents } from "@/lib/store/alerts";
import type { DueServer } from "@/lib/store/servers/round";
import { startLoopbackHost, zooMount, type LoopbackHost } from "@/tests/fixtures/loopback-hosts";
import { freePort, SITE_USER, startAgent, startBroker, type AgentProcess, type Broker } from "@/tests/fixtures/nats";
import { tempDb } from "../store/helpers";

// The round's probe step (lib/rounds/regions.ts) over a real broker: region_down opens for a region that stops
// answering and resolves by itself once copies of probes read from it again; with NATS down the local region carries
// the round, and without one the servers are Not checked ("no region could probe") and probe_network opens.

let broker: Broker;
const agents: AgentProcess[] = [];
let host: LoopbackHost;
const t = tempDb();
const logs: string[] = [];

const due = (i: number): DueServer => ({
  id: i,
  name: `io.example/step-${i}`,
  remoteUrl: host.url("/s"),
  transport: "streamable-http",
  host: new URL(host.origin).host,
  needsConfig: null,
  stateHandshake: null,
});

function step(config: RoundRegions, roundId = 1) {
  return createRegionsStep({
    db: t.db,
    config,
    roundId,
    now: () => new Date(),
    log: (l) => logs.push(l),
    gate: createHostGate({ limitOf: () => 1 }),
    judge,
  });
}

const options = { addressPolicy: createAddressPolicy({ allowPrivate: true }), limits: { deadlineMs: 10_000 } };
const probe = async (s: ReturnType<typeof step>, i: number) =>
  (await s.probeStep(probeInProcess)(due(i), { url: host.url("/s"), transport: "streamable-http" }, options)).judged;

beforeAll(async () => {
  broker = await startBroker(["a", "s"]);
  agents.push(startAgent(broker, "a"));
  await agents[0]!.ready;
  host = await startLoopbackHost("127.0.0.1", { mounts: { "/s": zooMount("modern-healthy-paged", "/s") } });
}, 60_000);

afterAll(async () => {
  await closeRegionConnections();
  await Promise.all(agents.map((a) => a.kill()));
  await broker?.stop();
  await host?.close();
  t.cleanup();
});

describe("the round's probe step over regions", () => {
  test("a region that answers nothing opens region_down for itself, and it resolves once that region reads again", async () => {
    const config: RoundRegions = {
      regions: ["a", "s"],
      nats: { url: broker.url, user: SITE_USER, password: broker.users[SITE_USER]! },
      health: { silenceMs: 300, recoveryReads: 2, recoveryPerMinute: 60 },
    };
    const s1 = step(config);
    // Every server is read, by a whichever region was asked first.
    for (let i = 1; i <= 4; i++) {
      const r = await probe(s1, i);
      expect(r.regional?.region).toBe("a");
      expect(r.results.find((c) => c.check === "handshake")!.state).toBe("verified");
    }
    await new Promise((r) => setTimeout(r, 350));
    await probe(s1, 5);
    s1.finish();
    const open = openAlerts(t.db).filter((a) => a.kind === "region_down");
    expect(open.map((a) => a.subject)).toEqual(["s"]);
    expect(open[0]!.message).toMatch(/^Region s is down: it answered no probe since /);
    expect(siteStatus(t.db, new Date()).regions).toEqual([
      expect.objectContaining({ id: "a", up: true }),
      expect.objectContaining({ id: "s", up: false }),
    ]);
    expect(siteStatus(t.db, new Date()).alerts).toEqual([expect.objectContaining({ kind: "region_down", subject: "s" })]);
    // The same path as every alert: the webhook, the Atom feed, /metrics.
    const received: WebhookPayload[] = [];
    const hook = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push(JSON.parse(body) as WebhookPayload);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      expect(await deliverPendingAlerts(t.db, { url, log: () => undefined })).toMatchObject({ delivered: 1, failed: 0 });
      expect(received[0]!.alert).toMatchObject({ kind: "region_down", state: "open", subject: "s" });
      expect(received[0]!.text).toMatch(/^mcp-status alert region_down \(a probing region is down\) opened: region s is down/);
    } finally {
      hook.close();
    }
    expect(alertsAtom({ origin: "https://status.example", events: recentAlertEvents(t.db), now: new Date() })).toContain("region_down");
    const gauge = storedFamilies(t.db, new Date()).find((f) => f.name === "mcp_status_alerts_open")!;
    expect(gauge.values.find((v) => v.labels.kind === "region_down")?.value).toBe(1);

    agents.push(startAgent(broker, "s"));
    await agents.at(-1)!.ready;
    const s2 = step(config, 2);
    for (let i = 6; i <= 8; i++) await probe(s2, i);
    s2.finish();
    expect(openAlerts(t.db).filter((a) => a.kind === "region_down")).toEqual([]);
    const events = t.db.select().from(alertEvents).all();
    const regionDown = t.db
      .select()
      .from(alerts)
      .all()
      .filter((a) => a.kind === "region_down");
    expect(regionDown).toHaveLength(1);
    expect(regionDown[0]!.resolvedMessage).toBe("Region s answers and reads again.");
    expect(events.filter((e) => e.alertId === regionDown[0]!.id).map((e) => e.state)).toEqual(["open", "resolved"]);
    expect(siteStatus(t.db, new Date()).regions.every((r) => r.up)).toBe(true);
  }, 60_000);

  test("NATS down: the local region carries the round; without one, the server is Not checked and probe_network opens", async () => {
    const dead = `nats://127.0.0.1:${await freePort()}`;
    const withLocal = step({ regions: ["x", "here"], local: "here", nats: { url: dead, user: SITE_USER, password: "x" } }, 3);
    const r = await probe(withLocal, 9);
    expect(r.regional?.region).toBe("here");
    expect(r.results.find((c) => c.check === "handshake")!.state).toBe("verified");

    const alone = step({ regions: ["x"], nats: { url: dead, user: SITE_USER, password: "x" } }, 4);
    const lost = await probe(alone, 10);
    expect(lost.skipped).toBe(true);
    expect(lost.obs.blocked).toMatchObject({ kind: "probe_network" });
    const hs = lost.results.find((c) => c.check === "handshake")!;
    expect(hs.state).toBe("not_checked");
    expect(hs.reason).toMatch(/no region could probe \(x: nats down\)/);
    alone.finish();
    expect(openAlerts(t.db).map((a) => a.kind)).toContain("probe_network");
  }, 60_000);
});
