// Small helpers the benchmark scripts share: percentiles, memory sampling, child processes, tables.
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";

export const MB = 1024 * 1024;

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function sortedNumbers(values: Iterable<number>): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Resident set size of another process (kB → bytes) from /proc; 0 when it is gone. */
export function procRss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The kernel's high-water mark of this process's RSS (VmHWM), in bytes. */
export function selfRssHighWater(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** All descendants of a pid (children, grandchildren, …), from /proc. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** CPU time (user + system, seconds) the processes used so far, from /proc (clock ticks of 1/100 s, as
 * Linux reports them); a process that is gone counts 0. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended
    }
  }
  return ticks / 100;
}

/** Samples this process's RSS (plus its children's, when asked) every `everyMs`. */
export function startRssSampler(everyMs = 100, includeChildren = false) {
  let peak = 0;
  let samples = 0;
  const sample = () => {
    // Only the RSS: memoryUsage() also walks every heap space, about 1 ms a call on a big heap, which the
    // profile of a round counted as the prober's own CPU (1.2% of the round's samples).
    let rss = process.memoryUsage.rss();
    if (includeChildren) for (const pid of descendants(process.pid)) rss += procRss(pid);
    peak = Math.max(peak, rss);
    samples++;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop(): { peak: number; samples: number } {
      clearInterval(timer);
      sample();
      return { peak, samples };
    },
  };
}

/** Forks a TypeScript module (through tsx) with a role in its environment; IPC stays open. */
const NICE = "/usr/bin/nice";

/** Runs `file` with tsx in a child with IPC, under BENCH_ROLE=`role`, at `niceness` when above 0. */
export function forkTs(file: string, role: string, env: Record<string, string> = {}, niceness = 0): ChildProcess {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each child there (for finding where the time goes).
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // Started under nice(1), so every thread of the child (GC, the thread pool) runs at that priority.
  const niced = niceness > 0 && fs.existsSync(NICE);
  return fork(file, [], {
    ...(niced ? { execPath: NICE } : {}),
    execArgv: [...(niced ? ["-n", String(niceness), process.execPath] : []), "--import", "tsx", ...prof],
    env: { ...process.env, ...env, BENCH_ROLE: role },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** The first IPC message of the given type, or a rejection when the child exits or the time runs out. */
export function nextMessage<T extends { type: string }>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no "${type}" message within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (m: unknown) => {
      if (m && typeof m === "object" && (m as { type?: unknown }).type === type) finish(null, m as T);
    };
    const onExit = (code: number | null) => finish(new Error(`child exited (code ${code}) before sending "${type}"`));
    function finish(err: Error | null, value?: T) {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (err) reject(err);
      else resolve(value!);
    }
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}

/** Ends a child we started: asks over IPC, then SIGTERM, then SIGKILL. */
export async function stopChild(child: ChildProcess, graceMs = 3_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  try {
    if (child.connected) child.send("stop");
  } catch {
    // IPC already closed
  }
  const wait = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
  if (await wait(graceMs)) return;
  child.kill("SIGTERM");
  if (await wait(graceMs)) return;
  child.kill("SIGKILL");
  await exited;
}

// One loopback port finder for tests and benches.
export { freePort } from "@/lib/cli/ports";

export type Verdict = "PASS" | "MISS";

export interface TargetRow {
  figure: string;
  value: string;
  target: string;
  verdict: Verdict | "info";
}

/** A plain fixed-width table. */
export function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) console.log(line(r));
}

export function printTargets(title: string, rows: TargetRow[]): void {
  printTable(
    title,
    ["figure", "measured", "target", "result"],
    rows.map((r) => [r.figure, r.value, r.target, r.verdict]),
  );
}

export const fmt = {
  ms: (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(1) : Math.round(v)} ms` : "n/a"),
  s: (v: number) => `${(v / 1000).toFixed(1)} s`,
  mb: (v: number) => `${Math.round(v / MB)} MB`,
  n: (v: number) => v.toLocaleString("en-US"),
  rate: (v: number) => `${v.toFixed(v < 100 ? 1 : 0)}/s`,
};

/** Runs `fn` over items with at most `n` in flight; returns when all are done. */
export async function pool<T>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
}
