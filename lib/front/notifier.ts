import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

// The sender of subscribers' messages (lib/cli/notifier.ts) in a child process of the front, beside the renderer and
// supervised the same way: one that exits is started again after 1 s, then 2, 4 … up to 30 s. It shares nothing with the
// renderer but the database, so its deliveries never hold a render or a round.

export interface Notifier {
  readonly pid: number | null;
  stop(): Promise<void>;
}

export function startNotifier(options: { cwd: string; env: NodeJS.ProcessEnv; siteUrl: string; log: (line: string) => void }): Notifier {
  let child: ChildProcess | null = null;
  let stopped = false;
  let wait = 1_000;
  let timer: NodeJS.Timeout | null = null;
  const start = () => {
    const startedAt = Date.now();
    // process.execArgv carries tsx's loader: the child runs TypeScript as `npm start` itself does.
    child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        path.join(options.cwd, "lib", "cli", "notifier.ts"),
        "--site-url",
        options.siteUrl,
        "--parent",
        String(process.pid),
      ],
      {
        cwd: options.cwd,
        env: options.env,
        stdio: ["ignore", "inherit", "inherit"],
      },
    );
    child.once("exit", (code, signal) => {
      child = null;
      if (stopped) return;
      if (Date.now() - startedAt > 30_000) wait = 1_000;
      options.log(`[site] notifier exited (${signal ?? `exit ${code}`}); starting it again in ${wait / 1000} s`);
      timer = setTimeout(start, wait);
      wait = Math.min(wait * 2, 30_000);
    });
  };
  start();
  return {
    get pid() {
      return child?.pid ?? null;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = child;
      if (!c) return;
      await new Promise<void>((resolve) => {
        c.once("exit", () => resolve());
        c.kill("SIGTERM");
        setTimeout(() => c.kill("SIGKILL"), 5_000).unref();
      });
    },
  };
}
