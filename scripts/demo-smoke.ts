// npm run test:demo-smoke: the README's first command on the Node that runs this, minus its build (it needs an
// existing .next): `npm run demo -- --no-build` on a fresh database, the built-in fleet on loopback, its first
// round over the whole fleet, then real verdicts of all four states in the API and the index. CI runs it on Node 20
// with the .next that the Node 24 run built (tests/e2e/demo.spec.ts tests the demo at length on Node 24).
// Ends with one closing line, "demo-smoke: N passed, N failed".
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../lib/cli/ports";
import { CHECK_IDS, CHECK_STATES } from "../lib/vocabulary/checks";

const FIRST_ROUND_MS = 180_000;

async function main(): Promise<string[]> {
  if (!existsSync(".next/BUILD_ID")) return ["no .next build here: run `npx next build` (or copy one) first"];
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-status-demo-smoke-"));
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: path.join(dir, "demo.db"), NEXT_TELEMETRY_DISABLED: "1" };
  delete env.REGISTRY_URL;
  delete env.PROBE_SCHEDULE;
  const demo = spawn("npm", ["run", "--silent", "demo", "--", "--no-build", "--port", String(port)], { env, detached: true });
  let output = "";
  demo.stdout.on("data", (c: Buffer) => (output += c.toString()));
  demo.stderr.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => demo.once("exit", () => r()));
  const problems: string[] = [];
  try {
    const started = Date.now();
    // Waits on the demo's own line, never on a clock: it prints it once the first round is stored.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no first round within ${FIRST_ROUND_MS / 1000} s`)), FIRST_ROUND_MS);
      const look = () => {
        if (output.includes(`[demo] open ${base}`)) return void (clearTimeout(timer), resolve());
        if (demo.exitCode !== null) return void (clearTimeout(timer), reject(new Error(`npm run demo exited ${demo.exitCode}`)));
      };
      demo.stdout.on("data", look);
      demo.once("exit", look);
    });
    const due = Number(/\[rounds\] (\d+) due/.exec(output)?.[1]);
    const probed = Number(/\[demo\] first round done: (\d+) servers probed/.exec(output)?.[1]);
    if (!(due > 0) || probed !== due) problems.push(`first round probed ${probed} of ${due} due servers`);
    for (const state of CHECK_STATES) {
      let found = 0;
      for (const check of CHECK_IDS) {
        const res = await fetch(`${base}/api/servers?${check}=${state}&pageSize=1`);
        if (res.status !== 200) problems.push(`/api/servers?${check}=${state} answered ${res.status}`);
        else found += ((await res.json()) as { total: number }).total;
      }
      if (found === 0) problems.push(`no server has a check ${state}`);
    }
    const index = await fetch(`${base}/`);
    const html = await index.text();
    if (index.status !== 200 || !html.includes("dev.mcp-status.demo/")) problems.push(`/ answered ${index.status} without the demo fleet`);
    console.log(`[demo-smoke] ${process.version}: first round of ${probed} servers in ${Math.round((Date.now() - started) / 1000)} s`);
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  } finally {
    const kill = (signal: NodeJS.Signals) => {
      try {
        process.kill(-demo.pid!, signal);
      } catch {
        // already gone
      }
    };
    kill("SIGTERM");
    const hard = setTimeout(() => kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(hard);
    rmSync(dir, { recursive: true, force: true });
  }
  if (problems.length) console.log(output.slice(-4000));
  return problems;
}

void main().then((problems) => {
  for (const p of problems) console.log(`[demo-smoke] ${p}`);
  console.log(`demo-smoke: ${problems.length ? 0 : 1} passed, ${problems.length ? 1 : 0} failed`);
  process.exit(problems.length ? 1 : 0);
});
