// The reference server for bench:site: Debian's nginx (installed with apt-get when missing and run as
// root), one worker, sendfile, keep-alive, serving files from one folder (file.gz to clients that accept
// gzip). Started and stopped here.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { descendants, freePort } from "./common";

const NGINX = "/usr/sbin/nginx";

/** Makes sure Debian's nginx is installed; installs it with apt-get when it is not (root only). */
export function ensureNginx(log: (line: string) => void): void {
  if (fs.existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) throw new Error(`${NGINX} is missing: install Debian's nginx (apt-get install -y nginx) or run as root`);
  log("[bench:site] nginx is missing: apt-get install -y nginx");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "nginx"],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env, timeout: 10 * 60_000 });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${r.status})`);
  }
  // The package may start its own service on port 80; the bench runs one of its own instead.
  if (fs.existsSync("/run/nginx.pid")) spawnSync(NGINX, ["-s", "quit"], { stdio: "ignore" });
}

export interface NginxRoute {
  /** A location prefix ("/" alone means exactly "/"). */
  prefix: string;
  contentType: string;
}

export interface RunningNginx {
  origin: string;
  /** The master and its worker. */
  pids(): number[];
  stop(): Promise<void>;
}

/** Serves `root` (URL paths map to files; "/" to index.html) with one worker; each location's files get
 * its content type. */
export async function startNginx(dir: string, root: string, routes: NginxRoute[]): Promise<RunningNginx> {
  const port = await freePort();
  for (const d of ["tmp", "logs"]) fs.mkdirSync(path.join(dir, d), { recursive: true });
  const locations = routes
    .map((r) =>
      r.prefix === "/"
        ? `location = / { default_type "${r.contentType}"; try_files /index.html =404; }`
        : `location ${r.prefix} { default_type "${r.contentType}"; }`,
    )
    .join("\n    ");
  const conf = path.join(dir, "nginx.conf");
  const tmp = path.join(dir, "tmp");
  fs.writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
master_process on;
${process.getuid?.() === 0 ? "user root;" : ""}
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "logs", "error.log")} warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 65;
  keepalive_requests 1000000;
  gzip_static on;
  gzip_vary on;
  types {}
  default_type application/octet-stream;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    ${locations}
  }
}
`,
  );
  const master: ChildProcess = spawn(NGINX, ["-c", conf, "-p", dir], { stdio: ["ignore", "ignore", "inherit"] });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (master.exitCode !== null) throw new Error(`nginx exited (${master.exitCode}); see ${path.join(dir, "logs", "error.log")}`);
    try {
      await fetch(`${origin}/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("nginx did not listen within 20 s");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    origin,
    pids: () => [master.pid!, ...descendants(master.pid!)],
    stop: () =>
      new Promise<void>((resolve) => {
        if (master.exitCode !== null || master.signalCode !== null) return resolve();
        master.once("exit", () => resolve());
        master.kill("SIGQUIT");
        setTimeout(() => master.kill("SIGKILL"), 5_000).unref();
      }),
  };
}
