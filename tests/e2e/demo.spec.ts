import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "../../lib/cli/ports";
import { CHECK_IDS, CHECK_STATES } from "@/lib/vocabulary/checks";
import { STATE_LABELS } from "@/lib/site/labels";

// The README's first command, minus the build `test:e2e` has just done: `npm run demo`, a fresh database,
// the built-in fleet on loopback, a first round at start. Pages and API must show all four states.
// A free port of its own, so parallel suites on one machine never meet on it.
let base = "";

let demo: ChildProcess | undefined;
let dir = "";
let output = "";

test.describe.configure({ mode: "serial", timeout: 150_000 });

test.beforeAll(async () => {
  // The hook waits up to 120 s for the first round below; its own limit must not be shorter.
  test.setTimeout(150_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), "mcp-status-demo-"));
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: path.join(dir, "demo.db"), NEXT_TELEMETRY_DISABLED: "1" };
  delete env.REGISTRY_URL;
  delete env.PROBE_SCHEDULE;
  demo = spawn("npm", ["run", "--silent", "demo", "--", "--no-build", "--port", String(port)], { env, detached: true });
  demo.stdout?.on("data", (c: Buffer) => (output += c.toString()));
  demo.stderr?.on("data", (c: Buffer) => (output += c.toString()));
  const until = Date.now() + 120_000;
  while (!output.includes(`[demo] open ${base}`)) {
    if (Date.now() > until) throw new Error(`demo did not finish its first round in 120 s:\n${output}`);
    if (demo.exitCode !== null) throw new Error(`demo exited ${demo.exitCode}:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (demo?.pid) {
    try {
      process.kill(-demo.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dir, { recursive: true, force: true });
});

test("the demo prints the URL and its first round probed the whole fleet", () => {
  expect(output).toMatch(/\[demo\] built-in registry at http:\/\/127\.0\.0\.1:\d+ lists \d+ fixture servers/);
  expect(output).toMatch(/\[rounds\] \d+ due, \d+ read/);
  // Each fixture server is a host of its own: one server's 429 must not leave the rest of the fleet unprobed.
  expect(output).not.toMatch(/servers left due/);
  const due = Number(/\[rounds\] (\d+) due/.exec(output)?.[1]);
  const probed = Number(/\[demo\] first round done: (\d+) servers probed/.exec(output)?.[1]);
  expect(probed).toBe(due);
  expect(output).toContain(`[demo] open ${base}`);
});

test("the API shows verdicts of all four states after the first round", async ({ request }) => {
  for (const state of CHECK_STATES) {
    let found = 0;
    for (const check of CHECK_IDS) {
      const res = await request.get(`${base}/api/servers?${check}=${state}&pageSize=5`);
      expect(res.status()).toBe(200);
      found += (await res.json()).total;
    }
    expect(found, `servers with some check ${state}`).toBeGreaterThan(0);
  }
  const detail = await request.get(`${base}/api/servers/dev.mcp-status.demo/legacy-python-sdk-server-error-id`);
  expect(detail.status()).toBe(200);
  const body = await detail.json();
  expect(body.checks.handshake.state).toBe("verified");
  expect(body.checks.handshake.reason).toContain("server-error");
  expect(body.era).toBe("legacy");

  // Suite 0.13.0: a server listing four remotes is probed on the first that needs nothing; a misconfiguration's hint.
  const several = await (await request.get(`${base}/api/servers/dev.mcp-status.demo/several-remotes`)).json();
  expect(several.remotes.map((r: { standing: string }) => r.standing)).toEqual([
    "needs_configuration",
    "needs_configuration",
    "probed",
    "passed_over",
  ]);
  expect(several.checks.tools_list.state).toBe("verified");
  const hinted = await (await request.get(`${base}/api/servers/dev.mcp-status.demo/invalid-host-403`)).json();
  expect(hinted.checks.handshake.hintCode).toBe("invalid_host");
});

test("servers listed with a required key are reached without it, and their pages say which case it was (suite 0.15.0)", async ({
  page,
  request,
}) => {
  const cases = [
    ["reach-answers-without-key", "answered", "Answered without the `X-Api-Key` header the registry marks required"],
    ["reach-403-json", "refused", "Refused with 403 without the `X-Api-Key` header the registry marks required"],
    ["reach-template-bearer-gate", "gated", "Asked for credentials (401 with a valid challenge) without the `Authorization` header"],
    ["reach-tenant-no-address", "no_address", "Not probed: the listed URL has a variable with no default"],
  ] as const;
  for (const [name, reach, words] of cases) {
    const json = await (await request.get(`${base}/api/servers/dev.mcp-status.demo/${name}`)).json();
    expect(json.configuration.reach, name).toBe(reach);
    // A missing key never makes a server Failed.
    expect(json.overall, name).not.toBe("failed");
    await page.goto(`${base}/servers/dev.mcp-status.demo/${name}`);
    await expect(page.locator(`[role=note][data-reach=${reach}]`)).toContainText(words);
  }
  const refused = await (await request.get(`${base}/api/servers?reach=refused&pageSize=50`)).json();
  expect(refused.rows.map((r: { name: string }) => r.name)).toContain("dev.mcp-status.demo/reach-403-json");
});

test("the index page shows every state label with counts", async ({ page }) => {
  await page.goto(`${base}/`);
  for (const state of CHECK_STATES) await expect(page.getByText(STATE_LABELS.en[state]).first()).toBeVisible();
  await expect(page.getByRole("link", { name: /dev\.mcp-status\.demo\// }).first()).toBeVisible();
  await page.goto(`${base}/servers/dev.mcp-status.demo/credential-gate-valid-prm`);
  await expect(page.locator("#check-handshake")).toContainText(/credential/i);
});

test("a fresh demo starts green: once its first round and cross-read are done, /api/status answers 200", async ({ request }) => {
  // The cross-reader reads after the first round of the UTC day; the alerts are judged the moment it has stored its day.
  const until = Date.now() + 90_000;
  while (!/\[crossread\] \d{4}-\d{2}-\d{2}: \d+ sampled/.test(output)) {
    if (Date.now() > until) throw new Error(`the demo's cross-read did not finish in 90 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 500));
  const res = await request.get(`${base}/api/status`);
  const body = await res.json();
  expect(body.alerts, JSON.stringify(body)).toEqual([]);
  expect(res.status()).toBe(200);
  expect(output).not.toContain("cross_read opened");
  // The fleet's explained differences are there, stored as such, and they are what kept the alert shut.
  expect(body.crossRead.explained).toBeGreaterThan(0);
  const reads = await (await request.get(`${base}/api/cross-reads`)).json();
  const discover500 = reads.servers.find((s: { name: string }) => s.name === "dev.mcp-status.demo/discover-500-stack-trace");
  expect(discover500).toMatchObject({ outcome: "only_cross_reader", explained: true, explanation: "discover_server_error" });
  const page = await (await request.get(`${base}/api/servers/dev.mcp-status.demo/discover-500-stack-trace`)).json();
  expect(page.crossRead.sentence).toMatch(
    /^An initialize-first reader read \d+ tools? on \d{4}-\d{2}-\d{2}; modern clients fail here because server\/discover answered HTTP 500\.$/,
  );
  // The credential gate with good metadata is Not checked overall in the demo too.
  const gate = await (await request.get(`${base}/api/servers/dev.mcp-status.demo/credential-gate-valid-prm`)).json();
  expect(gate).toMatchObject({ overall: "not_checked", overallCause: "credential_required" });
  expect((await (await request.get(`${base}/api/badge/dev.mcp-status.demo/credential-gate-valid-prm`)).json()).message).toBe("not checked");
});

test("within the first minutes the changing server shows tool changes, the tool feed has them, and an incident opened and closed", async ({
  page,
  request,
}) => {
  const name = "dev.mcp-status.demo/changing-tools";
  const until = Date.now() + 130_000;
  let body: {
    toolChanges: unknown[];
    incidents: { endedAt: string | null; reason: string }[];
    uptime: { last24h: { up: number; reached: number } };
  };
  for (;;) {
    body = await (await request.get(`${base}/api/servers/${name}`)).json();
    if (body.incidents.some((i) => i.endedAt) && body.toolChanges.length > 0) break;
    if (Date.now() > until)
      throw new Error(`no closed incident and tool change after 130 s:\n${JSON.stringify(body.incidents)}\n${output.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
  expect(body.incidents[0]!.reason).toContain("502");
  expect(body.uptime.last24h).toMatchObject({ up: 3, reached: 4 });
  await page.goto(`${base}/changes`);
  await expect(page.getByRole("link", { name }).first()).toBeVisible();
  const feed = await (await request.get(`${base}/changes/feed.xml`)).text();
  expect(feed).toContain(name);
  await page.goto(`${base}/incidents`);
  await expect(page.locator("table.incidents")).toContainText(name);
});
