import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Db } from "@/db/client";
import { createZooHandler, type LoggedRequest } from "@/lib/demo/zoo";
import { createAddressPolicy, type ProbeOptions } from "@/lib/probe";
import type { ProbeTarget } from "@/lib/probe/types";
import { runRound } from "@/lib/rounds/round";
import { probeInProcess, type ProbeStep } from "@/lib/rounds/server-run";
import { addOptOut } from "@/lib/store/optouts";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import type { DueServer } from "@/lib/store/servers/round";
import { registryRows } from "../../fixtures/loopback-hosts";
import { tempDb } from "../store/helpers";

// The round's probe step (lib/rounds/server-run.ts): the one place where a server the round decided to probe is
// probed. Whatever runs the step, the round's own decisions (opt-outs, robots.txt) come first.

interface Zoo {
  server: Server;
  url: string;
  log: LoggedRequest[];
}

async function zoo(behaviour: string): Promise<Zoo> {
  const log: LoggedRequest[] = [];
  const handler = createZooHandler(behaviour, { log });
  const server = createServer((req, res) => {
    if (req.url === "/robots.txt") return void res.writeHead(404).end();
    void handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, log };
}

let t: ReturnType<typeof tempDb>;
let db: Db;
let healthy: Zoo;
let optedOut: Zoo;
const clock = Date.parse("2026-11-29T12:00:00.000Z");

beforeAll(async () => {
  t = tempDb();
  db = t.db;
  healthy = await zoo("modern-healthy-paged");
  optedOut = await zoo("modern-healthy-paged");
  const at = new Date(clock).toISOString();
  applyRegistrySnapshot(
    db,
    registryRows([
      { name: "step/healthy", url: healthy.url },
      { name: "step/opted-out", url: optedOut.url },
    ]),
    at,
  );
  addOptOut(db, { host: new URL(optedOut.url).host, reason: "asked by e-mail", source: "operator", since: at });
});

afterAll(async () => {
  for (const z of [healthy, optedOut]) await new Promise((r) => (z.server.closeAllConnections(), z.server.close(r)));
  t.cleanup();
});

describe("the probe step", () => {
  test("gets each server the round may probe, once, with the round's gate, connections and limits; an opted-out one never", async () => {
    const calls: { server: DueServer; target: ProbeTarget; options: ProbeOptions }[] = [];
    const step: ProbeStep = (server, target, options) => {
      calls.push({ server, target, options });
      return probeInProcess(server, target, options);
    };
    const r = await runRound({
      db,
      addressPolicy: createAddressPolicy({ allowPrivate: true }),
      now: () => new Date(clock),
      log: () => undefined,
      trigger: "test",
      limits: { deadlineMs: 20_000 },
      probe: step,
    });

    expect(r).toMatchObject({ due: 2, probed: 2, read: 1, skipped: 1 });
    expect(calls.map((c) => [c.server.name, c.target])).toEqual([["step/healthy", { url: healthy.url, transport: "streamable-http" }]]);
    const [{ options }] = calls as [(typeof calls)[number]];
    expect(options.hostGate).toBeDefined();
    expect(options.connections).toBeDefined();
    expect(options.limits?.deadlineMs).toBe(20_000);
    expect(optedOut.log).toEqual([]);
    expect(getServerDetail(db, "step/healthy")!.states.handshake).toBe("verified");
    expect(getServerDetail(db, "step/opted-out")!.states.handshake).toBe("not_checked");
  });
});
