import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAddressPolicy, DEFAULT_USER_AGENT } from "@/lib/probe";
import { runRound } from "@/lib/rounds/round";
import { getServerDetail } from "@/lib/store/servers/detail";
import { applyRegistrySnapshot } from "@/lib/store/servers/registry";
import { registryRows, startLoopbackHost, zooMount, type LoopbackHost } from "../../fixtures/loopback-hosts";
import { tempDb } from "../store/helpers";

// architecture.md §2.4: a metadata host whose robots.txt disallows mcp-status-probe gets nothing fetched but robots.txt,
// and auth_metadata says so, like an operator opt-out. The gated servers and their metadata hosts sit on
// different loopback addresses.

const BEHAVIOUR = "auth-prm-on-opted-out-host";
const t = tempDb();
const hosts: LoopbackHost[] = [];
let deniedMeta: LoopbackHost;
let allowedMeta: LoopbackHost;

beforeAll(async () => {
  deniedMeta = await startLoopbackHost("127.0.0.62", {
    mounts: { "": zooMount(BEHAVIOUR, "") },
    robots: "User-agent: *\nAllow: /\n\nUser-agent: mcp-status-probe\nDisallow: /.well-known/\n",
  });
  allowedMeta = await startLoopbackHost("127.0.0.64", {
    mounts: { "": zooMount(BEHAVIOUR, "") },
    robots: "User-agent: somebot\nDisallow: /\n",
  });
  const denied = await startLoopbackHost("127.0.0.61", { mounts: { "/s": zooMount(BEHAVIOUR, "/s", deniedMeta.origin) } });
  const allowed = await startLoopbackHost("127.0.0.63", { mounts: { "/s": zooMount(BEHAVIOUR, "/s", allowedMeta.origin) } });
  hosts.push(deniedMeta, allowedMeta, denied, allowed);
  applyRegistrySnapshot(
    t.db,
    registryRows([
      { name: "io.test/denied-metadata", url: denied.url("/s") },
      { name: "io.test/allowed-metadata", url: allowed.url("/s") },
    ]),
    new Date().toISOString(),
  );
  const s = await runRound({
    db: t.db,
    addressPolicy: createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.0/8"] }),
    log: () => undefined,
    trigger: "test",
  });
  expect(s).toMatchObject({ status: "done", probed: 2 });
}, 60_000);

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  t.cleanup();
});

describe("robots.txt on the auth metadata host", () => {
  test("a metadata host whose robots.txt disallows mcp-status-probe gets only its robots.txt read; auth_metadata is Not checked", () => {
    expect(deniedMeta.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /robots.txt"]);
    // robots.txt goes through the probe's own HTTP session: the full User-Agent, not a bare token.
    expect(deniedMeta.requests[0]!.userAgent).toBe(DEFAULT_USER_AGENT);
    const d = getServerDetail(t.db, "io.test/denied-metadata")!;
    const auth = d.checks.find((c) => c.check === "auth_metadata")!;
    expect(auth.state).toBe("not_checked");
    expect(auth.reason).toContain(`${new URL(deniedMeta.origin).hostname} asked not to be probed (robots.txt disallows mcp-status-probe)`);
    expect(auth.reason).toMatch(/nothing was fetched/);
  });

  test("a metadata host whose robots.txt names only other agents is fetched as before", () => {
    expect(allowedMeta.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /robots.txt",
      "GET /.well-known/oauth-protected-resource/mcp",
    ]);
    const auth = getServerDetail(t.db, "io.test/allowed-metadata")!.checks.find((c) => c.check === "auth_metadata")!;
    expect(auth.reason).not.toMatch(/asked not to be probed/);
  });
});
