import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { describe, expect, test } from "vitest";
import { BETTER_SQLITE3_BINARY, nativeBuildProblem } from "@/db/native-build";

// `engines` names the Node versions CI tests, and nothing else: the machine's Node 20 and the Node 24 of tests/node24.
// This suite runs on both, so each run checks that its own Node is one that `engines` admits.

const root = path.resolve(__dirname, "../../..");
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;
const engines = (json("package.json").engines as { node: string }).node;
/** `^X.Y.Z || ^A.B.C` → the floors, one per major. */
const floors = engines.split("||").map((r) => {
  const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(r);
  if (!m) throw new Error(`engines.node part ${JSON.stringify(r)} is not ^X.Y.Z`);
  return m.slice(1).map(Number) as [number, number, number];
});
const parse = (v: string) => v.replace(/^v/, "").split(".").map(Number) as [number, number, number];
const admits = (v: string) => {
  const [a, b, c] = parse(v);
  return floors.some(([x, y, z]) => a === x && (b > y || (b === y && c >= z)));
};

describe("the Node versions CI tests are the ones engines names", () => {
  test("engines names Node 20 and Node 24, one range each", () => {
    expect(floors.map((f) => f[0])).toEqual([20, 24]);
  });

  test(`this run's Node (${process.version}) is admitted by engines (${engines})`, () => {
    expect(admits(process.version)).toBe(true);
  });

  test("the Node 24 that CI installs (tests/node24) is the floor engines names for 24, and its lockfile agrees", () => {
    const pinned = (json("tests/node24/package.json").devDependencies as { node: string }).node;
    expect(floors.find((f) => f[0] === 24)?.join(".")).toBe(pinned);
    const lock = json("tests/node24/package-lock.json") as { packages: Record<string, { version?: string }> };
    expect(lock.packages["node_modules/node"]?.version).toBe(pinned);
  });

  test("the README's table of supported versions names both floors", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Supported Node versions"), readme.indexOf("## Running in production"));
    for (const f of floors) expect(section).toContain(f.join("."));
    expect(section).toContain(`\`${engines}\``);
  });
});

describe("better-sqlite3 is built so that Node 24 does not abort it", () => {
  test("this run's build does not carry the Node 24.19+ ObjectWrap cleanup hooks", () => {
    expect(fs.readFileSync(BETTER_SQLITE3_BINARY).includes("RemoveEnvironmentCleanupHook")).toBe(false);
    expect(nativeBuildProblem()).toBeNull();
  });

  test("a build that carries them is refused on the Node 24 releases that abort it, and only there", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "native-build-"));
    try {
      const binary = path.join(dir, "better_sqlite3.node");
      fs.writeFileSync(
        binary,
        Buffer.concat([Buffer.alloc(64), Buffer.from("_ZN4node28RemoveEnvironmentCleanupHookEPN2v87IsolateEPFvPvES3_"), Buffer.alloc(64)]),
      );
      expect(nativeBuildProblem({ binary, node: "24.21.0" })).toMatch(
        /was compiled against Node 24\.19 or later headers, and on Node 24\.21\.0 it aborts the process .*rebuild it against Node 24\.18\.1's headers/,
      );
      expect(nativeBuildProblem({ binary, node: "24.9.0" })).not.toBeNull();
      expect(nativeBuildProblem({ binary, node: "20.20.2" })).toBeNull();
      expect(nativeBuildProblem({ binary, node: "24.22.0" })).toBeNull();
      expect(nativeBuildProblem({ binary: path.join(dir, "absent.node"), node: "24.21.0" })).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
