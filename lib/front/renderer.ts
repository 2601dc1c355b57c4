import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "../cli/ports";
import { createUpstream, RENDERER_KEEP_ALIVE_MS, RENDERER_NICENESS, type Upstream } from "./upstream";
import type { RendererState } from "../vocabulary/front";
import { WARM_PATHS, warmRenderer } from "./warm";

// The renderer, `next start` (the built .next, and the embedded scheduler from instrumentation.ts), in a
// child process on loopback, supervised: one that exits is started again after 1 s, then 2, 4 … up to
// the limit, and the wait starts over once a renderer has stayed up that long. While it is away the front
// serves what it holds.

export interface RendererStatus {
  state: RendererState;
  pid: number | null;
  /** When the current state began (ISO). */
  since: string;
  restarts: number;
  /** How the last renderer ended ("exit 1", "SIGKILL"), null before any did. */
  lastExit: string | null;
  /** When the next start is due (ISO), while restarting. */
  nextStartAt: string | null;
}

export interface Renderer {
  readonly state: RendererState;
  status(): RendererStatus;
  /** The hop to the renderer while it is up, else null. */
  upstream(): Upstream | null;
  /** Seconds until the renderer is expected to answer again (Retry-After while it is away). */
  retryAfterS(): number;
  /** Resolves once the first renderer accepts connections; rejects if it exits first. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export interface RendererOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  restartMinMs: number;
  restartMaxMs: number;
  /** A renderer that does not accept connections this long after its start is killed (and started again). */
  startTimeoutMs: number;
  /** Called when a renderer exited (before the next one starts): `pid` held whatever it held. */
  onExit?: (pid: number, how: string) => void;
  onRestart?: () => void;
  log: (line: string) => void;
  /** The renderer's stdout lines, banner lines naming its loopback address already left out. */
  out?: (line: string) => void;
}

const POLL_MS = 100;

/** The variable naming the front's pid to its renderer, which ends itself once that process is gone. */
export const RENDERER_PARENT_ENV = "MCP_STATUS_FRONT_PID";

/** Lowers every thread of `pid` to `niceness` (Linux lists them under /proc/<pid>/task; threads started
 * later inherit it), and its session's CPU group where the kernel has one. The renderer starts at the
 * front's priority, so a restart under load is quick, and renders and rounds run below it from then on.
 * False when it could not. */
function renice(pid: number, niceness: number): boolean {
  try {
    const tasks = fs.existsSync(`/proc/${pid}/task`) ? fs.readdirSync(`/proc/${pid}/task`).map(Number) : [pid];
    for (const tid of tasks) os.setPriority(tid, niceness);
  } catch {
    return false;
  }
  try {
    if (fs.existsSync(`/proc/${pid}/autogroup`)) fs.writeFileSync(`/proc/${pid}/autogroup`, String(niceness));
  } catch {
    // not allowed here (an unprivileged user may only raise it): the threads' own niceness still holds
  }
  return true;
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** The wait before the next start: the shortest after a first exit, doubling up to the longest while
 * renderers keep exiting, the shortest again once one stayed up as long as the longest wait. */
export function nextBackoff(previousMs: number, upForMs: number, options: { restartMinMs: number; restartMaxMs: number }): number {
  if (previousMs === 0 || upForMs >= options.restartMaxMs) return options.restartMinMs;
  return Math.min(options.restartMaxMs, previousMs * 2);
}

export function superviseRenderer(options: RendererOptions): Renderer {
  const nextBin = path.join(options.cwd, "node_modules", "next", "dist", "bin", "next");
  const out = options.out ?? ((line: string) => process.stdout.write(`${line}\n`));

  let state: RendererState = "starting";
  let since = Date.now();
  let child: ChildProcess | null = null;
  let upstream: Upstream | null = null;
  let restarts = 0;
  let lastExit: string | null = null;
  let backoffMs = 0;
  let upAt = 0;
  let nextStartAt: number | null = null;
  let restartTimer: NodeJS.Timeout | undefined;
  let everUp = false;
  let readyResolve!: () => void;
  let readyReject!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => ((readyResolve = resolve), (readyReject = reject)));
  let stopped: (() => void) | null = null;

  const enter = (s: RendererState) => {
    state = s;
    since = Date.now();
  };

  /** Starts a renderer; one that cannot even be spawned counts as one that exited at once. */
  function start(): void {
    launch().catch((e: unknown) => {
      options.log(`[site] the renderer could not be started: ${(e as Error).message}`);
      const proc = child;
      if (proc) proc.kill("SIGKILL");
      else if (everUp) exited(null, "spawn failed");
      else readyReject(e as Error);
    });
  }

  async function launch(): Promise<void> {
    nextStartAt = null;
    enter("starting");
    const port = await freePort();
    if ((state as RendererState) === "stopped") return;
    const args = [nextBin, "start", "-H", "127.0.0.1", "-p", String(port), "--keepAliveTimeout", String(RENDERER_KEEP_ALIVE_MS)];
    // A session of its own: where the kernel groups CPU time by session (autogroup), the renderer's renders
    // then never count against the front's share. It ends when the front does (instrumentation.ts).
    const proc = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: { ...options.env, NODE_ENV: "production", [RENDERER_PARENT_ENV]: String(process.pid) },
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    child = proc;
    // The renderer's own banner names its loopback port, which is not the site's address: left out.
    let pending = "";
    proc.stdout!.setEncoding("utf8");
    proc.stdout!.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop()!;
      for (const line of lines) if (!/^\s*- (Local|Network):/.test(line)) out(line);
    });
    proc.once("error", (e) => options.log(`[site] the renderer could not be started: ${e.message}`));
    proc.once("exit", (code, signal) => exited(proc, code === null ? String(signal) : `exit ${code}`));
    const deadline = Date.now() + options.startTimeoutMs;
    while (child === proc && proc.exitCode === null && proc.signalCode === null) {
      if (await accepting(port)) {
        if (child !== proc || state === "stopped") return;
        if (!renice(proc.pid!, RENDERER_NICENESS)) options.log(`[site] could not lower the renderer's priority: it runs at the front's`);
        // Visitors come once the index and the server page have loaded their code (warm.ts).
        const up = createUpstream({ host: "127.0.0.1", port });
        const warmed = await warmRenderer(up, deadline);
        if (child !== proc || (state as RendererState) === "stopped") {
          up.close();
          return;
        }
        options.log(`[site] the renderer answered ${warmed.answered} of ${WARM_PATHS.length} warm-up pages in ${warmed.ms} ms`);
        upstream = up;
        upAt = Date.now();
        enter("up");
        if (everUp) options.log(`[site] the renderer is back (pid ${proc.pid}, restart ${restarts})`);
        everUp = true;
        readyResolve();
        return;
      }
      if (Date.now() > deadline) {
        options.log(`[site] the renderer did not listen within ${Math.round(options.startTimeoutMs / 1000)} s; killing it`);
        proc.kill("SIGKILL");
        return;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  function exited(proc: ChildProcess | null, how: string): void {
    if (child !== proc) return;
    child = null;
    upstream?.close();
    upstream = null;
    lastExit = how;
    if (stopped) {
      enter("stopped");
      stopped();
      return;
    }
    if (!everUp) {
      // The first start failed: nothing was ever served, so the front gives up (a build missing, a bad env).
      enter("stopped");
      readyReject(new Error(`next start exited (${how}) before it listened`));
      return;
    }
    if (proc?.pid) options.onExit?.(proc.pid, how);
    backoffMs = nextBackoff(backoffMs, upAt ? Date.now() - upAt : 0, options);
    upAt = 0;
    nextStartAt = Date.now() + backoffMs;
    enter("restarting");
    options.log(`[site] the renderer (pid ${proc?.pid ?? "none"}) exited (${how}); starting it again in ${backoffMs / 1000} s`);
    restartTimer = setTimeout(() => {
      restarts++;
      options.onRestart?.();
      start();
    }, backoffMs);
  }

  start();

  return {
    get state() {
      return state;
    },
    status: () => ({
      state,
      pid: child?.pid ?? null,
      since: new Date(since).toISOString(),
      restarts,
      lastExit,
      nextStartAt: nextStartAt === null ? null : new Date(nextStartAt).toISOString(),
    }),
    upstream: () => (state === "up" ? upstream : null),
    retryAfterS: () => (nextStartAt === null ? 1 : Math.max(1, Math.ceil((nextStartAt - Date.now()) / 1000) + 1)),
    ready,
    stop() {
      clearTimeout(restartTimer);
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) {
        enter("stopped");
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const forced = setTimeout(() => proc.kill("SIGKILL"), 5_000);
        stopped = () => {
          clearTimeout(forced);
          resolve();
        };
        proc.kill("SIGTERM");
      });
    },
  };
}
