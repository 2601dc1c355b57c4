import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { CJK_RUN, EN_RUN, type Shingles, sharedRuns, shingles, withoutWireQuotes } from "./overlap";

const repoRoot = path.resolve(__dirname, "../../..");
/** The clone a local clone was made from (its origin remote, when that is a path on this machine). */
function originCheckout(dir: string): string | null {
  try {
    const url = execFileSync("git", ["config", "--get", "remote.origin.url"], { cwd: dir, encoding: "utf8" }).trim();
    return url && path.isAbsolute(url) && existsSync(url) ? url : null;
  } catch {
    return null;
  }
}

/** This checkout and the local clones it was made from, nearest first (CI's Node 24 run tests a clone of the CI clone). */
function checkouts(): string[] {
  const out = [repoRoot];
  for (let next = originCheckout(repoRoot); next && out.length < 5 && !out.includes(next); next = originCheckout(next)) out.push(next);
  return out;
}

// CI lays shared/ beside the clone; a clone of a local checkout finds it beside that checkout (or the one that was
// cloned from); SEEDS_DIR points elsewhere when none holds.
const seedsDir =
  process.env.SEEDS_DIR ??
  checkouts()
    .map((c) => path.resolve(c, "../shared/seeds"))
    .find((d) => existsSync(d)) ??
  path.resolve(repoRoot, "../shared/seeds");

const SKIP = [/(^|\/)package-lock\.json$/, /^db\/migrations\/meta\//, /\.(png|jpe?g|gif|ico|webp|woff2?|sqlite|db)$/i];

function trackedTextFiles(): string[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: repoRoot, encoding: "utf8", maxBuffer: 64 << 20 })
    .split("\0")
    .filter((f) => f && !SKIP.some((re) => re.test(f)));
  return files.filter((f) => {
    const abs = path.join(repoRoot, f);
    if (!existsSync(abs) || !statSync(abs).isFile()) return false;
    return !readFileSync(abs).subarray(0, 8000).includes(0);
  });
}

describe("no sentence of a seed is carried into the repository", () => {
  test("every tracked text file shares no run of 8 English words or 16 Chinese characters with a seed", () => {
    expect(
      existsSync(seedsDir) && statSync(seedsDir).isDirectory(),
      `[seed-overlap] seeds folder not found at ${seedsDir}; lay shared/ beside the clone or set SEEDS_DIR`,
    ).toBe(true);
    const seedFiles = readdirSync(seedsDir).filter((f) => statSync(path.join(seedsDir, f)).isFile());
    expect(seedFiles.length, `[seed-overlap] no seed files in ${seedsDir}`).toBeGreaterThan(0);
    const seeds: Shingles = { en: new Set(), zh: new Set() };
    for (const f of seedFiles) {
      const s = shingles(readFileSync(path.join(seedsDir, f), "utf8"));
      for (const x of s.en) seeds.en.add(x);
      for (const x of s.zh) seeds.zh.add(x);
    }

    const files = trackedTextFiles();
    const found: string[] = [];
    for (const f of files) {
      const text = withoutWireQuotes(f, readFileSync(path.join(repoRoot, f), "utf8"));
      for (const run of sharedRuns(text, seeds)) found.push(`${f} [${run.kind}] ${run.text}`);
    }
    console.log(
      `[seed-overlap] ${found.length} shared runs across ${files.length} files (${EN_RUN} English words, ${CJK_RUN} Chinese characters; seeds: ${seedFiles.length} in ${seedsDir})`,
    );
    for (const line of found) console.log(`[seed-overlap] ${line}`);
    expect(found).toEqual([]);
  });
});

describe("the overlap measure itself", () => {
  const seed = shingles(
    "A lighthouse keeper counts ships in the fog every single night. 灯塔看守人每天夜里都在雾中清点过往船只的数量并记下来。",
  );

  test("finds an English run despite case and punctuation changes", () => {
    expect(sharedRuns("— a LIGHTHOUSE keeper: counts ships, in the fog every", seed).map((r) => r.kind)).toEqual(["en"]);
    expect(sharedRuns("a lighthouse keeper counts ships in the", seed)).toEqual([]);
  });

  test("finds a Chinese run across punctuation and whitespace, not a shorter one", () => {
    expect(sharedRuns("灯塔看守人 每天夜里，都在雾中清点过往船只的数量", seed).map((r) => r.kind)).toEqual(["zh"]);
    expect(sharedRuns("灯塔看守人每天夜里都在雾中清点", seed)).toEqual([]);
  });

  test("a marked wire quotation is left out, and only it", () => {
    const src = `const a = { wire: "a lighthouse keeper counts ships in the fog", label: "x" };\nconst b = "a lighthouse keeper counts ships in the fog";`;
    const runs = sharedRuns(withoutWireQuotes("x.ts", src), seed);
    expect(runs).toHaveLength(1);
    expect(sharedRuns(withoutWireQuotes("x.ts", src.split("\n")[0]!), seed)).toEqual([]);
    const marked = `send(400, /* wire */ "a lighthouse keeper counts ships in the fog");\nsend(400, "a lighthouse keeper counts ships in the fog");`;
    expect(sharedRuns(withoutWireQuotes("x.ts", marked), seed)).toHaveLength(1);
  });
});
