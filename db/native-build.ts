// A guard for one known bad build (README "Supported Node versions"): better-sqlite3 12 compiled against Node 24.19+
// headers, whose node::ObjectWrap registers environment cleanup hooks, aborts the process the first time a statement
// is garbage-collected outside a JavaScript context (nodejs/node#65446) on the Node 24 releases known so far.
import fs from "node:fs";
import path from "node:path";

/** The compiled addon, where node-gyp leaves it; resolved from the working directory as the migrations are. */
export const BETTER_SQLITE3_BINARY = path.join(process.cwd(), "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
/** The symbol only that header's ObjectWrap brings into the addon (better-sqlite3 itself only adds a hook). */
const MARKER = Buffer.from("RemoveEnvironmentCleanupHook");

/** Why this process must not open a database with this build, or null. `node` is a version such as "24.21.0". */
export function nativeBuildProblem(o: { binary?: string; node?: string } = {}): string | null {
  const [major, minor] = (o.node ?? process.versions.node).split(".").map(Number);
  // 24.21 is the newest Node 24 this was checked on; a later one may carry the fix.
  if (major !== 24 || minor! > 21) return null;
  const binary = o.binary ?? BETTER_SQLITE3_BINARY;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(binary);
  } catch {
    return null;
  }
  if (!bytes.includes(MARKER)) return null;
  return (
    `${binary} was compiled against Node 24.19 or later headers, and on Node ${o.node ?? process.versions.node} it aborts the ` +
    `process when a statement is garbage-collected (nodejs/node#65446): rebuild it against Node 24.18.1's headers ` +
    `(README, Supported Node versions)`
  );
}

let checked: { problem: string | null } | undefined;
/** Throws the problem before any database opens (the file is read once per process). */
export function assertNativeBuild(): void {
  checked ??= { problem: nativeBuildProblem() };
  if (checked.problem) throw new Error(checked.problem);
}
