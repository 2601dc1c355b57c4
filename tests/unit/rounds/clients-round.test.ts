// architecture.md §2.10 end to end: a round probes a modern-only server, one that speaks both eras, a legacy one and a
// credential gate; the servers row keeps which clients can connect, the JSON API and the list filter answer it, and the
// extra handshake moved no check. Real loopback servers, a real registry, a real SQLite file.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getServer, getServers } from "@/app/api/_lib/handlers";
import { createAddressPolicy } from "@/lib/probe";
import { runRound } from "@/lib/rounds/round";
import { entry, startFixtureRegistry, type FixtureRegistry } from "@/lib/demo/loopback-registry";
import { startZooServer, type RunningZooServer } from "@/lib/demo/zoo";
import { tempDb } from "../store/helpers";

const CASES = {
  "io.example/modern-only": "clients-modern-only-32602",
  "io.example/both-eras": "dual-era",
  "io.example/legacy": "legacy-2025-06-18-stateless",
  "io.example/gated": "credential-gate-valid-prm",
} as const;
const zoo = new Map<string, RunningZooServer>();
let registry: FixtureRegistry;
let t: ReturnType<typeof tempDb>;

type ClientsJson = { initializeFirst: { state: string; reason: string }; discoverFirst: { state: string; reason: string } };

beforeAll(async () => {
  t = tempDb();
  for (const [name, zooCase] of Object.entries(CASES)) zoo.set(name, await startZooServer(zooCase));
  registry = await startFixtureRegistry(
    Object.keys(CASES).map((name) => entry(name, [{ type: "streamable-http", url: zoo.get(name)!.url }])),
  );
  const summary = await runRound({
    db: t.db,
    registryUrl: registry.url,
    registryOptions: { sleep: async () => undefined },
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    robots: false,
    log: () => undefined,
    trigger: "test",
  });
  expect(summary.status).toBe("done");
});

afterAll(async () => {
  await Promise.all([...zoo.values()].map((z) => z.close()));
  await registry?.close();
  t?.cleanup();
});

async function server(name: string) {
  return JSON.parse(await getServer(name, t.db).text()) as { clients: ClientsJson; overall: string; exchanges: { phase: string }[] };
}

describe("which clients can connect, through a round", () => {
  test("/api/servers/<name> carries each kind's state and one sentence; a no names the answer", async () => {
    const modern = await server("io.example/modern-only");
    expect(modern.overall).toBe("verified");
    expect(modern.clients.initializeFirst.state).toBe("no");
    expect(modern.clients.initializeFirst.reason).toMatch(/initialize with -32602 \(HTTP 400, "Invalid params/);
    expect(modern.clients.discoverFirst).toMatchObject({ state: "yes" });
    expect((await server("io.example/both-eras")).clients).toMatchObject({
      initializeFirst: { state: "yes" },
      discoverFirst: { state: "yes" },
    });
    expect((await server("io.example/legacy")).clients).toMatchObject({
      initializeFirst: { state: "yes" },
      discoverFirst: { state: "yes_after_fallback" },
    });
    expect((await server("io.example/gated")).clients).toMatchObject({
      initializeFirst: { state: "unknown" },
      discoverFirst: { state: "unknown" },
    });
  });

  test("the legacy server gets exactly one initialize in the round; the modern ones one each, after the modern handshake", () => {
    const initializes = (name: string) => zoo.get(name)!.log.filter((r) => r.jsonrpcMethod === "initialize").length;
    expect(initializes("io.example/legacy")).toBe(1);
    expect(initializes("io.example/modern-only")).toBe(1);
    expect(initializes("io.example/both-eras")).toBe(1);
    const methods = zoo.get("io.example/modern-only")!.log.map((r) => r.jsonrpcMethod ?? r.method);
    expect(methods).toEqual(["server/discover", "tools/list", "tools/call", "initialize"]);
  });

  test("?initializeFirst= filters the list, and every row carries clients", async () => {
    const names = async (state: string) => {
      const body = (await getServers(new Request(`http://x/api/servers?initializeFirst=${state}`), t.db).json()) as {
        rows: { name: string; clients: ClientsJson }[];
      };
      return body.rows.map((r) => r.name);
    };
    expect(await names("no")).toEqual(["io.example/modern-only"]);
    expect(await names("yes")).toEqual(["io.example/both-eras", "io.example/legacy"]);
    expect(await names("unknown")).toEqual(["io.example/gated"]);
    expect((await getServers(new Request("http://x/api/servers?initializeFirst=maybe"), t.db)).status).toBe(400);
  });
});
