// For every server both can read, our probe's tool list equals the official SDK client's, field path
// by field path.
import { afterAll, describe, expect, test } from "vitest";
import { createAddressPolicy, probeServer } from "@/lib/probe";
import type { Transport } from "@/lib/probe/protocol";
import { PEERS } from "@/tests/fixtures/peers";
import { startZooServer, ZOO_EXPECTATIONS } from "@/lib/demo/zoo";
import { flatten, readToolsWithOfficialClient, toolListDifferences } from "./official-reader";

const policy = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] });

interface Server {
  url: string;
  transport: Transport;
  close(): Promise<void>;
}

const compared: string[] = [];
const officialCouldNot: string[] = [];

async function compare(name: string, server: Server, mustCompare: boolean): Promise<void> {
  const obs = await probeServer(
    { url: server.url, transport: server.transport },
    { addressPolicy: policy, limits: { deadlineMs: 20_000 } },
  );
  if (obs.toolsList?.kind !== "complete") {
    expect(mustCompare, `${name}: our probe could not read the tool list (${obs.toolsList?.kind})`).toBe(false);
    return;
  }
  let theirs;
  try {
    theirs = await readToolsWithOfficialClient(server.url, server.transport);
  } catch (e) {
    officialCouldNot.push(`${name} (${(e as Error).message.slice(0, 120)})`);
    expect(mustCompare, `${name}: the official client could not read it: ${(e as Error).message}`).toBe(false);
    return;
  }
  const diffs = toolListDifferences(obs.toolsList.tools, theirs.tools);
  expect(diffs, `${name}: field-path differences (ours vs official client, ${theirs.mode} ${theirs.protocolVersion ?? ""})`).toEqual([]);
  expect(flatten(obs.toolsList.tools).size).toBeGreaterThan(0);
  compared.push(`${name} [${obs.era} / official ${theirs.mode} ${theirs.protocolVersion ?? "?"}, ${obs.toolsList.tools.length} tools]`);
}

afterAll(() => {
  console.log(`[reader] compared ${compared.length} servers field by field:\n  ${compared.join("\n  ")}`);
  if (officialCouldNot.length) console.log(`[reader] the official client could not read:\n  ${officialCouldNot.join("\n  ")}`);
});

const zooCases = Object.entries(ZOO_EXPECTATIONS).filter(
  ([, e]) => e.states.tools_list === "verified" && !e.optOut && (!e.hostile || e.readable),
);

describe("independent reader: zoo servers", () => {
  test.each(zooCases)("%s", async (name, exp) => {
    const server = await startZooServer(name);
    try {
      await compare(name, { url: server.url, transport: exp.transport ?? "streamable-http", close: server.close }, exp.readable === true);
    } finally {
      await server.close();
    }
  });
});

describe("independent reader: real peers", () => {
  test.each(Object.entries(PEERS).filter(([, p]) => p.readable))("%s", async (name, peer) => {
    const running = await peer.start();
    try {
      await compare(name, { ...running, transport: "streamable-http" }, true);
    } finally {
      await running.close();
    }
  });

  test("compared enough servers to mean something", () => {
    expect(compared.length).toBeGreaterThanOrEqual(15);
  });
});
