// npm run deps: the import graph between the layers of app/, lib/ and db/, one line per layer → layer
// edge with the number of imports behind it. Exits 1 and names the import when one points up a layer.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

// Top to bottom (STYLE.md). lib/vocabulary is the ground floor every layer may read, db/schema included.
const LAYERS: [name: string, match: (file: string) => boolean][] = [
  ["server.ts", (f) => f === "server.ts"],
  ["lib/front", (f) => f.startsWith("lib/front/")],
  ["app", (f) => f.startsWith("app/") || f === "instrumentation.ts" || f === "proxy.ts"],
  ["lib/cli", (f) => f.startsWith("lib/cli/")],
  ["lib/metrics", (f) => f.startsWith("lib/metrics/")],
  ["lib/mcp", (f) => f.startsWith("lib/mcp/")],
  ["lib/rounds", (f) => f.startsWith("lib/rounds/")],
  // Dispatch to the regions and their quorum (architecture.md §8): below the round that records, above what it probes with.
  ["lib/regions", (f) => f.startsWith("lib/regions/")],
  ["lib/demo", (f) => f.startsWith("lib/demo/")],
  ["lib/site", (f) => f.startsWith("lib/site/")],
  ["lib/api", (f) => f.startsWith("lib/api/")],
  ["lib/store", (f) => f.startsWith("lib/store/")],
  ["db", (f) => f.startsWith("db/")],
  ["lib/registry", (f) => f.startsWith("lib/registry/")],
  ["lib/checks", (f) => f.startsWith("lib/checks/")],
  ["lib/probe", (f) => f.startsWith("lib/probe/")],
  ["lib/config", (f) => f === "lib/config.ts"],
  ["lib/vocabulary", (f) => f.startsWith("lib/vocabulary/")],
];
const RANK = new Map(LAYERS.map(([name], i) => [name, LAYERS.length - i]));

function layerOf(file: string): string | undefined {
  return LAYERS.find(([, match]) => match(file))?.[0];
}

function sources(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [dir];
  return fs.readdirSync(abs, { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" ? [] : sources(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts") ? [rel] : [];
  });
}

/** The repository file an import specifier names, or undefined for a package. */
function resolve(from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    const abs = path.join(ROOT, candidate);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile()) return candidate;
  }
  return undefined;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

const edges = new Map<string, number>();
const upward: string[] = [];
for (const file of ["server.ts", "app", "lib", "db", "instrumentation.ts", "proxy.ts"].flatMap(sources)) {
  const from = layerOf(file);
  if (!from) continue;
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  for (const m of text.matchAll(IMPORT)) {
    const target = resolve(file, m[1] ?? m[2]!);
    const to = target && layerOf(target);
    if (!to || to === from) continue;
    const key = `${from} → ${to}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
    if (RANK.get(to)! > RANK.get(from)!) upward.push(`${file} imports ${target} (${from} → ${to}, upward)`);
  }
}

const sorted = [...edges].sort(([a], [b]) => {
  const [fa, ta] = a.split(" → ");
  const [fb, tb] = b.split(" → ");
  return RANK.get(fb!)! - RANK.get(fa!)! || RANK.get(tb!)! - RANK.get(ta!)!;
});
console.log(`layers, top to bottom: ${LAYERS.map(([n]) => n).join(", ")}`);
for (const [edge, n] of sorted) console.log(`  ${edge.padEnd(30)} ${n}`);
if (upward.length) {
  console.error(`\n${upward.length} upward import(s):`);
  for (const u of upward) console.error(`  ${u}`);
  process.exit(1);
}
console.log(`\n${sorted.length} edges, all downward.`);
