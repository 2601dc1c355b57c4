import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// The official MCP conformance suite, pinned in tests/conformance with the Node 22 it needs (it does not start on
// Node 20). Its node_modules/.bin goes first in PATH for the suite's process only: installed with the site, that
// `node` would shadow the site's own Node 20 in every npm script.

export const CONFORMANCE_DIR = path.resolve("tests/conformance");
const BIN = path.join(CONFORMANCE_DIR, "node_modules", ".bin");
export const BASELINE = path.join(CONFORMANCE_DIR, "baseline.yml");

export interface ConformanceRun {
  code: number | null;
  /** The "Passed: x/y, n failed, w warnings" line. */
  summary: string;
  output: string;
}

function run(command: string, args: string[], timeoutMs: number): Promise<ConformanceRun> {
  if (!fs.existsSync(path.join(BIN, "conformance"))) {
    throw new Error(`the conformance suite is not installed: run sh scripts/ensure-conformance.sh (npm run test:e2e does)`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ""}`, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
      resolve({ code, summary: /^Passed: .*$/m.exec(plain)?.[0] ?? "", output: plain });
    });
  });
}

/** `conformance server --url … --scenario … --spec-version …` against the baseline of excused checks. */
export function conformanceServer(url: string, scenario: string, specVersion: string, baseline = BASELINE): Promise<ConformanceRun> {
  return run(
    path.join(BIN, "conformance"),
    ["server", "--url", url, "--scenario", scenario, "--spec-version", specVersion, "--expected-failures", baseline],
    120_000,
  );
}

/** The Node the suite runs on. */
export async function conformanceNodeVersion(): Promise<string> {
  return (await run(path.join(BIN, "node"), ["--version"], 30_000)).output.trim();
}
